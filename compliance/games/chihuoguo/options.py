"""吃火锅玩法: the room's settings and the seed's caps, with named presets."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from compliance.logs.bounds import MAX_PLAYERS, Multiplier, Points


class ChihuoguoOptions(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """玩法选项: the room's settings and the seed's caps."""

    seats: Annotated[int, msgspec.Meta(ge=2, le=MAX_PLAYERS)] = 4
    min_bet: Points = 5
    ante: Points | None = None
    max_bet: Points = 100_000
    loss_cap: Points = 200_000
    post_multiplier: Multiplier = 2
    ace_king_post_multiplier: Multiplier = 4


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "shelongmen": {"post_multiplier": 3, "ace_king_post_multiplier": 3},
}


DEFAULT_PRESET = "seed"
