"""批内累计: the window tables' additions for sessions about to be stored, summed from them.

What `window_upkeep.add_days` and `add_people` sum in SQL over the rows just
inserted is summed here from the sessions themselves, before they are written,
and goes in as one upsert per table: the database no longer reads back and
groups what it was just given. The sums are the same integers: a money value in
whole cents is exactly what `round(value × 100)` gives on the stored value (a
float on SQLite, within half a cent of it below `LIMIT`); a value of finer
precision or beyond `LIMIT` makes `sums` give None, and the batch goes the SQL
way, which rounds as the database does.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection

from compliance.db.models import table_of
from compliance.db.window_models import WindowDayRow, WindowLastSeenRow, WindowPersonRow
from compliance.domain.audited import AuditedSession

DAYS = table_of(WindowDayRow)
PEOPLE = table_of(WindowPersonRow)
LAST_SEEN = table_of(WindowLastSeenRow)
LAST_KEY = ("platform", "kind", "subject", "day")
DAY_KEY = ("platform", "kind", "subject", "day", "place", "venue")
DAY_SUMS = ("sessions", "capital", "net", "rake", "fixed_fee", "minors")
PERSON_KEY = ("platform", "kind", "subject", "player_id")
PERSON_FIGURES = ("first_day", "last_day", "sessions")

LIMIT = 10**14  # cents: a float holds them to well within half a cent
CHUNK = 500

Pair = tuple[str, str, str, str]  # platform, kind, subject, player
Span = tuple[date, date, int]  # first day, last day, sessions
DayKey = tuple[str, str, str, date, str, str]  # platform, kind, subject, day, place, venue


class NotWholeCents(Exception):
    """A money value the SQL way must round (finer than a cent, or too large)."""


def cents(value: Decimal | int | None) -> int:
    """A stored money value in whole cents, as the SQL sums round it."""
    if value is None:
        return 0
    scaled = value * 100
    try:
        whole = int(scaled)
    except (ValueError, OverflowError):  # not a number, or infinite
        raise NotWholeCents from None
    if whole != scaled or not -LIMIT < whole < LIMIT:
        raise NotWholeCents
    return whole


class BatchSums:
    """The `window_days` rows and the (subject, player) spans of a batch of sessions."""

    def __init__(self) -> None:
        self.days: dict[DayKey, list[int]] = {}
        self.spans: dict[Pair, Span] = {}
        self._seen: dict[Pair, list] = {}  # first day, last day, sessions: spans while adding

    def _day(self, key: DayKey, figures: tuple[int, ...]) -> None:
        found = self.days.get(key)
        if found is None:
            self.days[key] = list(figures)
        else:
            for i, v in enumerate(figures):
                found[i] += v

    def add(self, s: AuditedSession) -> None:
        m = s.metrics
        day, place, platform, owner = s.day, s.stored_jurisdiction or "", s.platform, s.owner_id
        figures = (
            1,
            cents(m.scene_capital if m else None),
            0,
            cents(m.rake if m else None),
            cents(s.fixed_fee),
            s.minors or 0,
        )
        if owner is not None:
            self._day((platform, "owner", owner, day, place, s.venue), figures)
        self._day((platform, "platform", platform, day, place, s.venue), figures)
        days, seen = self.days, self._seen
        pairs = (
            (("owner", owner), ("platform", platform))
            if owner is not None
            else (("platform", platform),)
        )
        for p in s.players:
            pm = p.metrics
            key = (platform, "player", p.id, day, p.stored_jurisdiction or "", "")
            mine = [1, cents(pm.capital), cents(pm.net), 0, 0, 0] if pm else [1, 0, 0, 0, 0, 0]
            found = days.get(key)
            if found is None:
                days[key] = mine
            else:
                for i, v in enumerate(mine):
                    found[i] += v
            for kind, subject in pairs:
                pair = (platform, kind, subject, p.id)
                span = seen.get(pair)
                if span is None:
                    seen[pair] = [day, day, 1]
                else:
                    if day < span[0]:
                        span[0] = day
                    elif day > span[1]:
                        span[1] = day
                    span[2] += 1

    def done(self) -> BatchSums:
        self.spans = {pair: (first, last, n) for pair, (first, last, n) in self._seen.items()}
        return self


def sums(sessions: Iterable[AuditedSession]) -> BatchSums | None:
    """The batch's sums; None where a money value is not in whole cents below `LIMIT`."""
    found = BatchSums()
    try:
        for s in sessions:
            found.add(s)
    except NotWholeCents:
        return None
    return found.done()


