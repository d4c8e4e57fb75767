"""变色龙玩法: penalty values, card powers, decks and stake, with named presets."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from compliance.logs.bounds import MAX_PLAYERS, Multiplier, Points
from compliance.logs.records import Variant

Draw = Annotated[int, msgspec.Meta(ge=0, le=20)]


class BianselongOptions(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """玩法选项: penalty values, card powers, decks and the stake per point.

    `ace_points` and `king_points` have no default: the seed lists no value
    for A and breaks off at K, so the log's preset or options must give them.
    """

    ace_points: Points
    king_points: Points
    queen_points: Points = 3
    jack_points: Points = 20
    hand_size: Annotated[int, msgspec.Meta(ge=1, le=20)] = 5
    seven_draw: Draw = 2
    stuck_draw: Draw = 1
    play_after_draw: bool = False
    last_jack_multiplier: Multiplier = 2
    out_at: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 100
    stake_per_point: Points = 1
    two_decks_from: Annotated[int, msgspec.Meta(ge=2, le=MAX_PLAYERS)] = 4
    max_decks: Annotated[int, msgspec.Meta(ge=1, le=8)] = 3


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
