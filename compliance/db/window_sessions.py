"""累计查询 (直接): window sums read from the stored sessions themselves.

Every stored session is counted once (the natural key makes re-audits
replace, not add), so a window's sums do not change when logs are audited
again. The audit reads its windows from the day sums (db/windows.py); these
read every session of a window, and are the reference the day sums are held
equal to (tests), the way `figures` sums one window, and where a subject's
participants cannot be read from `window_people` (`people_by_day`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date
from decimal import Decimal

from sqlalchemy import ColumnElement, Connection, and_, case, func, select, true, tuple_

from compliance.db.models import PlayerMetricsRow, SessionRow, same_session, table_of
from compliance.domain.ledger import Entry, Ledger
from compliance.domain.windows import SESSION_IDS_SHOWN, WindowFigures, place_of

S = table_of(SessionRow)
P = table_of(PlayerMetricsRow)
CENT = Decimal("0.01")


def _money(value) -> Decimal:
    return Decimal(str(value or 0)).quantize(CENT)


def _cents(value) -> int:
    return int(_money(value) * 100)


def window_figures(
    conn: Connection, platforms: set[str], start: date, end: date, run_id: int | None = None
) -> list[WindowFigures]:
    """Owners', platforms' and players' sums over [start, end] on these platforms; with
    `run_id`, only of the owners and players with a session of that run in the window."""
    in_window = and_(S.c.platform.in_(sorted(platforms)), S.c.day.between(start, end))
    joined = P.join(S, same_session(P, S))
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


def ledgers_from_sessions(
    conn: Connection,
    platforms: set[str],
    end: date | None,
    read_from: date | None = None,
    run_id: int | None = None,
) -> list[Ledger]:
    """Owners', platforms' and players' sessions by day, up to `end` and from `read_from`.

    With `run_id`, only the subjects with a session of that run, each ending on
    its latest session of the run (`end`, where given, instead); without, every
    subject, ending on `end`.
    """
    bounds: list[ColumnElement[bool]] = [S.c.platform.in_(sorted(platforms))]
    if end is not None:
        bounds.append(S.c.day <= end)
    if read_from is not None:
        bounds.append(S.c.day >= read_from)
    span = and_(*bounds)
    of_run: ColumnElement[bool] = true() if run_id is None else S.c.run_id == run_id
    joined = P.join(S, same_session(P, S))
    kinds = (
        ("owner", (S.c.platform, S.c.owner_id), S.c.owner_id.is_not(None)),
        ("platform", (S.c.platform,), true()),
    )
    out: list[Ledger] = []
    for kind, keys, present in kinds:
        ends = subject_ends(conn, keys, S, and_(span, present, of_run), end)
        books = {key: Ledger(kind, key[-1], key[0], day, read_from) for key, day in ends.items()}
        for *key, day, place, venue, n, rake, fixed_fee, capital, minors in conn.execute(
            select(
                *keys,
                S.c.day,
                S.c.jurisdiction,
                S.c.venue,
                func.count(),
                func.sum(S.c.rake),
                func.sum(S.c.fixed_fee),
                func.sum(S.c.scene_capital),
                func.sum(S.c.minors),
            )
            .where(span, present)
            .group_by(*keys, S.c.day, S.c.jurisdiction, S.c.venue)
        ).all():
            if (book := books.get(tuple(key))) is not None:
                book.entries.append(
                    Entry(
                        day,
                        place,
                        n,
                        _cents(capital),
                        rake=_cents(rake),
                        minors=int(minors or 0),
                        venue=venue,
                        fixed_fee=_cents(fixed_fee),
                    )
                )
        for *key, day, player in conn.execute(
            select(*keys, S.c.day, P.c.player_id)
            .select_from(joined)
            .where(span, present)
            .distinct()
        ).all():
            if (book := books.get(tuple(key))) is not None:
                book.people.setdefault(day, set()).add(player)
        out += books.values()
    player_keys = (P.c.platform, P.c.player_id)
    ends = subject_ends(conn, player_keys, joined, and_(span, of_run), end)
    books = {key: Ledger("player", key[1], key[0], day, read_from) for key, day in ends.items()}
    for platform, player, day, place, n, net, capital in conn.execute(
        select(
            *player_keys,
            S.c.day,
            P.c.jurisdiction,
            func.count(),
            func.sum(P.c.net),
            func.sum(P.c.capital),
        )
        .select_from(joined)
        .where(span)
        .group_by(*player_keys, S.c.day, P.c.jurisdiction)
    ).all():
        if (book := books.get((platform, player))) is not None:
            book.entries.append(Entry(day, place, n, _cents(capital), net=_cents(net)))
    out += books.values()
    return [book for book in out if book.entries]


def subject_ends(conn: Connection, keys, source, where, end: date | None) -> dict[tuple, date]:
    """Each subject's last day: `end`, or its latest session among `where`; in key order,
    as Python orders the keys (a GROUP BY's order is the plan's, and PostgreSQL's text
    order its collation's)."""
    rows = conn.execute(
        select(*keys, func.max(S.c.day)).select_from(source).where(where).group_by(*keys)
    )
    return {tuple(r[:-1]): end or r[-1] for r in sorted(rows.all())}


def _small_part(conn: Connection, in_window, run_id: int) -> bool:
    """Whether the run holds under a quarter of the window's sessions: then its players'
    rows are looked up one player at a time, else the window is read once."""
    ran = conn.execute(select(func.count()).select_from(S).where(S.c.run_id == run_id)).scalar()
    window = conn.execute(select(func.count()).select_from(S).where(in_window)).scalar()
    return 4 * (ran or 0) < (window or 0)


def sessions_behind(conn: Connection, w: WindowFigures) -> list[str]:
    """The sessions that made a window's sums, largest capital first.

    Read through the subject's own index (an owner's or a platform's sessions by
    capital, a player's rows), never the day index: a window holds most of a
    subject's sessions, and by day the planners would read every subject's.
    """
    day = func.coalesce(S.c.day, S.c.day)  # a function of the day: no index on it applies
    where = and_(S.c.platform == w.platform, day.between(w.start, w.end))
    if w.kind == "owner":
        query = select(S.c.session_id).where(where, S.c.owner_id == w.id)
    elif w.kind == "platform":
        query = select(S.c.session_id).where(where)
    else:
        query = (
            select(S.c.session_id)
            .select_from(P.join(S, same_session(P, S)))
            .where(where, P.c.player_id == w.id)
        )
    query = query.order_by(S.c.scene_capital.desc(), S.c.session_id).limit(SESSION_IDS_SHOWN)
    return list(conn.execute(query).scalars())


def people_by_day(
    conn: Connection, kind: str, subjects: list[tuple[str, str]], span: ColumnElement[bool]
) -> dict[tuple[str, str], dict[date, set[str]]]:
    """Who played on each day within `span`, for these owners or platforms (platform, id)."""
    out: dict[tuple[str, str], dict[date, set[str]]] = {}
    joined = P.join(S, same_session(P, S))
    subject = S.c.owner_id if kind == "owner" else S.c.platform
    for i in range(0, len(subjects), 500):
        chunk = subjects[i : i + 500]
        for platform, key, day, player in conn.execute(
            select(S.c.platform, subject, S.c.day, P.c.player_id)
            .select_from(joined)
            .where(span, tuple_(S.c.platform, subject).in_(chunk))
            .distinct()
        ).all():
            out.setdefault((platform, key), {}).setdefault(day, set()).add(player)
    return out
