"""累计查询: window sums for players, room owners and platforms, from the day sums.

A window reads `window_days` (at most a row per subject, day, place and
venue, whatever the store holds) and, for the participants of an owner or a
platform, `window_last_seen` (db/window_upkeep.py keeps both as sessions are
stored, db/window_reads.py reads them); here they become the run's ledgers.
The figures are those of the stored sessions themselves (db/window_sessions.py
reads them directly; the tests hold the two equal).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    func,
    insert,
    literal_column,
    select,
    true,
)

from compliance.db import window_reads, window_spans
from compliance.db.models import (
    PlayerMetricsRow,
    SessionRow,
    WindowFindingRow,
    same_session,
    table_of,
)
from compliance.db.window_models import WindowDayRow
from compliance.db.window_sessions import (
    sessions_behind,
    subject_ends,
    window_figures,
)
from compliance.domain.ledger import Entry, Ledger
from compliance.domain.windows import WindowFigures

S = table_of(SessionRow)
P = table_of(PlayerMetricsRow)
DAYS = table_of(WindowDayRow)
WINDOW_FINDINGS = table_of(WindowFindingRow)
KINDS = ("owner", "platform", "player")
LEDGER_CHUNK = 500  # subjects whose ledgers are read, judged and let go together

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
        joined = P.join(S, same_session(P, S))
        return subject_ends(conn, (P.c.platform, P.c.player_id), joined, of_run, end)
    present: ColumnElement[bool] = true()
    keys = (S.c.platform, S.c.platform)
    if kind == "owner":
        keys, present = (S.c.platform, S.c.owner_id), S.c.owner_id.is_not(None)
    return subject_ends(conn, keys, S, and_(of_run, present), end)


def _entry(kind: str, row) -> Entry:
    _, _, day, place, venue, n, capital, net, rake, fixed_fee, minors, last = row
    if kind == "player":
        return Entry(day, place or None, n, int(capital), net=int(net), last=last)
    return Entry(
        day,
        place or None,
        n,
        int(capital),
        rake=int(rake),
        minors=minors,
        venue=venue,
        fixed_fee=int(fixed_fee),
        last=last,
    )


def ledgers(
    conn: Connection,
    platforms: set[str],
    end: date | None,
    read_from: date | None = None,
    run_id: int | None = None,
    starts: window_spans.Starts | None = None,
    kinds: tuple[str, ...] = KINDS,
    share: tuple[int, int] = (0, 1),
) -> Iterator[Ledger]:
    """Owners', platforms' and players' sessions by day (of those `kinds`, in that order),
    up to `end` and from `read_from`.

    With `run_id`, only the subjects with a session of that run, each ending on
    its latest session of the run (`end`, where given, instead), read and given
    `LEDGER_CHUNK` subjects at a time, so that memory holds a chunk's day rows, not
    every player's; without, every subject, ending on `end` (or its latest session).
    With `run_id` and `starts` (the first days a window ending on a day can have), a
    run of days between them is one entry (window_spans.py). `share` (i, n): with `run_id`,
    the i-th of n runs of consecutive chunks of each kind, the earlier ones no smaller
    (processes judging apart read what one process would, chunk for chunk).
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
    for kind in (k for k in KINDS if k in kinds):
        if run_id is None:
            yield from _kind_ledgers(conn, kind, names, bounds, span, end, read_from, None)
            continue
        ends = _run_ends(conn, kind, and_(*span), run_id, end)
        keys = list(ends)
        for i in range(*_chunk_share(len(keys), share)):
            books = {
                key: Ledger(kind, key[1], key[0], ends[key], read_from)
                for key in keys[i : i + LEDGER_CHUNK]
            }
            yield from _kind_ledgers(conn, kind, names, bounds, span, end, read_from, books, starts)


