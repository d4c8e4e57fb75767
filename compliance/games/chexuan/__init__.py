"""扯旋 (chexuan): Sichuan's 32-card game of head and tail, seed 001 (docs/games/chexuan.md).

`engine` replays sessions; `hands` ranks two and four cards, `betting` replays
the betting rounds (`fast_betting` the same in one loop where nothing is
breached), `settle` pays the showdown 尾大吃皮; `options` and
`record` are the variant and the round record; `simulator` makes sessions.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.chexuan.betting import ChexuanAction
from compliance.games.chexuan.engine import Chexuan, settle_round
from compliance.games.chexuan.hands import Ranking, RankingRules, deck, ranking_for
from compliance.games.chexuan.options import PRESETS, ChexuanOptions
from compliance.games.chexuan.record import ChexuanRound, ChexuanSeat

SPEC = EngineSpec(
    code="chexuan",
    name_zh="扯旋",
    name_en="Chexuan (Sichuan 32-card head and tail)",
    round_type=ChexuanRound,
    options_type=ChexuanOptions,
    presets=PRESETS,
    default_preset="seed",
)
GAME = Chexuan(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "GAME",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "Chexuan",
    "ChexuanAction",
    "ChexuanOptions",
    "ChexuanRound",
    "ChexuanSeat",
    "Ranking",
    "RankingRules",
    "deck",
    "options_for",
    "ranking_for",
    "settle_round",
]