def stored_spans(conn: Connection, pairs: list[Pair]) -> dict[Pair, Any]:
    """The stored first and last day and sessions of each of these pairs that is stored:
    the pairs joined to the
    table's key (a row-value IN scans the table on SQLite), through the driver (Core's
    expanding tuples cost more than the look-ups)."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    day = DAYS.c.day.type.dialect_impl(conn.dialect).result_processor(conn.dialect, None) or _same
    found: dict[Pair, Any] = {}
    for i in range(0, len(pairs), CHUNK):
        chunk = pairs[i : i + CHUNK]
        rows = conn.exec_driver_sql(
            "WITH batch (platform, kind, subject, player_id) AS (VALUES "
            + ", ".join(f"({mark}, {mark}, {mark}, {mark})" for _ in chunk)
            + ") SELECT w.platform, w.kind, w.subject, w.player_id, w.first_day, w.last_day,"
            " w.sessions FROM batch"
            f" JOIN {PEOPLE.name} w ON w.platform = batch.platform AND w.kind = batch.kind"
            " AND w.subject = batch.subject AND w.player_id = batch.player_id",
            tuple(v for pair in chunk for v in pair),
        )
        for platform, kind, subject, player, first, last, n in rows.fetchall():
            found[(platform, kind, subject, player)] = (day(first), day(last), n)
    return found


def last_seen_moves(spans: dict[Pair, Span], before: dict[Pair, Span]) -> dict[tuple, int]:
    """How the count of players last seen on each (platform, kind, subject, day) moves: a
    pair new or seen later than its stored last day leaves that day for its new one."""
    moves: dict[tuple, int] = {}
    for pair, (_, last, _) in spans.items():
        stored = before.get(pair)
        was = stored[1] if stored is not None else None
        if was is not None and was >= last:
            continue
        if was is not None:
            gone = (*pair[:3], was)
            moves[gone] = moves.get(gone, 0) - 1
        now = (*pair[:3], last)
        moves[now] = moves.get(now, 0) + 1
    return moves


def upsert(
    conn: Connection,
    table: str,
    columns: tuple[str, ...],
    key: tuple[str, ...],
    sets: dict[str, str],
    rows: list[tuple],
) -> None:
    """INSERT … ON CONFLICT (key) DO UPDATE SET …, the rows in column order through the
    driver's executemany: `sets` gives each updated column's expression, `{old}` the
    stored row's column and `{new}` the row offered."""
    if not rows:
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    updates = ", ".join(
        f"{c} = " + e.format(old=f"{table}.{c}", new=f"excluded.{c}") for c, e in sets.items()
    )
    conn.exec_driver_sql(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(mark for _ in columns)})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}",
        rows,
    )


def add(conn: Connection, batch: BatchSums) -> None:
    """What `window_upkeep.add_days` and `add_people` do, from the batch's own sums."""
    day = _days(conn)
    upsert(
        conn,
        DAYS.name,
        (*DAY_KEY, *DAY_SUMS),
        DAY_KEY,
        {c: "{old} + {new}" for c in DAY_SUMS},
        [(*k[:3], day[k[3]], k[4], k[5], *v) for k, v in batch.days.items()],
    )
    before = stored_spans(conn, list(batch.spans))
    moves = last_seen_moves(batch.spans, before)
    upsert(
        conn,
        LAST_SEEN.name,
        (*LAST_KEY, "people"),
        LAST_KEY,
        {"people": "{old} + {new}"},
        [(*k[:3], day[k[3]], n) for k, n in moves.items()],
    )
    least, greatest = ("min", "max") if conn.dialect.name == "sqlite" else ("least", "greatest")
    upsert(
        conn,
        PEOPLE.name,
        (*PERSON_KEY, *PERSON_FIGURES),
        PERSON_KEY,
        {
            "first_day": least + "({old}, {new})",
            "last_day": greatest + "({old}, {new})",
            "sessions": "{old} + {new}",
        },
        [(*p, day[first], day[last], n) for p, (first, last, n) in batch.spans.items()],
    )


def _same(value):
    return value


class DriverDays(dict):
    """A day as the driver takes it (text on SQLite), each written once: a batch has few."""

    def __init__(self, write) -> None:
        super().__init__()
        self.write = write

    def __missing__(self, value: date) -> Any:
        found = self[value] = self.write(value)
        return found


def _days(conn: Connection) -> DriverDays:
    write = DAYS.c.day.type.dialect_impl(conn.dialect).bind_processor(conn.dialect)
    return DriverDays(write or _same)
