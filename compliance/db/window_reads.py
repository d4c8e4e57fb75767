"""窗口读取: the window tables read for the ledgers of a kind of subject.

`window_days` a row per day, place and venue, a row per day, or a row per run of
days between the cuts a window can start on (window_spans.py); the places and venues
counted over the window; `window_last_seen`'s participants; each subject's latest
stored day. Rows come through the driver: a window read is thousands of day rows.
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
    literal,
    null,
    select,
    text,
    true,
    type_coerce,
    union_all,
)

from compliance.db import window_spans
from compliance.db.models import table_of
from compliance.db.window_models import NOT_A_PLAYER, WindowDayRow, WindowLastSeenRow
from compliance.db.window_sessions import people_by_day
from compliance.domain.ledger import Ledger

DAYS = table_of(WindowDayRow)
LAST_SEEN = table_of(WindowLastSeenRow)
CHUNK = 500

Key = tuple[str, str]  # platform, subject


def day_rows(
    conn: Connection,
    kind: str,
    platforms: list[str],
    bounds: list[ColumnElement[bool]],
    subjects: list[Key] | None,
    by_day: bool = False,
    cuts: list[date] | None = None,
) -> Iterable:
    """The `window_days` rows of a kind within the bounds, of these subjects (None: all),
    in key order, each ending with its last day (None: its day); `by_day`: a row per
    subject and day, places and venues summed together; `cuts`: a row per run of days
    between them (window_spans.py), for each place unless `by_day`."""
    sums = [DAYS.c[c] for c in ("sessions", "capital", "net", "rake", "fixed_fee", "minors")]
    keys: list[ColumnElement] = [DAYS.c.platform, DAYS.c.subject, DAYS.c.day]
    columns: list[ColumnElement]
    where = and_(DAYS.c.kind == kind, DAYS.c.platform.in_(platforms), *bounds)
    if cuts is not None:
        place: list[ColumnElement] = [] if by_day else [DAYS.c.place]
        columns = [
            *keys[:2],
            func.min(DAYS.c.day),
            *(place or [literal("")]),
            literal(""),
            *(type_coerce(func.sum(c), BigInteger) for c in sums),
            func.max(DAYS.c.day),
        ]
        parts = [  # a query a run: each reads its days by the key, grouped in key order
            select(*columns).where(run).group_by(*keys[:2], *place)
            for run in window_spans.runs(DAYS.c.day, cuts)
        ]
        for chunk in chunks(subjects):
            mine = DAYS.c.subject.in_(chunk or [])
            yield from driver_rows(conn, union_all(*(q.where(where, mine) for q in parts)))
        return
    if by_day:
        columns = [*keys, literal(""), literal(""), *(func.sum(c) for c in sums), null()]
        order = keys
    else:
        columns = [*keys, DAYS.c.place, DAYS.c.venue, *sums, null()]
        order = [*keys, DAYS.c.place, DAYS.c.venue]
    columns[5:11] = [type_coerce(c, BigInteger) for c in columns[5:11]]
    query = select(*columns).order_by(*order)
    if by_day:
        query = query.group_by(*keys)
    for chunk in chunks(subjects):
        yield from driver_rows(
            conn, query.where(where, true() if chunk is None else DAYS.c.subject.in_(chunk))
        )


def driver_rows(conn: Connection, query) -> Iterable[tuple]:
    """The rows as the driver gives them, the day a date: a window read is thousands of
    day rows, and Core's row objects and type handling cost more than the query. The
    statement goes through Core (its compiled form cached by shape, the IN lists expanded
    there, the dates bound as the dialect stores them); only the rows are read raw."""
    result = conn.execute(query)
    try:
        rows = result.cursor.fetchall()
    finally:
        result.close()
    days: dict[str, date] = {}
    for row in rows:
        day, last = row[2], row[-1]
        if isinstance(day, str):
            day = days.get(day) or days.setdefault(day, date.fromisoformat(day))
        if isinstance(last, str):
            last = days.get(last) or days.setdefault(last, date.fromisoformat(last))
        yield (row[0], row[1], day, *row[3:-1], last)


def chunks(subjects: list[Key] | None) -> Iterable[list[str] | None]:
    if subjects is None:
        yield None
        return
    ids = sorted({subject for _, subject in subjects})
    for i in range(0, len(ids), CHUNK):
        yield ids[i : i + CHUNK]


def window_counts(
    conn: Connection,
    kind: str,
    platforms: list[str],
    bounds: list[ColumnElement[bool]],
    books: dict[Key, Ledger],
) -> None:
    """Each book's sessions by place and by venue over the whole window read."""
    for book in books.values():
        book.places, book.venues = {}, {}
    where = and_(DAYS.c.kind == kind, text(NOT_A_PLAYER), DAYS.c.platform.in_(platforms), *bounds)
    for chunk in chunks(list(books)):
        for platform, subject, place, venue, n in conn.execute(
            select(
                DAYS.c.platform,
                DAYS.c.subject,
                DAYS.c.place,
                DAYS.c.venue,
                func.sum(DAYS.c.sessions),
            )
            .where(where, DAYS.c.subject.in_(chunk or []))
            .group_by(DAYS.c.platform, DAYS.c.subject, DAYS.c.place, DAYS.c.venue)
        ).all():
            mine = books.get((platform, subject))
            if mine is None or mine.places is None or mine.venues is None:
                continue
            if place:
                mine.places[place] = mine.places.get(place, 0) + n
            mine.venues[venue] = mine.venues.get(venue, 0) + n


