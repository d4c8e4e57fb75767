"""累计查询: sums over stored sessions for players, room owners and platforms.

Every stored session is counted once (the natural key makes re-audits
replace, not add), so a window's sums do not change when logs are audited
again.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import date
from decimal import Decimal

from sqlalchemy import ColumnElement, Connection, and_, case, func, insert, select, true, tuple_

from compliance.db.models import PlayerMetricsRow, SessionRow, WindowFindingRow, table_of
from compliance.domain.ledger import Entry, Ledger
from compliance.domain.windows import SESSION_IDS_SHOWN, WindowFigures, place_of

S = table_of(SessionRow)
P = table_of(PlayerMetricsRow)
WINDOW_FINDINGS = table_of(WindowFindingRow)
CENT = Decimal("0.01")
STREAM_ROWS = 2000


def _money(value) -> Decimal:
    return Decimal(str(value or 0)).quantize(CENT)


def window_figures(
    conn: Connection, platforms: set[str], start: date, end: date, run_id: int | None = None
) -> list[WindowFigures]:
    """Owners', platforms' and players' sums over [start, end] on these platforms; with
    `run_id`, only of the owners and players with a session of that run in the window."""
    in_window = and_(S.c.platform.in_(sorted(platforms)), S.c.day.between(start, end))
    joined = P.join(S, and_(P.c.platform == S.c.platform, P.c.session_id == S.c.session_id))
    owners_of_run: ColumnElement[bool] = true()
    players_of_run: ColumnElement[bool] = true()
    owners_having: ColumnElement[bool] | None = None
    players_having: ColumnElement[bool] | None = None
    if run_id is not None and _small_part(conn, in_window, run_id):
        # the run is a small part of the window: look its owners' and players' rows up
        run, run_players = S.alias("run_sessions"), P.alias("run_players")
        of_run = and_(run.c.run_id == run_id, run.c.day.between(start, end))
        owners_of_run = tuple_(S.c.platform, S.c.owner_id).in_(
            select(run.c.platform, run.c.owner_id).where(of_run)
        )
        players_of_run = tuple_(P.c.platform, P.c.player_id).in_(
            select(run_players.c.platform, run_players.c.player_id)
            .join(
                run,
                and_(
                    run_players.c.platform == run.c.platform,
                    run_players.c.session_id == run.c.session_id,
                ),
            )
            .where(of_run)
        )
    elif run_id is not None:  # most of the window is the run's: read it once, keep the run's
        owners_having = players_having = func.max(case((S.c.run_id == run_id, 1), else_=0)) == 1
    out: list[WindowFigures] = []
    for kind, keys in (("owner", (S.c.platform, S.c.owner_id)), ("platform", (S.c.platform,))):
        where = (
            in_window
            if kind == "platform"
            else and_(in_window, S.c.owner_id.is_not(None), owners_of_run)
        )
        totals = (
            select(
                *keys,
                func.count(),
                func.sum(S.c.rake),
                func.sum(S.c.fixed_fee),
                func.sum(S.c.scene_capital),
                func.sum(S.c.minors),
            )
            .where(where)
            .group_by(*keys)
        )
        if kind == "owner" and owners_having is not None:
            totals = totals.having(owners_having)
        sums = conn.execute(totals).all()
        people = dict(
            (tuple(r[:-1]), r[-1])
            for r in conn.execute(
                select(*keys, func.count(func.distinct(P.c.player_id)))
                .select_from(joined)
                .where(where)
                .group_by(*keys)
            ).all()
        )
        venues: dict[tuple, Counter] = defaultdict(Counter)
        for *group, venue, n in conn.execute(
            select(*keys, S.c.venue, func.count()).where(where).group_by(*keys, S.c.venue)
        ).all():
            venues[tuple(group)][venue] += n
        places: dict[tuple, Counter] = defaultdict(Counter)
        for *group, place, n in conn.execute(
            select(*keys, S.c.jurisdiction, func.count())
            .where(where)
            .group_by(*keys, S.c.jurisdiction)
        ).all():
            if place:
                places[tuple(group)][place] += n
        for *parts, count, rake, fixed_fee, capital, minors in sums:
            key = tuple(parts)
            out.append(
                WindowFigures(
                    kind=kind,
                    id=key[-1],
                    platform=key[0],
                    jurisdiction=place_of(places[key]),
                    start=start,
                    end=end,
                    sessions=count,
                    capital=_money(capital),
                    rake=_money(rake),
                    fixed_fee=_money(fixed_fee),
                    participants=people.get(key, 0),
                    minors=int(minors or 0),
                    places=dict(places[key]),
                    venues=dict(venues[key]),
                )
            )
    per_player = (
        select(
            P.c.platform,
            P.c.player_id,
            func.count(),
            func.sum(P.c.net),
            func.sum(P.c.capital),
        )
        .select_from(joined)
        .where(in_window, players_of_run)
        .group_by(P.c.platform, P.c.player_id)
    )
    if players_having is not None:
        per_player = per_player.having(players_having)
    player_places: dict[tuple, Counter] = defaultdict(Counter)
    for platform, player, place, n in conn.execute(
        select(P.c.platform, P.c.player_id, P.c.jurisdiction, func.count())
        .select_from(joined)
        .where(in_window, players_of_run, P.c.jurisdiction.is_not(None))
        .group_by(P.c.platform, P.c.player_id, P.c.jurisdiction)
    ).all():
        player_places[(platform, player)][place] += n
    for platform, player, count, net, capital in conn.execute(per_player).all():
        mine = player_places.get((platform, player), Counter())
        out.append(
            WindowFigures(
                kind="player",
                id=player,
                platform=platform,
                jurisdiction=place_of(mine),
                places=dict(mine),
                start=start,
                end=end,
                sessions=count,
                capital=_money(capital),
                net=_money(net),
            )
        )
    return out


def ledgers(
    conn: Connection,
    platforms: set[str],
    end: date | None,
    read_from: date | None = None,
    run_id: int | None = None,
) -> Iterator[Ledger]:
    """Owners', platforms' and players' sessions by day, up to `end` and from `read_from`.

    With `run_id`, only the subjects with a session of that run, each ending on
    its latest session of the run (`end`, where given, instead); without, every
    subject, ending on `end`. One subject's ledger at a time, read from rows in
    subject order, so memory does not grow with the store; of the players seen,
    each only on his last day up to the ledger's end, which is all a window's
    count of distinct players needs (a platform's days would hold every session's).
    """
    bounds: list[ColumnElement[bool]] = [S.c.platform.in_(sorted(platforms))]
    if end is not None:
        bounds.append(S.c.day <= end)
    if read_from is not None:
        bounds.append(S.c.day >= read_from)
    span = and_(*bounds)
    of_run: ColumnElement[bool] = true() if run_id is None else S.c.run_id == run_id
    joined = P.join(S, and_(P.c.platform == S.c.platform, P.c.session_id == S.c.session_id))
    kinds = (
        ("owner", (S.c.platform, S.c.owner_id), S.c.owner_id.is_not(None)),
        ("platform", (S.c.platform,), true()),
    )
    for kind, keys, present in kinds:
        ends = _ends(conn, keys, S, and_(span, present, of_run), end)
        grouped = (*keys, S.c.day, S.c.jurisdiction, S.c.venue)
        entries = _stream(
            conn,
            select(
                *grouped,
                func.count(),
                func.sum(S.c.rake),
                func.sum(S.c.fixed_fee),
                func.sum(S.c.scene_capital),
                func.sum(S.c.minors),
            )
            .where(span, present)
            .group_by(*grouped)
            .order_by(*grouped),
        )
        people = _stream(
            conn,
            select(*keys, S.c.day, P.c.player_id)
            .select_from(joined)
            .where(span, present)
            .distinct()
            .order_by(*keys),
        )
        width = len(keys)
        for key, rows in _by_subject(entries, width):
            day_end = ends.get(key)
            book = None if day_end is None else Ledger(kind, key[-1], key[0], day_end, read_from)
            for row in rows:
                if book is not None:
                    day, place, venue, n, rake, fixed_fee, capital, minors = row[width:]
                    book.entries.append(
                        Entry(
                            day,
                            place,
                            n,
                            _money(capital),
                            rake=_money(rake),
                            minors=int(minors or 0),
                            venue=venue,
                            fixed_fee=_money(fixed_fee),
                        )
                    )
            latest: dict[str, date] = {}
            for day, player in people.take(key, width):
                if book is not None and day <= book.end and latest.get(player, day) <= day:
                    latest[player] = day
            if book is not None and book.entries:
                for player, day in latest.items():  # a window from any day counts him once
                    book.people.setdefault(day, set()).add(player)
                yield book
    player_keys = (P.c.platform, P.c.player_id)
    ends = _ends(conn, player_keys, joined, and_(span, of_run), end)
    grouped = (*player_keys, S.c.day, P.c.jurisdiction)
    player_rows = _stream(
        conn,
        select(*grouped, func.count(), func.sum(P.c.net), func.sum(P.c.capital))
        .select_from(joined)
        .where(span)
        .group_by(*grouped)
        .order_by(*grouped),
    )
    for key, group in _by_subject(player_rows, 2):
        day_end = ends.get(key)
        if day_end is None:
            continue
        book = Ledger("player", key[1], key[0], day_end, read_from)
        for _platform, _player, day, place, n, net, capital in group:
            book.entries.append(Entry(day, place, n, _money(capital), net=_money(net)))
        if book.entries:
            yield book


class _Rows:
    """A query's rows in subject order, read as they are needed; `take` gives the rest of
    a row after its key while the key is `key` (the rows of one subject)."""

    def __init__(self, rows: Iterator):
        self.rows = rows
        self.head = next(rows, None)

    def take(self, key: tuple, width: int) -> Iterator[tuple]:
        while self.head is not None and tuple(self.head[:width]) == key:
            row, self.head = self.head, next(self.rows, None)
            yield tuple(row[width:])


def _stream(conn: Connection, query) -> _Rows:
    """The query's rows, fetched a batch at a time (a server-side cursor where there is one)."""
    return _Rows(iter(conn.execute(query.execution_options(yield_per=STREAM_ROWS))))


