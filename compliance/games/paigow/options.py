"""牌九玩法: the variants of 牌九 and their named presets (docs/games/paigow.md)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from compliance.games.paigow.record import Chips


class PaigowOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: 牌九 variants; defaults follow seed 003 where it speaks.

    `di_wang`: 地王 (地 with a 9) ranks below 天王 (水牛) and above 天罡, the traditional
    order; the seed counts it as 地1 among the points (2 + 9 = 11).
    """

    black_three: Literal["S3", "C3"] = "S3"
    strict_pairs: bool = False
    hand_size: Literal[2, 4] = 2
    ties_to_banker: bool = False
    max_bet: Chips = 0
    di_wang: bool = False


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "ties_to_banker": {"ties_to_banker": True},
    "four_cards": {"hand_size": 4},
    "strict": {"strict_pairs": True},
}
