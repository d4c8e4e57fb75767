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
from typing import cast

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
        if e.type == "settlement":
            self.settlements((self.collect.seq,), (e,), (day,))

    def settlements(
        self, seqs: Sequence[int], events: Sequence[LedgerEvent], days: Sequence[date]
    ) -> None:
        """A block's settlements in ledger order: each one's points summed into its account's
        day in its mode, a round over the mode's cap a breach; without a configuration of
        the modes, those with points only counted per platform."""
        if self.modes is None:
            self._unconfigured_block(events)
            return
        modes, totals, judged, collect = self.modes, self.days, self._judged, self.collect
        for seq, e, day in zip(seqs, events, days, strict=True):
            units = e.units
            if units is None:
                continue
            platform = e.platform
            if platform not in judged:
                judged.add(platform)
                collect.checked.add(("point_caps", platform))
            mode = modes.get((platform, e.mode or ""))
            if mode is None:
                self._unlisted_mode(platform, e.mode)
                continue
            if not mode.stakes_points:
                continue
            swing = -units if units < 0 else units
            if mode.round_cap is not None and swing > mode.round_cap:
                collect.seq = seq
                self._round_over(e, day, mode, swing)
            key = (platform, e.account, mode.mode, day)
            held = totals.get(key)
            if held is None:
                totals[key] = (swing, (e.id, e.at, units, seq))
            else:
                totals[key] = (held[0] + swing, held[1])
        if seqs:
            collect.seq = seqs[-1]  # as one at a time leaves it

    def _unlisted_mode(self, platform: str, name: str | None) -> None:
        missing = self._unlisted.get(name)
        if missing is None:
            missing = self._unlisted[name] = f"platform-config mode {name}"
        counted = self._unconfigured
        counted[(platform, missing)] = counted.get((platform, missing), 0) + 1

    def _round_over(self, e: LedgerEvent, day: date, mode: ModeConfig, swing: int) -> None:
        cap = cast(int, mode.round_cap)  # over it: not None
        for duty in self.book.in_force("point_caps", "per_round", day):
            b = cap_breach(self.collect, duty, e.platform, e.account, day, cap, mode.mode, "round")
            b.see(Decimal(swing), event(e.id, e.at, e.type, None, e.units))

    def _unconfigured_block(self, events: Sequence[LedgerEvent]) -> None:
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
        for (platform, account, name, day), (total, (id, at, units, seq)) in sorted(self._over()):
            cap = cast(int, (self.modes or {})[(platform, name)].day_cap)  # over it: not None
            for duty in self.book.in_force("point_caps", "per_day", day):
                self.collect.seq = seq
                b = cap_breach(self.collect, duty, platform, account, day, cap, name, "day")
                b.see(Decimal(total), event(id, at, "settlement", None, units))
                b.form = (DAY_POINTS, {"mode": name})
        self.days.clear()

    def _over(self) -> list[tuple[tuple[str, str, str, date], tuple[int, tuple]]]:
        """The days over their mode's per-day cap, in no order: only these are sorted (all
        a ledger's days sorted were most of a realistic ledger's checks)."""
        caps = {key: mode.day_cap for key, mode in (self.modes or {}).items()}
        return [
            item
            for item in self.days.items()
            if (cap := caps[(item[0][0], item[0][2])]) is not None and item[1][0] > cap
        ]


def cap_breach(collect, duty, platform: str, account: str, day, cap: int, mode: str, per: str):
    """An account's round or day (`per`) over a mode's cap, as check 10 reports it (ledger
    or rounds)."""
    return collect.breach(
        duty,
        platform,
        f"account:{account}",
        month_of(day),
        metric=f"{per}_points",
        boundary=f"at most {cap} points a {per} in {mode}",
        cap=Decimal(cap),
        account=account,
    )
