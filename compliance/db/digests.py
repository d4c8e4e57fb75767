"""摘要: digests of what a run stored and of the rules it read, for its manifest.

Each digest is SHA-256 over texts in an order that does not depend on the ids a store
hands out or on how workers interleaved their writes: a finding's JSON as it was written
(the same text on SQLite and PostgreSQL, whose `json` keeps it as given), a row as
canonical JSON of its plain values.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from datetime import UTC, date, datetime
from decimal import Context, Decimal
from typing import Any

import msgspec
from sqlalchemy import (
    ColumnElement,
    Connection,
    Numeric,
    Text,
    bindparam,
    cast,
    func,
    literal_column,
    select,
    update,
)

from compliance.db import trail
from compliance.db.models import (
    FindingRow,
    SessionRow,
    WindowFindingRow,
    table_of,
)
from compliance.db.window_models import WindowSessionDayRow

FINDINGS = table_of(FindingRow)
WINDOWS = table_of(WindowFindingRow)
SESSIONS = table_of(SessionRow)
SESSION_DAYS = table_of(WindowSessionDayRow)
NOT_CONTENT = {
    "run_id",
    "source_file",
    "source_line",
    "source_offset",
    "line",
    "content_sha256",
    "utc_offset",  # started_at's, which the content has
}


class Digest:
    """SHA-256 over canonical JSON texts, one a line."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.count = 0

    def add(self, text: str) -> None:
        self.sha.update(text.encode())
        self.sha.update(b"\n")
        self.count += 1

    def hexdigest(self) -> str:
        return self.sha.hexdigest()


def rules_digest(conn: Connection, rows) -> str:
    """The rule tables' rows, table by table, key by key."""
    digest = Digest()
    for row in sorted(rows, key=lambda r: r.__tablename__):
        table = table_of(row)
        for key, values in sorted(trail.snapshot(conn, table).items()):
            digest.add(trail.canonical([table.name, key, values]))
    return digest.hexdigest()


def session_findings_digest(conn: Connection, run_id: int) -> str:
    """The run's session findings, each session's in the order it was judged: each stored
    JSON text as written (a threshold finding's line named by its content's hash), hashed
    without decoding it. Read by the run's index: SQLite's statistics, made when one run
    stored the whole store, would have it walk every stored finding in key order."""
    digest = Digest()
    of_run: ColumnElement[bool] = FINDINGS.c.run_id == run_id
    stmt = select(cast(FINDINGS.c.payload, Text), FINDINGS.c.line_id)
    if conn.dialect.name == "sqlite":
        if _holds_most(conn, run_id):  # walk the findings in key order: no sort
            stmt = stmt.with_hint(FINDINGS, "INDEXED BY ix_findings_session", "sqlite")
        else:  # else statistics made by one run would have it walk every finding
            of_run = func.likelihood(of_run, literal_column("0.001"))
    stmt = stmt.where(of_run).order_by(FINDINGS.c.platform, FINDINGS.c.session_id, FINDINGS.c.id)
    for payload, line_id in conn.execute(stmt):
        digest.add(f"{payload}\t{line_id or ''}")
    return digest.hexdigest()


def _holds_most(conn: Connection, run_id: int) -> bool:
    """Whether the run holds at least half of the stored findings (ids are handed out in
    order, so the last id bounds how many are stored)."""
    mine = conn.scalar(select(func.count()).where(FINDINGS.c.run_id == run_id)) or 0
    last = conn.scalar(select(func.max(FINDINGS.c.id))) or 0
    return 2 * mine >= last


def window_findings_digest(conn: Connection, run_id: int) -> str:
    """The run's window findings."""
    findings = Digest()
    stmt = (
        select(cast(WINDOWS.c.payload, Text))
        .where(WINDOWS.c.run_id == run_id)
        .order_by(WINDOWS.c.platform, WINDOWS.c.subject, WINDOWS.c.window_end, WINDOWS.c.id)
    )
    for (payload,) in conn.execute(stmt):
        findings.add(payload)
    return findings.hexdigest()


def window_sessions_digest(
    conn: Connection, platforms: set[str], read_from: date | None
) -> tuple[str, int]:
    """The stored sessions the run's windows could sum, and how many: a line per platform
    and day of `window_session_days` (its count and the sum of its sessions' digests), in
    key order, so a run reads a row per day, whatever the store holds."""
    sessions = Digest()
    count = 0
    where: list[ColumnElement[bool]] = [SESSION_DAYS.c.platform.in_(sorted(platforms))]
    if read_from is not None:
        where.append(SESSION_DAYS.c.day >= read_from)
    stmt = (
        select(
            SESSION_DAYS.c.platform,
            SESSION_DAYS.c.day,
            SESSION_DAYS.c.sessions,
            SESSION_DAYS.c.digest_sum,
        )
        .where(*where)
        .order_by(SESSION_DAYS.c.platform, SESSION_DAYS.c.day)
    )
    for platform, day, n, total in conn.execute(stmt):
        sessions.add(f"{platform}\t{day.isoformat()}\t{n}\t{total}")
        count += n
    return sessions.hexdigest(), count


def session_term(platform: str, session_id: str, content: str) -> int:
    """A stored session's share of its day's digest sum: SHA-256 of its key and content
    digest, as an integer below 2^256."""
    line = f"{platform}\t{session_id}\t{content}".encode()
    return int.from_bytes(hashlib.sha256(line).digest(), "big")