def _chunk_share(subjects: int, share: tuple[int, int]) -> tuple[int, int, int]:
    """The range of first subjects of the chunks in `share` (see `ledgers`)."""
    which, of = share
    chunks = -(-subjects // LEDGER_CHUNK)
    first, stop = -(-which * chunks // of), -(-(which + 1) * chunks // of)
    return first * LEDGER_CHUNK, min(stop * LEDGER_CHUNK, subjects), LEDGER_CHUNK


def _kind_ledgers(
    conn: Connection,
    kind: str,
    names: list[str],
    bounds: list[ColumnElement[bool]],
    span: list[ColumnElement[bool]],
    end: date | None,
    read_from: date | None,
    given: dict[Key, Ledger] | None,
    starts: window_spans.Starts | None = None,
) -> list[Ledger]:
    """The ledgers of these subjects of a kind (None: every subject of it) filled."""
    books: dict[Key, Ledger] = given if given is not None else {}
    by_day = kind != "player"
    cuts: dict[date, list[date]] = {}
    groups = window_spans.by_end({k: b.end for k, b in books.items()}, books)
    if given is None or starts is None or len(groups) > window_spans.MOST_ENDS:
        subjects = list(books) if given is not None else None
        rows = window_reads.day_rows(conn, kind, names, bounds, subjects, by_day)
    else:
        cuts = {day: window_spans.cuts_for(starts, day, read_from) for day in groups}
        rows = (  # a subject id of another platform, with another end, is read with its own
            row
            for day, keys in groups.items()
            for row in window_reads.day_rows(conn, kind, names, bounds, keys, by_day, cuts[day])
            if (book := books.get((row[0], row[1]))) is not None and book.end == day
        )
        for book in books.values():
            book.refill = _refill(conn, kind, names, bounds, read_from)
    last_stored = _fill(books, rows, kind, given is None, read_from)
    if end is None and given is None:
        for key, book in books.items():
            book.end = last_stored[key]
    if end is not None:
        for book in books.values():
            book.end = end
    kept = {key: book for key, book in books.items() if book.entries}
    if by_day and kept:
        if end is not None:
            last_stored = window_reads.last_days(conn, kind, names, list(kept))
        # no session of the subject after the window's end: read per day, else as stored
        whole = {k: b for k, b in kept.items() if last_stored.get(k, b.end) <= b.end}
        later = {k: b for k, b in kept.items() if k not in whole}
        window_reads.window_counts(conn, kind, names, bounds, whole)
        for book in later.values():
            book.entries = []
            book.refill = None
        if later:
            _fill(later, window_reads.day_rows(conn, kind, names, bounds, list(later)), kind)
        window_reads.participants(
            conn, kind, names, whole, later, read_from, and_(*span), cuts or None
        )
    return [kept[key] for key in sorted(kept)]  # in key order, whatever the rows' order


def _refill(
    conn: Connection,
    kind: str,
    names: list[str],
    bounds: list[ColumnElement[bool]],
    read_from: date | None,
):
    """What a ledger read in runs of days calls for its days, and its last-seen counts, one
    by one (a window that begins inside a run: none of its rules' windows does)."""

    def refill(book: Ledger) -> None:
        key = {(book.platform, book.id): book}
        book.entries = []
        _fill(
            key, window_reads.day_rows(conn, kind, names, bounds, list(key), kind != "player"), kind
        )
        if book.last_seen is not None:
            book.seen_until = {}
            window_reads.participants(conn, kind, names, key, {}, read_from, true())

    return refill


def _fill(
    books: dict[Key, Ledger],
    rows: Iterable,
    kind: str,
    make: bool = False,
    read_from: date | None = None,
) -> dict[Key, date]:
    """The rows as the books' entries, and each subject's latest day read; with `make`, a
    subject without a book gets one (reading from `read_from`)."""
    last: dict[Key, date] = {}
    for row in rows:
        key = (row[0], row[1])
        book = books.get(key)
        if book is None:
            if not make:
                continue
            book = books[key] = Ledger(kind, key[1], key[0], row[2], read_from)
        book.entries.append(_entry(kind, row))
        day = row[-1] or row[2]
        if key not in last or last[key] < day:
            last[key] = day
    return last


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
        starts: window_spans.Starts | None = None,
        kinds: tuple[str, ...] = KINDS,
        share: tuple[int, int] = (0, 1),
    ) -> Iterator[Ledger]:
        return ledgers(self.conn, platforms, end, read_from, run_id, starts, kinds, share)

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
