"""变色龙玩法: penalty values, card powers, decks and stake, with named presets."""

from __future__ import annotations

from typing import Any

import msgspec

from compliance.logs.records import Points, Variant


class BianselongOptions(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """玩法选项: penalty values, card powers, decks and the stake per point.

    `ace_points` and `king_points` have no default: the seed lists no value
    for A and breaks off at K, so the log's preset or options must give them.
    """

    ace_points: Points
    king_points: Points
    queen_points: Points = 3
    jack_points: Points = 20
    hand_size: int = 5
    seven_draw: int = 2
    stuck_draw: int = 1
    play_after_draw: bool = False
    last_jack_multiplier: int = 2
    out_at: int = 100
    stake_per_point: Points = 1
    two_decks_from: int = 4
    max_decks: int = 3


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "court10": {"ace_points": 1, "king_points": 10},
}


DEFAULT_PRESET = "seed"


UNSCORED = ("ace_points", "king_points")


def missing_values(variant: Variant) -> list[str]:
    """The penalty values of A and K that neither the preset nor the options give."""
    preset = PRESETS.get(variant.preset or DEFAULT_PRESET, {})
    return [k for k in UNSCORED if k not in preset and k not in variant.options]
