"""事件分派: a block of ledger events handed to the checks, each event type's handlers.

A check names a handler per event type it reads, either for one event at a time
(`on`, called in ledger order with the event's Beijing day) or for all of a block's
events of that type at once (`on_block`, called with their places, the events and
their days, in ledger order). A handler takes a block's events at once only where
the state it keeps is read by no other type's handler (check 13's unit prices by the
recharges, check 10's days by the settlements), so that taking them apart from the
other types' events finds the same; the resale profiles (check 20), which any type may
carry, are fed in ledger order too, after the block's other handlers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from datetime import date, datetime
from itertools import compress, repeat
from typing import Any

from compliance.domain.duties.calendar import BEIJING_OFFSET, LAST_SUMMER_TIME, local_day
from compliance.domain.duties.collect import Collector
from compliance.logs.platform_records import EVENT_TYPES, LedgerEvent

OneAtATime = Callable[[LedgerEvent, date], None]
AtOnce = Callable[[Sequence[int], Sequence[LedgerEvent], Sequence[date]], None]
_TYPE = operator.attrgetter("type")
_PLATFORM = operator.attrgetter("platform")
_AT = operator.attrgetter("at")
_ZONE = operator.attrgetter("tzinfo")
_YEAR = operator.attrgetter("year")
_PROFILE = operator.attrgetter("device", "region", "payer")
_NO_PROFILE = (None, None, None)


class Dispatch:
    """每类处理: each event type's handlers of the checks, and a block handed to them."""

    def __init__(
        self, checks: list[Any], collect: Collector, resale: Callable[[LedgerEvent], None] | None
    ):
        self.collect, self.resale = collect, resale
        self.one: dict[str, tuple[OneAtATime, ...]] = {}
        self.block: dict[str, tuple[AtOnce, ...]] = {}
        for kind in EVENT_TYPES:
            one: list[OneAtATime] = []
            many: list[AtOnce] = []
            for c in checks:
                on, on_block = getattr(c, "on", None), getattr(c, "on_block", {})
                if kind in on_block:
                    many.append(on_block[kind])
                elif on is not None:
                    one.extend([on[kind]] if kind in on else [])
                elif kind in getattr(c, "types", EVENT_TYPES):
                    one.append(c.see)
            self.one[kind], self.block[kind] = tuple(one), tuple(many)
        self._beijing: Any = None  # the time zone object of +08:00 events, once seen

    def days(self, events: Sequence[LedgerEvent]) -> list[date]:
        """Each event's Beijing day: its own date where every time of the block is at the
        +08:00 seen before and after 1991, else told one by one (`local_day`)."""
        ats = list(map(_AT, events))
        beijing = self._beijing
        if (
            beijing is not None
            and all(map(operator.is_, map(_ZONE, ats), repeat(beijing)))
            and min(map(_YEAR, ats)) > LAST_SUMMER_TIME
        ):
            return list(map(datetime.date, ats))
        return [self._day(at) for at in ats]

    def _day(self, at: datetime) -> date:
        if at.tzinfo is self._beijing and at.year > LAST_SUMMER_TIME:
            return at.date()
        if at.utcoffset() == BEIJING_OFFSET:
            self._beijing = at.tzinfo
        return local_day(at)

    def hand(
        self, seqs: Sequence[int], events: Sequence[LedgerEvent], platforms: set, draws: set
    ) -> None:
        """A block's events (with their places) to every handler; the platforms and the
        platforms with draws noted."""
        if not events:
            return
        days = self.days(events)
        platforms.update(map(_PLATFORM, events))
        kinds = list(map(_TYPE, events))
        present = set(kinds)
        if "draw" in present:
            draws.update(map(_PLATFORM, compress(events, map("draw".__eq__, kinds))))
        one, collect = self.one, self.collect
        ordered = {kind for kind in present if one[kind]}
        rows: Any = zip(seqs, events, days, strict=True)
        if len(ordered) < len(present):
            rows = compress(rows, map(ordered.__contains__, kinds))
        for seq, e, day in rows:
            collect.seq = seq
            for see in one[e.type]:
                see(e, day)
        for kind in present:
            handlers = self.block[kind]
            if not handlers:
                continue
            if len(present) == 1:
                picked = seqs, events, days
            else:
                chosen = list(map(kind.__eq__, kinds))
                picked = (
                    list(compress(seqs, chosen)),
                    list(compress(events, chosen)),
                    list(compress(days, chosen)),
                )
            for handle in handlers:
                handle(*picked)
        resale = self.resale
        if resale is not None:
            profiled = map(_NO_PROFILE.__ne__, map(_PROFILE, events))
            for seq, e in compress(zip(seqs, events, strict=True), profiled):
                collect.seq = seq
                resale(e)
