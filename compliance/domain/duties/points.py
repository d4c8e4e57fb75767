"""输赢积分上限: check 10, the per-round and per-day caps of each point-staking mode.

The caps are the operator's own (公通字〔2007〕3号 §3 gives no figure): the check
is that each mode has both, and that the ledger's settlements keep to them. A
day's points are the sum of the rounds' |Δpoints| of one account in one mode on
one Beijing day.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from itertools import compress, repeat

from compliance.domain.duties.calendar import month_of
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.rows import DutyBook
from compliance.logs.platform_records import LedgerEvent, ModeConfig

DAY_POINTS = "{count} days over the cap in {mode} (largest {value} points)"
CONFIG = "platform-config"
UNCONFIGURED = "settlements with no configuration of the modes' caps"
UNLISTED = "settlements of a mode the configuration does not list"
_UNITS = operator.attrgetter("units")
_PLATFORM = operator.attrgetter("platform")


class Points:
    types = frozenset({"settlement"})

    def __init__(
        self, book: DutyBook, modes: dict[tuple[str, str], ModeConfig] | None, collect: Collector
    ):
        self.book, self.modes, self.collect = book, modes, collect
        # (platform, account, mode, day) → (points, (first event's id, time, units, place))
        self.days: dict[tuple[str, str, str, date], tuple[int, tuple]] = {}
        self._judged: set[str] = set()  # platforms marked checked
        self._unlisted: dict[str | None, str] = {}  # a mode's "missing" when not configured
        # settlements whose caps are not configured, counted by platform and what is missing
        self._unconfigured: dict[tuple[str, str], int] = {}
        self.on: dict = {}
        self.on_block = {"settlement": self.settlements}

    def configured(self, on: date) -> None:
        """Every point-staking mode of the configuration has both caps."""
        for (platform, name), mode in sorted((self.modes or {}).items()):
            self.collect.checked.add(("point_caps", platform))
            if not mode.stakes_points:
                continue
            lacking = [
                c
                for c, v in (("round_cap", mode.round_cap), ("day_cap", mode.day_cap))
                if v is None
            ]
            for duty in self.book.in_force("point_caps", "configured", on):
                if lacking:
                    b = self.collect.breach(
                        duty,
                        platform,
                        f"mode:{name}",
                        on.isoformat(),
                        metric="caps_missing",
                        boundary="a per-round and a per-day cap",
                        cap=None,
                    )
                    b.see(Decimal(len(lacking)), None)
                    b.detail = f"mode {name} has no {' and no '.join(lacking)}"

    def see(self, e: LedgerEvent, day: date) -> None:
        """One event; `day` its Beijing day."""
        if e.type != "settlement" or e.units is None:
            return
        platform = e.platform
        if platform not in self._judged:
            self._judged.add(platform)
            self.collect.checked.add(("point_caps", platform))
        if self.modes is None:
            counted = self._unconfigured
            counted[(platform, CONFIG)] = counted.get((platform, CONFIG), 0) + 1
            return
        mode = self.modes.get((platform, e.mode or ""))
        if mode is None:
            missing = self._unlisted.get(e.mode)
            if missing is None:
                missing = self._unlisted[e.mode] = f"platform-config mode {e.mode}"
            counted = self._unconfigured
            counted[(platform, missing)] = counted.get((platform, missing), 0) + 1
            return
        if not mode.stakes_points:
            return
        swing = abs(e.units)
        if mode.round_cap is not None and swing > mode.round_cap:
            for duty in self.book.in_force("point_caps", "per_round", day):
                b = self.collect.breach(
                    duty,
                    platform,
                    f"account:{e.account}",
                    month_of(day),
                    metric="round_points",
                    boundary=f"at most {mode.round_cap} points a round in {mode.mode}",
                    cap=Decimal(mode.round_cap),
                    account=e.account,
                )
                b.see(Decimal(swing), event(e.id, e.at, e.type, None, e.units))
        key = (platform, e.account, mode.mode, day)
        held = self.days.get(key)
        if held is None:
            self.days[key] = (swing, (e.id, e.at, e.units, self.collect.seq))
        else:
            self.days[key] = (held[0] + swing, held[1])

    def settlements(
        self, seqs: Sequence[int], events: Sequence[LedgerEvent], days: Sequence[date]
    ) -> None:
        """A block's settlements (`see` each, in ledger order); without a configuration of the
        modes, those with points only counted per platform."""
        if self.modes is not None:
            collect, see = self.collect, self.see
            for seq, e, day in zip(seqs, events, days, strict=True):
                collect.seq = seq
                see(e, day)
            return
        pointed = map(operator.is_not, map(_UNITS, events), repeat(None))
        counted = self._unconfigured
        for platform, n in Counter(compress(map(_PLATFORM, events), pointed)).items():
            if platform not in self._judged:
                self._judged.add(platform)
                self.collect.checked.add(("point_caps", platform))
            counted[(platform, CONFIG)] = counted.get((platform, CONFIG), 0) + n

    def part(self) -> None:
        """A worker judges its accounts' days itself (`finish`); nothing is left open."""
        self.finish()

    def absorb(self, part: None) -> None:
        """Nothing to take: the days were judged where they were summed."""

    def finish(self) -> None:
        for (platform, missing), n in self._unconfigured.items():
            why = UNCONFIGURED if missing == CONFIG else UNLISTED
            self.collect.cannot("point_caps", platform, missing, why, n)
        self._unconfigured.clear()
        for (platform, account, name, day), (total, (id, at, units, seq)) in sorted(
            self.days.items()
        ):
            mode = (self.modes or {})[(platform, name)]
            if mode.day_cap is None or total <= mode.day_cap:
                continue
            for duty in self.book.in_force("point_caps", "per_day", day):
                self.collect.seq = seq
                b = day_cap_breach(self.collect, duty, platform, account, day, mode.day_cap, name)
                b.see(Decimal(total), event(id, at, "settlement", None, units))
                b.form = (DAY_POINTS, {"mode": name})
        self.days.clear()


def day_cap_breach(collect, duty, platform: str, account: str, day, cap: int, mode: str):
    """An account's day over a mode's per-day cap, as check 10 reports it (ledger or rounds)."""
    return collect.breach(
        duty,
        platform,
        f"account:{account}",
        month_of(day),
        metric="day_points",
        boundary=f"at most {cap} points a day in {mode}",
        cap=Decimal(cap),
        account=account,
    )
