"""牌九 (paigow) with cards: each player against the banker, seed 003 (docs/games/paigow.md).

`engine` replays sessions, `hands` ranks two cards, `options` and `record`
are the variant and the round record, `simulator` makes sessions. The cards
are 扯旋's (`compliance.games.card_kinds`).
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.paigow.engine import Paigow, settle_round, versus_banker
from compliance.games.paigow.hands import PaigowHand, PaigowRanking, deck, ranking_for
from compliance.games.paigow.options import PRESETS, PaigowOptions
from compliance.games.paigow.record import PaigowRound, PaigowSeat

SPEC = EngineSpec(
    code="paigow",
    name_zh="牌九",
    name_en="Pai gow (32-card)",
    round_type=PaigowRound,
    options_type=PaigowOptions,
    presets=PRESETS,
    default_preset="seed",
)
GAME = Paigow(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "GAME",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "Paigow",
    "PaigowHand",
    "PaigowOptions",
    "PaigowRanking",
    "PaigowRound",
    "PaigowSeat",
    "deck",
    "options_for",
    "ranking_for",
    "settle_round",
    "versus_banker",
]
