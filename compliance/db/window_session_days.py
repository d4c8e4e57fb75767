"""日摘要的维护: `window_session_days` kept as sessions are stored and replaced.

Each row holds a platform's stored sessions of one day: how many, and the sum mod 2^256
of their terms (`digests.session_term`: SHA-256 of platform, id and content digest). A
sum does not depend on the order sessions came in, and a replaced session is taken out
by subtracting its term, so a store changes only the rows of the days it touches. Every
change happens inside `store_sessions`, under the store's write lock: the rows read here
are the ones the write replaces.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import Connection, and_, bindparam, delete, insert, select

from compliance.db import digests

TABLE = digests.SESSION_DAYS
SESSIONS = digests.SESSIONS
MODULUS = 1 << 256
CHUNK = 500

Day = tuple[str, date]  # platform, day
# built once (see runs.STORED_LINES)
STORED_DAYS = select(TABLE.c.day, TABLE.c.sessions, TABLE.c.digest_sum).where(
    TABLE.c.platform == bindparam("platform"), TABLE.c.day.in_(bindparam("days", expanding=True))
)


class SessionDays:
    """One `store_sessions`' changes to the day rows: `forget` the stored sessions about to
    be deleted, `add` the new ones, `write` once."""

    def __init__(self) -> None:
        self.changes: dict[Day, list[int]] = {}  # sessions, sum of terms

    def add(self, platform: str, day: date, session_id: str, content: str, sign: int = 1):
        change = self.changes.setdefault((platform, day), [0, 0])
        change[0] += sign
        change[1] += sign * digests.session_term(platform, session_id, content)

    def forget(self, conn: Connection, platform: str, ids: list[str]) -> None:
        """Subtract these stored sessions (a session never stamped is digested from its row)."""
        where = and_(SESSIONS.c.platform == platform, SESSIONS.c.session_id.in_(ids))
        rows = conn.execute(
            select(SESSIONS.c.session_id, SESSIONS.c.day, SESSIONS.c.content_sha256).where(where)
        ).all()
        missing = [sid for sid, _, content in rows if content is None]
        made = digests.content_digests(conn, platform, missing) if missing else {}
        for sid, day, content in rows:
            self.add(platform, day, sid, content or made[sid], sign=-1)

    def write(self, conn: Connection) -> None:
        """Add the changes to the stored rows of their days (a day left empty goes)."""
        changed = {key: change for key, change in self.changes.items() if any(change)}
        self.changes = {}
        if not changed:
            return
        totals = {key: (0, 0) for key in changed}
        totals.update(stored(conn, changed))
        rows = []
        for key, (n, total) in changed.items():
            was_n, was_total = totals[key]
            rows.append((*key, was_n + n, (was_total + total) % MODULUS))
        conn.execute(
            delete(TABLE).where(TABLE.c.platform == bindparam("p"), TABLE.c.day == bindparam("d")),
            [{"p": p, "d": d} for p, d in changed],
        )
        kept = [row for row in rows if row[2] != 0]
        if kept:
            conn.execute(
                insert(TABLE),
                [
                    {"platform": p, "day": d, "sessions": n, "digest_sum": format(t, "064x")}
                    for p, d, n, t in kept
                ],
            )


def stored(conn: Connection, days: Iterable[Day]) -> dict[Day, tuple[int, int]]:
    """The stored rows of these days: count and sum of terms, by (platform, day)."""
    by_platform: dict[str, list[date]] = {}
    for platform, day in days:
        by_platform.setdefault(platform, []).append(day)
    found: dict[Day, tuple[int, int]] = {}
    for platform, wanted in by_platform.items():
        for i in range(0, len(wanted), CHUNK):
            for day, n, total in conn.execute(
                STORED_DAYS, {"platform": platform, "days": wanted[i : i + CHUNK]}
            ):
                found[(platform, day)] = (n, int(total, 16))
    return found


def recomputed(conn: Connection) -> dict[Day, tuple[int, str]]:
    """The day rows as the stored sessions' stamps give them, summed afresh."""
    days = SessionDays()
    stmt = select(
        SESSIONS.c.platform, SESSIONS.c.day, SESSIONS.c.session_id, SESSIONS.c.content_sha256
    )
    for platform, day, sid, content in conn.execute(stmt):
        days.add(platform, day, sid, content)
    return {
        key: (n, format(total % MODULUS, "064x")) for key, (n, total) in days.changes.items() if n
    }


def refill(conn: Connection) -> None:
    """The day rows made again from the stored sessions' stamps (a migration's backfill)."""
    conn.execute(delete(TABLE))
    rows = [
        {"platform": p, "day": d, "sessions": n, "digest_sum": total}
        for (p, d), (n, total) in sorted(recomputed(conn).items())
    ]
    for i in range(0, len(rows), CHUNK):
        conn.execute(insert(TABLE), rows[i : i + CHUNK])
