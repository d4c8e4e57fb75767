"""升级玩法: stake per level, the kitty multiplier, the scoring step, tractor following."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from compliance.games.shengji.record import Amount


class ShengjiOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: stake per level, the kitty multiplier, the scoring step, tractor following, ruffs.

    `throw_ruff`: how a trump ruff of a throw (毙甩牌) must match it, `units` (unit by
    unit, a tractor of n pairs standing for n pairs) or `shape` (the throw's exact units).
    """

    stake_per_level: Amount = 1
    kitty_multiplier: Literal["double_unit", "power"] = "double_unit"
    step: Annotated[int, msgspec.Meta(ge=5, le=1_000, multiple_of=5)] = 40
    tractor_follow: bool = True
    throw_ruff: Literal["units", "shape"] = "units"


PRESETS: dict[str, dict[str, Any]] = {
    "tuolaji": {},
    "power_kitty": {"kitty_multiplier": "power"},
}


DEFAULT_PRESET = "tuolaji"
