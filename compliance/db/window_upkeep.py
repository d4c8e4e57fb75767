"""日累计的维护: the window tables kept as sessions are stored, replaced and removed.

`window_days` holds, per subject (room owner, platform, player) and day, place
and venue, the sums of its stored sessions; `window_people` each player a room
owner or a platform has seen, with the first and last day of their sessions
together and how many sessions that is; `window_last_seen` how many of them
were last seen on each day (moved as a pair's last day moves; a day whose
players have all come back keeps a row of 0). Both are sums over the stored rows, so
they change with them: the rows of a replaced session are subtracted before
they go, the new ones added once stored. Every change happens inside
`store_sessions`, under the store's write lock, so workers and audits running at
once change them one at a time.

A replaced session whose pair (owner and player, or platform and player) it
was the first or last day of moves that day only where the new sessions do not
cover it; then the pair's days are read again from its stored sessions (rare:
a re-audit of the same log stores the same days).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    Select,
    and_,
    bindparam,
    cast,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from compliance.db import window_batch
from compliance.db.models import (
    PlayerMetricsRow,
    SessionRow,
    same_session,
    table_of,
)
from compliance.db.window_session_days import SessionDays
from compliance.domain.audited import AuditedSession
from compliance.errors import DatabaseError

S = table_of(SessionRow)
P = table_of(PlayerMetricsRow)
DAYS, PEOPLE, LAST_SEEN = window_batch.DAYS, window_batch.PEOPLE, window_batch.LAST_SEEN
LAST_KEY, DAY_KEY, DAY_SUMS = window_batch.LAST_KEY, window_batch.DAY_KEY, window_batch.DAY_SUMS
PERSON_KEY, PERSON_FIGURES = window_batch.PERSON_KEY, window_batch.PERSON_FIGURES
CHUNK = 500

Pair = tuple[str, str, str, str]  # platform, kind, subject, player
Span = tuple[date, date, int]  # first day, last day, sessions


def _cents(column) -> ColumnElement:
    return func.coalesce(func.sum(cast(func.round(column * 100), BigInteger)), 0)


def _joined():
    return P.join(S, same_session(P, S))


def day_sums(where: ColumnElement[bool]) -> list[Select]:
    """The `window_days` rows of the sessions `where` selects, columns in DAY_KEY + DAY_SUMS
    order: one select per kind of subject."""
    place = func.coalesce(S.c.jurisdiction, "")
    counted = (
        func.count(),
        _cents(S.c.scene_capital),
        literal(0),
        _cents(S.c.rake),
        _cents(S.c.fixed_fee),
        func.coalesce(func.sum(S.c.minors), 0),
    )
    owners = (
        select(S.c.platform, literal("owner"), S.c.owner_id, S.c.day, place, S.c.venue, *counted)
        .where(where, S.c.owner_id.is_not(None))
        .group_by(S.c.platform, S.c.owner_id, S.c.day, place, S.c.venue)
    )
    platforms = (
        select(S.c.platform, literal("platform"), S.c.platform, S.c.day, place, S.c.venue, *counted)
        .where(where)
        .group_by(S.c.platform, S.c.day, place, S.c.venue)
    )
    player_place = func.coalesce(P.c.jurisdiction, "")
    players = (
        select(
            P.c.platform,
            literal("player"),
            P.c.player_id,
            S.c.day,
            player_place,
            literal(""),
            func.count(),
            _cents(P.c.capital),
            _cents(P.c.net),
            literal(0),
            literal(0),
            literal(0),
        )
        .select_from(_joined())
        .where(where)
        .group_by(P.c.platform, P.c.player_id, S.c.day, player_place)
    )
    return [owners, platforms, players]


def people_seen(where: ColumnElement[bool]) -> list[Select]:
    """The `window_people` rows of the sessions `where` selects (PERSON_KEY + PERSON_FIGURES)."""
    spans = (
        func.min(S.c.day).label("first_day"),
        func.max(S.c.day).label("last_day"),
        func.count().label("sessions"),
    )
    owners = (
        select(
            S.c.platform,
            literal("owner").label("kind"),
            S.c.owner_id.label("subject"),
            P.c.player_id,
            *spans,
        )
        .select_from(_joined())
        .where(where, S.c.owner_id.is_not(None))
        .group_by(S.c.platform, S.c.owner_id, P.c.player_id)
    )
    platforms = (
        select(
            S.c.platform,
            literal("platform").label("kind"),
            S.c.platform.label("subject"),
            P.c.player_id,
            *spans,
        )
        .select_from(_joined())
        .where(where)
        .group_by(S.c.platform, P.c.player_id)
    )
    return [owners, platforms]


def _insert(conn: Connection):
    name = conn.dialect.name
    if name == "sqlite":
        return sqlite_insert
    if name == "postgresql":
        return pg_insert
    raise DatabaseError(f"window sums are kept on SQLite and PostgreSQL, not on {name}")


def add_days(conn: Connection, where: ColumnElement[bool]) -> None:
    """Add the sums of the sessions `where` selects to `window_days`."""
    for query in day_sums(where):
        statement = _insert(conn)(DAYS).from_select([*DAY_KEY, *DAY_SUMS], query)
        new = statement.excluded
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=list(DAY_KEY),
                set_={c: DAYS.c[c] + new[c] for c in DAY_SUMS},
            )
        )


def add_people(conn: Connection, where: ColumnElement[bool]) -> None:
    """Add the pairs of the sessions `where` selects to `window_people`, moving the days they
    are last seen on in `window_last_seen`."""
    least, greatest = (
        (func.min, func.max) if conn.dialect.name == "sqlite" else (func.least, func.greatest)
    )
    for query in people_seen(where):
        batch = query.subquery("batch")
        same = and_(*(PEOPLE.c[k] == batch.c[k] for k in PERSON_KEY))
        stored = (PEOPLE.c.platform, PEOPLE.c.kind, PEOPLE.c.subject, PEOPLE.c.last_day)
        _add_last_seen(  # the days they were last seen on before
            conn,
            select(*stored, -func.count())
            .select_from(PEOPLE.join(batch, same))
            .where(batch.c.last_day > PEOPLE.c.last_day)
            .group_by(*stored),
        )
        moved = (batch.c.platform, batch.c.kind, batch.c.subject, batch.c.last_day)
        _add_last_seen(  # the days they are last seen on now
            conn,
            select(*moved, func.count())
            .select_from(batch.outerjoin(PEOPLE, same))
            .where(or_(PEOPLE.c.last_day.is_(None), PEOPLE.c.last_day < batch.c.last_day))
            .group_by(*moved),
        )
        statement = _insert(conn)(PEOPLE).from_select([*PERSON_KEY, *PERSON_FIGURES], query)
        new = statement.excluded
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=list(PERSON_KEY),
                set_={
                    "first_day": least(PEOPLE.c.first_day, new.first_day),
                    "last_day": greatest(PEOPLE.c.last_day, new.last_day),
                    "sessions": PEOPLE.c.sessions + new.sessions,
                },
            )
        )


def _add_last_seen(conn: Connection, query: Select) -> None:
    statement = _insert(conn)(LAST_SEEN).from_select([*LAST_KEY, "people"], query)
    conn.execute(
        statement.on_conflict_do_update(
            index_elements=list(LAST_KEY),
            set_={"people": LAST_SEEN.c.people + statement.excluded.people},
        )
    )


def _merge(into: dict[Pair, Span], rows: Iterable) -> None:
    for *key, first, last, n in rows:
        pair = (key[0], key[1], key[2], key[3])
        if (was := into.get(pair)) is not None:
            first, last, n = min(first, was[0]), max(last, was[1]), n + was[2]
        into[pair] = (first, last, n)


def _of_ids(platform: str, ids: list[str]) -> ColumnElement[bool]:
    return and_(S.c.platform == platform, S.c.session_id.in_(ids))


class Additions:
    """What `WindowUpkeep.store` adds for these sessions, summed before the write lock: the
    day rows' digest terms and the window tables' sums."""

    def __init__(self, sessions: list[AuditedSession], contents: dict[tuple[str, str], str]):
        self.keys = [s.key for s in sessions]
        self.days = SessionDays()
        for s in sessions:
            self.days.add(s.platform, s.day, s.session_id, contents[s.key])
        self.sums = window_batch.sums(sessions)

    def of(self, sessions: list[AuditedSession]) -> bool:
        """Whether these are the sessions summed (none of them was dropped under the lock)."""
        return len(sessions) == len(self.keys) and all(
            s.key == key for s, key in zip(sessions, self.keys, strict=True)
        )


class WindowUpkeep:
    """The window tables' share of one `store_sessions`: `forget` before a chunk of stored
    sessions is deleted, `store` once the new ones are in."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.emptied: set[tuple] = set()  # window_days keys that lost sessions
        self.removed: dict[Pair, Span] = {}
        self.before: dict[Pair, Span] = {}
        self.session_days = SessionDays()

    def forget(self, platform: str, ids: list[str]) -> None:
        """Subtract these stored sessions (about to be deleted) from the window tables."""
        self.session_days.forget(self.conn, platform, ids)
        where = _of_ids(platform, ids)
        for query in day_sums(where):
            rows = self.conn.execute(query).all()
            if not rows:
                continue
            keys = [tuple(r[: len(DAY_KEY)]) for r in rows]
            self.conn.execute(
                update(DAYS)
                .where(*(DAYS.c[k] == bindparam(f"k_{k}") for k in DAY_KEY))
                .values({c: DAYS.c[c] - bindparam(f"v_{c}", type_=BigInteger) for c in DAY_SUMS}),
                [
                    {
                        **{f"k_{k}": v for k, v in zip(DAY_KEY, key, strict=True)},
                        **{f"v_{c}": v for c, v in zip(DAY_SUMS, row[len(DAY_KEY) :], strict=True)},
                    }
                    for key, row in zip(keys, rows, strict=True)
                ],
            )
            self.emptied.update(keys)
        removed: dict[Pair, Span] = {}
        for query in people_seen(where):
            _merge(removed, self.conn.execute(query).all())
        unseen = [pair for pair in removed if pair not in self.before]
        _merge(self.before, _rows(window_batch.stored_spans(self.conn, unseen)))
        _merge(self.removed, _rows(removed))

    def store(
        self,
        sessions: list[AuditedSession],
        contents: dict[tuple[str, str], str],
        made: Additions | None = None,
    ) -> None:
        """Add the sessions just stored, with their content digests, to the window tables:
        summed from them where their money is in whole cents (db/window_batch.py), else in
        SQL from their stored rows. `made`: their additions, summed already."""
        if made is None or not made.of(sessions):
            made = Additions(sessions, contents)
        for day, (n, total) in made.days.changes.items():
            change = self.session_days.changes.setdefault(day, [0, 0])
            change[0] += n
            change[1] += total
        self.session_days.write(self.conn)
        added: dict[Pair, Span] = {}
        batch = made.sums
        if batch is not None:
            window_batch.add(self.conn, batch)
            added = batch.spans
        else:
            by_platform: dict[str, list[str]] = {}
            for s in sessions:
                by_platform.setdefault(s.platform, []).append(s.session_id)
            for platform, ids in by_platform.items():
                for i in range(0, len(ids), CHUNK):
                    where = _of_ids(platform, ids[i : i + CHUNK])
                    add_days(self.conn, where)
                    add_people(self.conn, where)
                    if self.removed:
                        for query in people_seen(where):
                            _merge(added, self.conn.execute(query).all())
        self._settle_days()
        self._settle_people(added)

    def _settle_days(self) -> None:
        if not self.emptied:
            return
        self.conn.execute(
            delete(DAYS).where(
                *(DAYS.c[k] == bindparam(f"k_{k}") for k in DAY_KEY), DAYS.c.sessions <= 0
            ),
            [{f"k_{k}": v for k, v in zip(DAY_KEY, key, strict=True)} for key in self.emptied],
        )
        self.emptied.clear()

    def _settle_people(self, added: dict[Pair, Span]) -> None:
        """The pairs that lost sessions: their count, and their first and last day where the
        new sessions show them, else read again from the stored sessions."""
        settled: dict[Pair, Span | None] = {}
        for pair, (gone_first, gone_last, gone) in self.removed.items():
            was = self.before.get(pair)
            new = added.get(pair)
            if was is None:
                settled[pair] = self._read_again(pair)
                continue
            first, last, n = was
            n += -gone + (new[2] if new else 0)
            if n <= 0:
                settled[pair] = None
                continue
            if first < gone_first:
                first = min(first, new[0]) if new else first
            elif new is not None and new[0] <= first:
                first = new[0]
            else:
                settled[pair] = self._read_again(pair)
                continue
            if last > gone_last:
                last = max(last, new[1]) if new else last
            elif new is not None and new[1] >= last:
                last = new[1]
            else:
                settled[pair] = self._read_again(pair)
                continue
            settled[pair] = (first, last, n)
        moves: dict[tuple, int] = {}
        for pair, span in settled.items():
            was, new = self.before.get(pair), added.get(pair)
            days = [s[1] for s in (was, new) if s is not None]
            if days:  # the day the additions left it last seen on
                moves[(*pair[:3], max(days))] = moves.get((*pair[:3], max(days)), 0) - 1
            if span is not None:
                moves[(*pair[:3], span[1])] = moves.get((*pair[:3], span[1]), 0) + 1
        moved = [
            dict(zip((*LAST_KEY, "people"), (*k, n), strict=True)) for k, n in moves.items() if n
        ]
        if moved:
            statement = _insert(self.conn)(LAST_SEEN)
            self.conn.execute(
                statement.on_conflict_do_update(
                    index_elements=list(LAST_KEY),
                    set_={"people": LAST_SEEN.c.people + statement.excluded.people},
                ),
                moved,
            )
        keyed = [PEOPLE.c[k] == bindparam(f"k_{k}") for k in PERSON_KEY]
        if settled:
            self.conn.execute(
                delete(PEOPLE).where(*keyed),
                [{f"k_{k}": v for k, v in zip(PERSON_KEY, p, strict=True)} for p in settled],
            )
        kept = [(*p, *span) for p, span in settled.items() if span is not None]
        if kept:
            columns = (*PERSON_KEY, *PERSON_FIGURES)
            self.conn.execute(
                insert(PEOPLE), [dict(zip(columns, row, strict=True)) for row in kept]
            )
        self.removed.clear()
        self.before.clear()

    def _read_again(self, pair: Pair) -> Span | None:
        """A pair's first and last day and count, from its stored sessions; None if none."""
        platform, kind, subject, player = pair
        where = and_(S.c.platform == platform, P.c.player_id == player)
        if kind == "owner":
            where = and_(where, S.c.owner_id == subject)
        first, last, n = self.conn.execute(
            select(func.min(S.c.day), func.max(S.c.day), func.count())
            .select_from(_joined())
            .where(where)
        ).one()
        return (first, last, n) if n else None


def _rows(spans: dict[Pair, Span]) -> list[tuple]:
    return [(*pair, *span) for pair, span in spans.items()]
