"""累计查询: window sums for players, room owners and platforms, from the day sums.

A window reads `window_days` (at most a row per subject, day, place and
venue, whatever the store holds) and, for the participants of an owner or a
platform, `window_people` (db/window_upkeep.py keeps both as sessions are
stored). The figures are those of the stored sessions themselves
(db/window_sessions.py reads them directly; the tests hold the two equal).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    and_,
    func,
    insert,
    literal_column,
    select,
    true,
    type_coerce,
)

from compliance.db.models import (
    PlayerMetricsRow,
    SessionRow,
    WindowDayRow,
    WindowFindingRow,
    WindowLastSeenRow,
    table_of,
)
from compliance.db.window_sessions import (
    people_by_day,
    sessions_behind,
    subject_ends,
    window_figures,
)
from compliance.domain.ledger import Entry, Ledger
from compliance.domain.windows import WindowFigures

S = table_of(SessionRow)
P = table_of(PlayerMetricsRow)
DAYS = table_of(WindowDayRow)
LAST_SEEN = table_of(WindowLastSeenRow)
WINDOW_FINDINGS = table_of(WindowFindingRow)
KINDS = ("owner", "platform", "player")
CHUNK = 500

Key = tuple[str, str]  # platform, subject


def _run_ends(
    conn: Connection, kind: str, span: ColumnElement[bool], run_id: int, end: date | None
) -> dict[Key, date]:
    """The run's subjects of a kind, each with its last day: `end`, or its latest session of
    the run, read by the run's index: SQLite is told that few sessions are the run's, for
    its statistics, made when the store was small or by one run that stored it all, would
    have it read a platform's every session instead."""
    of_run: ColumnElement[bool] = S.c.run_id == run_id
    if conn.dialect.name == "sqlite":
        of_run = func.likelihood(of_run, literal_column("0.001"))
    of_run = and_(of_run, span)
    if kind == "player":
        joined = P.join(S, and_(P.c.platform == S.c.platform, P.c.session_id == S.c.session_id))
        return subject_ends(conn, (P.c.platform, P.c.player_id), joined, of_run, end)
    present: ColumnElement[bool] = true()
    keys = (S.c.platform, S.c.platform)
    if kind == "owner":
        keys, present = (S.c.platform, S.c.owner_id), S.c.owner_id.is_not(None)
    return subject_ends(conn, keys, S, and_(of_run, present), end)


def _day_rows(
    conn: Connection,
    kind: str,
    platforms: list[str],
    bounds: list[ColumnElement[bool]],
    subjects: list[Key] | None,
) -> Iterable:
    """The `window_days` rows of a kind within the bounds, of these subjects (None: all),
    in key order."""
    columns = (
        DAYS.c.platform,
        DAYS.c.subject,
        DAYS.c.day,
        DAYS.c.place,
        DAYS.c.venue,
        DAYS.c.sessions,
        *(type_coerce(DAYS.c[c], BigInteger) for c in ("capital", "net", "rake", "fixed_fee")),
        DAYS.c.minors,
    )
    where = and_(DAYS.c.kind == kind, DAYS.c.platform.in_(platforms), *bounds)
    order = (DAYS.c.platform, DAYS.c.subject, DAYS.c.day, DAYS.c.place, DAYS.c.venue)
    if subjects is None:
        yield from conn.execute(select(*columns).where(where).order_by(*order))
        return
    ids = sorted({subject for _, subject in subjects})
    for i in range(0, len(ids), CHUNK):
        yield from conn.execute(
            select(*columns).where(where, DAYS.c.subject.in_(ids[i : i + CHUNK])).order_by(*order)
        )


def _entry(kind: str, row) -> Entry:
    _, _, day, place, venue, n, capital, net, rake, fixed_fee, minors = row
    if kind == "player":
        return Entry(day, place or None, n, int(capital), net=int(net))
    return Entry(
        day,
        place or None,
        n,
        int(capital),
        rake=int(rake),
        minors=minors,
        venue=venue,
        fixed_fee=int(fixed_fee),
    )


