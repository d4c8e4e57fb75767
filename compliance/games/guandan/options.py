"""掼蛋玩法: stakes, the A-level finish rule, the return limit and 抗贡, with named presets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from compliance.games.guandan.record import Amount


class GuandanOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: stakes, the A-level finish rule, the return limit, 抗贡 and who pays 对落.

    `partner_last_tribute`: who pays when the first and last finishers are partners,
    `last` (the seed: 下游 pays 上游) or `third` (the third finisher, as guandan-sdk).
    """

    stake_per_level: Amount = 1
    stake_per_game: Amount = 0
    a_finish: Literal["first_not_last", "double_up", "any_win"] = "first_not_last"
    a_failures_reset: Annotated[int, msgspec.Meta(ge=0, le=100)] = 0
    return_max: Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "any"] = (
        "10"
    )
    resist_jokers: Annotated[int, msgspec.Meta(ge=1, le=2)] = 2
    partner_last_tribute: Literal["last", "third"] = "last"


PRESETS: dict[str, dict[str, Any]] = {
    "competition": {},
    "double_up_a": {"a_finish": "double_up"},
    "three_tries_a": {"a_failures_reset": 3},
    "any_win_a": {"a_finish": "any_win"},
}


DEFAULT_PRESET = "competition"
