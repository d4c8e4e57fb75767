"""斗牛 (牛牛): the banker game of seeds 000 and 004 (docs/games/douniu.md).

`engine` replays sessions, `tally` is the fused one-pass tally of the audit's
hot path, `hands` ranks five cards, `options` and `record` are the variant
and the round record, `simulator` makes sessions.
"""

from __future__ import annotations

from compliance.games.base import EngineSpec
from compliance.games.douniu.engine import (
    BANKER_TIE_LEVELS,
    Douniu,
    claim_issues,
    hand_scores,
    next_banker,
    replay_rounds,
    settle,
    wrong_banker_issue,
)
from compliance.games.douniu.options import DEFAULT_PRESET, PRESETS, DouniuOptions
from compliance.games.douniu.record import DouniuRound, DouniuSeat
from compliance.games.douniu.tally import tally_rounds, tally_session

SPEC = EngineSpec(
    code="douniu",
    name_zh="斗牛",
    name_en="Bull (Niu Niu)",
    round_type=DouniuRound,
    options_type=DouniuOptions,
    presets=PRESETS,
    default_preset=DEFAULT_PRESET,
    seat_range=(2, 6),
    tally=tally_session,
)
GAME = Douniu(SPEC)
ROUND_TYPE = SPEC.round_type
options_for = GAME.options_for

__all__ = [
    "BANKER_TIE_LEVELS",
    "DEFAULT_PRESET",
    "GAME",
    "PRESETS",
    "ROUND_TYPE",
    "SPEC",
    "Douniu",
    "DouniuOptions",
    "DouniuRound",
    "DouniuSeat",
    "claim_issues",
    "hand_scores",
    "next_banker",
    "options_for",
    "replay_rounds",
    "settle",
    "tally_rounds",
    "wrong_banker_issue",
]
