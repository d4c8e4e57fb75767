"""玉环麻将: the Zhejiang mahjong of seed 002, round by round (docs/games/yuhuan.md).

`engine` replays rounds with the banker's succession, `win` finds winning
decompositions, `score` counts 胡 and 台, `tiles` names the 136 tiles;
`fast` and `fast_win` settle the replay's rounds in one pass (equal to
`engine.settle_round`, the reference), `breaches` words illegal actions;
`options` holds the scoring numbers and presets, `record` the round record;
`simulator` makes sessions.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.yuhuan.engine import (
    RoundOutcome,
    Yuhuan,
    describe_hand,
    describe_round,
    explain,
    settle_round,
)
from compliance.games.yuhuan.options import DEFAULT_PRESET, PRESETS, YuhuanOptions
from compliance.games.yuhuan.record import YuhuanEvalHand, YuhuanHand, YuhuanMeld, YuhuanRound

SPEC = EngineSpec(
    code="yuhuan",
    name_zh="玉环麻将",
    name_en="Yuhuan mahjong",
    round_type=YuhuanRound,
    options_type=YuhuanOptions,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    seat_range=(4, 4),
)
GAME = Yuhuan(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "DEFAULT_PRESET",
    "GAME",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "RoundOutcome",
    "Yuhuan",
    "YuhuanEvalHand",
    "YuhuanHand",
    "YuhuanMeld",
    "YuhuanOptions",
    "YuhuanRound",
    "describe_hand",
    "describe_round",
    "explain",
    "options_for",
    "settle_round",
]
