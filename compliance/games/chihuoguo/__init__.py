"""吃火锅: the four-player pot game of seed 004, turn by turn (docs/games/chihuoguo.md).

`engine` replays the turns with the pot and chips carried, `bets` settles one
bet and describes two ends for `games eval`; `options` and `record` are the
variant and the round record; `simulator` makes sessions.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.chihuoguo.bets import (
    OUTCOME_ZH,
    Outcome,
    describe_turn,
    is_pair,
    post_multiplier,
    settle_bet,
)
from compliance.games.chihuoguo.engine import (
    NEGATIVE_CHIPS,
    Chihuoguo,
    Table,
    bet_breaches,
    starting_chips,
)
from compliance.games.chihuoguo.options import DEFAULT_PRESET, PRESETS, ChihuoguoOptions
from compliance.games.chihuoguo.record import ChihuoguoTurn

SPEC = EngineSpec(
    code="chihuoguo",
    name_zh="吃火锅",
    name_en="Hot pot (in-between pot game)",
    round_type=ChihuoguoTurn,
    options_type=ChihuoguoOptions,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    seat_range=(4, 4),
)
GAME = Chihuoguo(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "DEFAULT_PRESET",
    "GAME",
    "NEGATIVE_CHIPS",
    "OUTCOME_ZH",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "Chihuoguo",
    "ChihuoguoOptions",
    "ChihuoguoTurn",
    "Outcome",
    "Table",
    "bet_breaches",
    "describe_turn",
    "is_pair",
    "options_for",
    "post_multiplier",
    "settle_bet",
    "starting_chips",
]