def participants(
    conn: Connection,
    kind: str,
    names: list[str],
    whole: dict[Key, Ledger],
    later: dict[Key, Ledger],
    read_from: date | None,
    span: ColumnElement[bool],
    cuts: dict[date, list[date]] | None = None,
) -> None:
    """Each book's participants: from `window_last_seen` where none of the subject's stored
    sessions is later than the book's end (`whole`), else who played on each day. With `cuts`
    (each end's, window_spans.py), `window_last_seen` is read a row per run of days."""
    for book in whole.values():
        book.last_seen = {}
    where = and_(LAST_SEEN.c.kind == kind, LAST_SEEN.c.platform.in_(names))
    if read_from is not None:
        where = and_(where, LAST_SEEN.c.day >= read_from)
    if cuts is None:
        for chunk in chunks(list(whole)):
            for platform, subject, day, n in conn.execute(
                select(
                    LAST_SEEN.c.platform, LAST_SEEN.c.subject, LAST_SEEN.c.day, LAST_SEEN.c.people
                ).where(where, LAST_SEEN.c.subject.in_(chunk or []))
            ).all():
                mine = whole.get((platform, subject))
                if mine is not None and mine.last_seen is not None:
                    mine.last_seen[day] = n
    else:
        for end, keys in window_spans.by_end({k: b.end for k, b in whole.items()}, whole).items():
            _seen_in_runs(conn, where, {k: whole[k] for k in keys}, end, cuts[end])
    if later:
        for key, people in people_by_day(conn, kind, list(later), span).items():
            later[key].people = people


def _seen_in_runs(
    conn: Connection,
    where: ColumnElement[bool],
    books: dict[Key, Ledger],
    end: date,
    cuts: list[date],
) -> None:
    """The last-seen counts of books ending on `end`, summed per run of days between the cuts,
    each under its first day with a count (days left at 0 are not read: a run begins on a day
    someone was last seen, one of the subject's days), its last day in `seen_until`."""
    columns = (
        LAST_SEEN.c.platform,
        LAST_SEEN.c.subject,
        func.min(LAST_SEEN.c.day),
        type_coerce(func.sum(LAST_SEEN.c.people), BigInteger),
        func.max(LAST_SEEN.c.day),
    )
    keys = (LAST_SEEN.c.platform, LAST_SEEN.c.subject)
    parts = [
        select(*columns).where(run, LAST_SEEN.c.people > 0).group_by(*keys)
        for run in window_spans.runs(LAST_SEEN.c.day, cuts)
    ]
    for chunk in chunks(list(books)):
        mine = LAST_SEEN.c.subject.in_(chunk or [])
        for platform, subject, first, n, last in driver_rows(
            conn, union_all(*(q.where(where, mine) for q in parts))
        ):
            book = books.get((platform, subject))
            if book is not None and book.last_seen is not None and book.end == end:
                book.last_seen[first] = n
                book.seen_until[first] = last


def last_days(
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
