"""变色龙: the shedding game of seed 003, deal by deal (docs/games/bianselong.md).

`engine` replays the deals and their penalty totals, `table` is the
play-by-play state machine the replay and the simulator share (`fast` plays a
deal without breaches out in one loop, equal to it); `options` and
`record` are the variant and the round record; `simulator` makes sessions.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.bianselong.engine import Bianselong, deck_breaches, settle_penalties
from compliance.games.bianselong.options import (
    DEFAULT_PRESET,
    PRESETS,
    UNSCORED,
    BianselongOptions,
    missing_values,
)
from compliance.games.bianselong.record import BianselongDeal, BianselongPlay
from compliance.games.bianselong.table import Table, card_points

SPEC = EngineSpec(
    code="bianselong",
    name_zh="变色龙",
    name_en="Chameleon (Crazy Eights-like shedding game)",
    round_type=BianselongDeal,
    options_type=BianselongOptions,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
)
GAME = Bianselong(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "DEFAULT_PRESET",
    "GAME",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "UNSCORED",
    "Bianselong",
    "BianselongDeal",
    "BianselongOptions",
    "BianselongPlay",
    "Table",
    "card_points",
    "deck_breaches",
    "missing_values",
    "options_for",
    "settle_penalties",
]
