"""牌九玩法: the variants of 牌九 and their named presets (docs/games/paigow.md)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from compliance.games.paigow.record import Chips


class PaigowOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: 牌九 variants; defaults follow seed 003 where it speaks."""

    black_three: Literal["S3", "C3"] = "S3"
    strict_pairs: bool = False
    hand_size: Literal[2, 4] = 2
    ties_to_banker: bool = False
    max_bet: Chips = 0


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "ties_to_banker": {"ties_to_banker": True},
    "four_cards": {"hand_size": 4},
    "strict": {"strict_pairs": True},
}
