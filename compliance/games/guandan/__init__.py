"""掼蛋: the two-deck partnership game of seed 003, a match of hands (docs/games/guandan.md).

`engine` replays a match, `combos` names and compares combinations, `play`
checks the tribute and the play of one hand, `fast` passes the hands those checks
would pass on integer card codes, `decode` reads a session's hands with each distinct
play decoded once; `options` and `record` are the variant and the round record;
`simulator` makes matches.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.guandan.decode import keys_proven
from compliance.games.guandan.engine import Guandan, Match, replay_hands, seats_of
from compliance.games.guandan.options import DEFAULT_PRESET, PRESETS, GuandanOptions
from compliance.games.guandan.record import GuandanHand, GuandanPlay, GuandanTribute

SPEC = EngineSpec(
    code="guandan",
    name_zh="掼蛋",
    name_en="Guandan",
    round_type=GuandanHand,
    options_type=GuandanOptions,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    seat_range=(4, 4),
    keys_apart={"plays": keys_proven},
)
GAME = Guandan(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "DEFAULT_PRESET",
    "GAME",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "Guandan",
    "GuandanHand",
    "GuandanOptions",
    "GuandanPlay",
    "GuandanTribute",
    "Match",
    "options_for",
    "replay_hands",
    "seats_of",
]