def content_columns() -> list:
    """The columns a session's content digest covers: all but where it was read from, the
    line kept, the run that stored it and the digest itself."""
    return [c for c in SESSIONS.c if c.name not in NOT_CONTENT]


CONTENT_NAMES = tuple(c.name for c in content_columns())
SCALES = {
    c.name: Decimal(1).scaleb(-c.type.scale)
    for c in content_columns()
    if isinstance(c.type, Numeric) and c.type.scale is not None
}
WIDE = Context(prec=80)


def canonical_value(name: str, value: Any) -> Any:
    """A content column's value as its digest takes it, the same from the values stored
    and from the row read back on either database: money at the column's scale, an instant
    in UTC (SQLite keeps `started_at`'s wall time only), dates and lists as JSON."""
    if value is None or isinstance(value, str | int):
        return value
    if isinstance(value, Decimal | float):
        exact = value if isinstance(value, Decimal) else Decimal(repr(value))
        scale = SCALES.get(name)
        return trail.plain(exact.quantize(scale, context=WIDE) if scale is not None else exact)
    if isinstance(value, datetime):
        at = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return at.astimezone(UTC).isoformat(timespec="microseconds")
    return trail.plain(value)


def content_digest(values: dict[str, Any]) -> str:
    """SHA-256 of a session's content text: canonical JSON of its content columns."""
    text = trail.canonical({k: canonical_value(k, values[k]) for k in CONTENT_NAMES})
    return hashlib.sha256(text.encode()).hexdigest()


AS_IS = {str, int, type(None)}
MAX_KEPT = 1 << 12  # larger, it fills over 100,000s of sessions: memory grows, CPU not less
_encode = msgspec.json.Encoder().encode  # the same text as trail.ENCODER's (a test holds it)


class Canonicals(dict):
    """A money column's values → their canonical form, kept for those met most (a batch's
    figures repeat, and a `Decimal` keeps its hash). Zero is not kept: 0 and −0 are equal
    keys with different forms."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __missing__(self, value: Any) -> Any:
        found = canonical_value(self.name, value)
        if value and value.is_finite():
            if len(self) >= MAX_KEPT:
                self.clear()
            self[value] = found
        return found


CANONICALS = {name: Canonicals(name) for name in SCALES}


def stamped(columns: tuple[str, ...], rows: list[tuple]) -> list[tuple]:
    """Session rows (values in `columns` order, before storing) with their content digest
    added as a last value: made in Python, so that both databases store the same one.
    The text is `content_digest`'s, its keys put in their order once."""
    plan = [(name, columns.index(name), CANONICALS.get(name)) for name in sorted(CONTENT_NAMES)]
    sha = hashlib.sha256
    out = []
    for row in rows:
        content = {}
        for name, i, kept in plan:
            value = row[i]
            kind = type(value)
            if kind in AS_IS:
                content[name] = value
            elif kind is Decimal and kept is not None:
                try:
                    content[name] = kept[value]
                except TypeError:  # a signalling NaN has no hash
                    content[name] = canonical_value(name, value)
            elif kind is date:
                content[name] = value.isoformat()
            elif kind is list and all(type(v) is str for v in value):
                content[name] = value
            else:
                content[name] = canonical_value(name, value)
        out.append((*row, sha(_encode(content)).hexdigest()))
    return out


def content_digests(conn: Connection, platform: str, ids: list[str]) -> dict[str, str]:
    """The content digests of these stored sessions, by session id, made from their rows
    as read back (for stores filled before the digests were made in Python). Where SQLite
    kept `started_at` without its offset, the instant is taken from the session's line if
    it is kept, else the wall time is taken as UTC."""
    columns = content_columns()
    names = [c.name for c in columns]
    found: dict[str, str] = {}
    for i in range(0, len(ids), 500):
        where = (SESSIONS.c.platform == platform, SESSIONS.c.session_id.in_(ids[i : i + 500]))
        stmt = select(SESSIONS.c.line, *columns).where(*where)
        for line, *values in conn.execute(stmt):
            row = dict(zip(names, values, strict=True))
            row["started_at"] = instant(row["started_at"], line)
            found[row["session_id"]] = content_digest(row)
    return found


def instant(started_at: datetime, line: bytes | None) -> datetime:
    """`started_at` with its offset: as stored where the database kept it, else the kept
    line's own if its wall time is the one stored."""
    if started_at.tzinfo is not None or line is None:
        return started_at
    try:
        written = json.loads(zlib.decompress(line)).get("started_at")
        at = datetime.fromisoformat(written)
    except (zlib.error, ValueError, TypeError, AttributeError):
        return started_at
    if at.tzinfo is not None and at.replace(tzinfo=None) == started_at:
        return at
    return started_at


def stamp_contents(conn: Connection, keys: list[tuple[str, str]]) -> None:
    """内容摘要: stamp these stored sessions with their content digests, made from their
    rows as read back (a migration's backfill)."""
    by_platform: dict[str, list[str]] = {}
    for platform, session_id in keys:
        by_platform.setdefault(platform, []).append(session_id)
    stamps = [
        {"p": platform, "s": sid, "c": content}
        for platform, ids in by_platform.items()
        for sid, content in content_digests(conn, platform, ids).items()
    ]
    if stamps:
        conn.execute(
            update(SESSIONS)
            .where(SESSIONS.c.platform == bindparam("p"), SESSIONS.c.session_id == bindparam("s"))
            .values(content_sha256=bindparam("c")),
            stamps,
        )