def ledgers(
    conn: Connection,
    platforms: set[str],
    end: date | None,
    read_from: date | None = None,
    run_id: int | None = None,
) -> list[Ledger]:
    """Owners', platforms' and players' sessions by day, up to `end` and from `read_from`.

    With `run_id`, only the subjects with a session of that run, each ending on
    its latest session of the run (`end`, where given, instead); without, every
    subject, ending on `end` (or its latest session).
    """
    names = sorted(platforms)
    bounds: list[ColumnElement[bool]] = []
    span: list[ColumnElement[bool]] = [S.c.platform.in_(names)]
    if end is not None:
        bounds.append(DAYS.c.day <= end)
        span.append(S.c.day <= end)
    if read_from is not None:
        bounds.append(DAYS.c.day >= read_from)
        span.append(S.c.day >= read_from)
    out: list[Ledger] = []
    for kind in KINDS:
        books: dict[Key, Ledger] = {}
        last_stored: dict[Key, date] = {}
        if run_id is not None:
            ends = _run_ends(conn, kind, and_(*span), run_id, end)
            books = {key: Ledger(kind, key[1], key[0], day, read_from) for key, day in ends.items()}
            rows = _day_rows(conn, kind, names, bounds, list(books))
        else:
            rows = _day_rows(conn, kind, names, bounds, None)
        for row in rows:
            key = (row[0], row[1])
            book = books.get(key)
            if book is None:
                if run_id is not None:
                    continue
                book = books[key] = Ledger(kind, key[1], key[0], end or row[2], read_from)
            book.entries.append(_entry(kind, row))
            last_stored[key] = row[2]
            if end is None and run_id is None:
                book.end = row[2]
        kept = {key: book for key, book in books.items() if book.entries}
        if kind != "player" and kept:
            _participants(conn, kind, names, kept, last_stored, end, read_from, and_(*span))
        out += kept.values()
    return out


def _participants(
    conn: Connection,
    kind: str,
    names: list[str],
    books: dict[Key, Ledger],
    last_stored: dict[Key, date],
    end: date | None,
    read_from: date | None,
    span: ColumnElement[bool],
) -> None:
    """Each book's participants: from `window_people` where none of the subject's stored
    sessions is later than the book's end, else who played on each day."""
    if end is not None:
        last_stored = _last_days(conn, kind, names, list(books))
    counted = [key for key, book in books.items() if last_stored.get(key, book.end) <= book.end]
    for key in counted:
        books[key].last_seen = {}
    where = and_(LAST_SEEN.c.kind == kind, LAST_SEEN.c.platform.in_(names))
    if read_from is not None:
        where = and_(where, LAST_SEEN.c.day >= read_from)
    ids = sorted({subject for _, subject in counted})
    for i in range(0, len(ids), CHUNK):
        for platform, subject, day, n in conn.execute(
            select(
                LAST_SEEN.c.platform, LAST_SEEN.c.subject, LAST_SEEN.c.day, LAST_SEEN.c.people
            ).where(where, LAST_SEEN.c.subject.in_(ids[i : i + CHUNK]))
        ).all():
            book = books.get((platform, subject))
            if book is not None and book.last_seen is not None:
                book.last_seen[day] = n
    later = [key for key, book in books.items() if book.last_seen is None]
    if later:
        for key, people in people_by_day(conn, kind, later, span).items():
            books[key].people = people


def _last_days(
    conn: Connection, kind: str, names: list[str], subjects: list[Key]
) -> dict[Key, date]:
    """Each subject's latest stored day, whatever the window."""
    out: dict[Key, date] = {}
    ids = sorted({subject for _, subject in subjects})
    for i in range(0, len(ids), CHUNK):
        for platform, subject, day in conn.execute(
            select(DAYS.c.platform, DAYS.c.subject, func.max(DAYS.c.day))
            .where(
                DAYS.c.kind == kind,
                DAYS.c.platform.in_(names),
                DAYS.c.subject.in_(ids[i : i + CHUNK]),
            )
            .group_by(DAYS.c.platform, DAYS.c.subject)
        ).all():
            out[(platform, subject)] = day
    return out


class SqlWindowsRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    def figures(
        self, platforms: set[str], start: date, end: date, run_id: int | None = None
    ) -> list[WindowFigures]:
        return window_figures(self.conn, platforms, start, end, run_id)

    def ledgers(
        self,
        platforms: set[str],
        end: date | None,
        read_from: date | None = None,
        run_id: int | None = None,
    ) -> list[Ledger]:
        return ledgers(self.conn, platforms, end, read_from, run_id)

    def sessions_behind(self, figures: WindowFigures) -> list[str]:
        return sessions_behind(self.conn, figures)

    def store_findings(self, run_id: int, findings: list) -> None:
        rows = [
            {
                "run_id": run_id,
                "platform": f.platform,
                "subject": f.subject,
                "kind": f.kind,
                "tier": getattr(f, "tier", None),
                "jurisdiction": f.jurisdiction,
                "window_start": date.fromisoformat(f.window_start),
                "window_end": date.fromisoformat(f.window_end),
                "payload": f,
            }
            for f in findings
        ]
        if rows:
            self.conn.execute(insert(WINDOW_FINDINGS), rows)

    def scope(self) -> tuple[set[str], date | None]:
        """The platforms with stored sessions, and the last day played."""
        platforms = set(self.conn.execute(select(S.c.platform).distinct()).scalars())
        return platforms, self.conn.execute(select(func.max(S.c.day))).scalar()
