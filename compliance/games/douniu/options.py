"""斗牛玩法: the payout table per hand rank and the named presets (docs/games/douniu.md)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from compliance.games.douniu import hands
from compliance.logs.bounds import Multiplier


class DouniuOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: the payout table (翻倍规则) per rank, ties at equal bull, banker succession.

    `five_small_max`: 五小牛 (house rule), five cards each at most 4 (or 5) summing to
    at most 10, above every other hand; 0, the seed, knows no 五小牛.
    """

    no_bull: Multiplier = 1
    bull_1: Multiplier = 1
    bull_2: Multiplier = 1
    bull_3: Multiplier = 1
    bull_4: Multiplier = 1
    bull_5: Multiplier = 1
    bull_6: Multiplier = 1
    bull_7: Multiplier = 1
    bull_8: Multiplier = 2
    bull_9: Multiplier = 2
    bull_bull: Multiplier = 3
    four_bomb: Multiplier = 4
    five_face: Multiplier = 5
    five_small: Multiplier = 6
    five_small_max: Literal[0, 4, 5] = 0
    equal_rank: Literal["high_card", "banker"] = "high_card"
    banker_succession: Literal["niu_nine", "grab"] = "niu_nine"

    @property
    def multipliers(self) -> tuple[int, ...]:
        """Multiplier by hand level, 没牛 (0) … 五花牛 (12), 五小牛 (13)."""
        return tuple(getattr(self, code) for code in hands.RANK_CODES)


PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "steep": {
        "bull_bull": 4,
        "bull_9": 3,
        "bull_8": 2,
        "bull_7": 2,
        "four_bomb": 5,
        "five_face": 6,
        "five_small": 8,
    },
    "linear": {
        **{f"bull_{n}": n for n in range(1, 10)},
        "bull_bull": 10,
        "four_bomb": 10,
        "five_face": 10,
        "five_small": 10,
    },
}


DEFAULT_PRESET = "classic"
