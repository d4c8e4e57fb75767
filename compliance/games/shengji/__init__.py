"""升级 (拖拉机): the two-deck trick-taking game of seed 003, hand by hand (docs/games/shengji.md).

`engine` replays the hands, `tricks` knows trumps, shapes and who wins a
trick; `options` and `record` are the variant and the round record;
`simulator` makes sessions.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.shengji.engine import (
    HAND_SIZE,
    LEVELS,
    Shengji,
    hand_points,
    level_change,
    play_tricks,
    replay_hands,
    seats_of,
)
from compliance.games.shengji.options import DEFAULT_PRESET, PRESETS, ShengjiOptions
from compliance.games.shengji.record import ShengjiHand, ShengjiPlay

SPEC = EngineSpec(
    code="shengji",
    name_zh="升级",
    name_en="Shengji (Tractor)",
    round_type=ShengjiHand,
    options_type=ShengjiOptions,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    seat_range=(4, 4),
)
GAME = Shengji(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "DEFAULT_PRESET",
    "GAME",
    "HAND_SIZE",
    "LEVELS",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "Shengji",
    "ShengjiHand",
    "ShengjiOptions",
    "ShengjiPlay",
    "hand_points",
    "level_change",
    "options_for",
    "play_tricks",
    "replay_hands",
    "seats_of",
]