def _by_subject(rows: _Rows, width: int) -> Iterator[tuple[tuple, Iterator[tuple]]]:
    """(key, its rows) for each run of rows with the same first `width` columns."""
    while rows.head is not None:
        key = tuple(rows.head[:width])
        group = _rows_of(rows, key, width)
        yield key, group
        for _ in group:  # what the caller left unread
            pass


def _rows_of(rows: _Rows, key: tuple, width: int) -> Iterator[tuple]:
    while rows.head is not None and tuple(rows.head[:width]) == key:
        row, rows.head = rows.head, next(rows.rows, None)
        yield tuple(row)


def _ends(conn: Connection, keys, source, where, end: date | None) -> dict[tuple, date]:
    """Each subject's last day: `end`, or its latest session among `where`."""
    rows = conn.execute(
        select(*keys, func.max(S.c.day)).select_from(source).where(where).group_by(*keys)
    )
    return {tuple(r[:-1]): end or r[-1] for r in rows.all()}


def _small_part(conn: Connection, in_window, run_id: int) -> bool:
    """Whether the run holds under a quarter of the window's sessions: then its players'
    rows are looked up one player at a time, else the window is read once."""
    ran = conn.execute(select(func.count()).select_from(S).where(S.c.run_id == run_id)).scalar()
    window = conn.execute(select(func.count()).select_from(S).where(in_window)).scalar()
    return 4 * (ran or 0) < (window or 0)


def sessions_behind(conn: Connection, w: WindowFigures) -> list[str]:
    """The sessions that made a window's sums, largest capital first."""
    where = and_(S.c.platform == w.platform, S.c.day.between(w.start, w.end))
    if w.kind == "owner":
        query = select(S.c.session_id).where(where, S.c.owner_id == w.id)
    elif w.kind == "platform":
        query = select(S.c.session_id).where(where)
    else:
        query = (
            select(S.c.session_id)
            .select_from(
                P.join(S, and_(P.c.platform == S.c.platform, P.c.session_id == S.c.session_id))
            )
            .where(where, P.c.player_id == w.id)
        )
    query = query.order_by(S.c.scene_capital.desc(), S.c.session_id).limit(SESSION_IDS_SHOWN)
    return list(conn.execute(query).scalars())


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
    ) -> Iterator[Ledger]:
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
