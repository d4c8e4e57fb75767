"""局分上限（会话）: check 10 held against the session logs' rounds, beside the ledger's
settlements (points.py).

A session's mode is the configured mode that names its `game` and preset (`game`,
`presets` on a mode record), else the mode named as its game code (`SessionModes`);
each player's settled points in a round (`claimed`,
what the platform paid) are held to the mode's per-round cap, and their |Δpoints|
summed per account, mode and Beijing day of the session's start (a round carries no
time of its own) to the per-day cap. The sessions' and the ledger's sums are kept
apart, under rows of their own, so that a platform that logs its rounds in both is
not counted twice.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import cast

from compliance.domain.duties.calendar import local_day
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.points import cap_breach
from compliance.domain.duties.rows import DutyBook
from compliance.domain.duties.sitting import Sitting
from compliance.domain.findings import DutyEvent
from compliance.logs.platform_records import ModeConfig

CHECK = "point_caps"


class SessionModes:
    """玩法映射: the configured mode a session is played in. A mode that names the session's
    game and lists its preset comes first, then one that names the game for every preset,
    then the mode named as the game code (and naming no other game); among equals, the
    first by name."""

    def __init__(self, modes: dict[tuple[str, str], ModeConfig]):
        self.modes = modes
        self.mapped: dict[tuple[str, str], list[ModeConfig]] = {}
        for (platform, _), mode in sorted(modes.items()):
            if mode.game is not None:
                self.mapped.setdefault((platform, mode.game), []).append(mode)

    def of(self, platform: str, game: str, preset: str | None) -> ModeConfig | None:
        mapped = self.mapped.get((platform, game), ())
        for mode in mapped:
            if mode.presets is not None and preset in mode.presets:
                return mode
        for mode in mapped:
            if mode.presets is None:
                return mode
        named = self.modes.get((platform, game))
        return named if named is not None and named.game is None else None


class RoundPoints:
    def __init__(
        self, book: DutyBook, modes: dict[tuple[str, str], ModeConfig] | None, collect: Collector
    ):
        self.book, self.modes, self.collect = book, modes, collect
        self.sessions = SessionModes(modes) if modes is not None else None
        self.days: defaultdict[tuple[str, str, str, date], int] = defaultdict(int)
        self.first: dict[tuple[str, str, str, date], DutyEvent] = {}

    def see(self, s: Sitting) -> None:
        if not s.rounds:
            return
        if self.sessions is None:
            self.collect.cannot(
                CHECK,
                s.platform,
                "platform-config",
                "sessions with no configuration of the modes' caps",
            )
            return
        mode = self.sessions.of(s.platform, s.game, s.preset)
        if mode is None:
            self.collect.cannot(
                CHECK,
                s.platform,
                f"platform-config mode {s.game}",
                "sessions of a mode the configuration does not list",
            )
            return
        self.collect.checked.add((CHECK, s.platform))
        if not mode.stakes_points:
            return
        day = local_day(s.started_at)
        name = mode.mode
        over = self.book.in_force(CHECK, "session_round", day) if mode.round_cap is not None else []
        for index, r in enumerate(s.rounds, 1):
            for player, points in r.results().items():
                swing = abs(points)
                if mode.day_cap is not None:
                    key = (s.platform, player, name, day)
                    if key not in self.first:
                        self.first[key] = event(
                            f"{s.session_id}#{index}", s.started_at, "round", None, points
                        )
                    self.days[key] += swing
                if mode.round_cap is None or swing <= mode.round_cap:
                    continue
                for duty in over:
                    b = cap_breach(
                        self.collect, duty, s.platform, player, day, mode.round_cap, name, "round"
                    )
                    b.see(
                        Decimal(swing),
                        event(f"{s.session_id}#{index}", s.started_at, "round", None, points),
                    )

    def finish(self) -> None:
        caps = {key: mode.day_cap for key, mode in (self.modes or {}).items()}
        over = [  # only the days over the cap sorted, as Points.finish does
            (key, total)
            for key, total in self.days.items()
            if (cap := caps[(key[0], key[2])]) is not None and total > cap
        ]
        for (platform, account, name, day), total in sorted(over):
            cap = cast(int, caps[(platform, name)])
            for duty in self.book.in_force(CHECK, "session_day", day):
                b = cap_breach(self.collect, duty, platform, account, day, cap, name, "day")
                b.see(Decimal(total), self.first[(platform, account, name, day)])
                b.detail = f"{b.count} days over the cap in {name} (largest {b.value} points)"
