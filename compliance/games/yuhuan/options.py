"""玩法: the numbers of 玉环麻将 scoring as one typed options object and its presets.

Every number of seed 002's 记分 section is a field here; presets name the
house rules met in the wild, and a log's variant may override any field.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from compliance.logs.bounds import Points

Hu = Annotated[int, msgspec.Meta(ge=0, le=100_000)]
Tai = Annotated[int, msgspec.Meta(ge=0, le=16)]
Unit = Annotated[int, msgspec.Meta(ge=1, le=1_000)]
Copies = Annotated[int, msgspec.Meta(ge=3, le=4)]
Tiles = Annotated[int, msgspec.Meta(ge=0, le=144)]


class YuhuanOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玉环麻将玩法: 胡数, 台数, rounding, cap, payments and wildcards."""

    base_hu: Hu = 20  # 底胡, the winner's only
    flower_hu: Hu = 4  # each 杠花
    honour_pair_hu: Hu = 2  # a pair of 中, 发 or the seat wind
    pung_exposed_major: Hu = 4  # 幺九 (honours, terminals)
    pung_concealed_major: Hu = 8
    kong_exposed_major: Hu = 16
    kong_concealed_major: Hu = 32
    pung_exposed_minor: Hu = 2  # 普通牌 (simples)
    pung_concealed_minor: Hu = 4
    kong_exposed_minor: Hu = 8
    kong_concealed_minor: Hu = 16
    hard_wait_self_drawn_hu: Hu = 4  # 坎档, 靠壁, 对子
    hard_wait_discard_hu: Hu = 2
    easy_wait_self_drawn_hu: Hu = 2
    easy_wait_discard_hu: Hu = 0
    discard_pung_exposed: bool = True  # a pung completed by the winning discard is 明刻
    flower_tai: Tai = 1
    dragon_pung_tai: Tai = 1
    seat_wind_pung_tai: Tai = 1
    pinghu_tai: Tai = 1
    kong_flower_tai: Tai = 1  # 杠上开花
    robbed_kong_tai: Tai = 1  # 拉杠
    half_flush_tai: Tai = 2  # 混一色
    all_pungs_tai: Tai = 2  # 碰碰胡
    full_flush_tai: Tai = 3  # 清一色
    no_wild_tai: Tai = 1
    one_wild_tai: Tai = 0
    two_wild_tai: Tai = 1
    three_wild_tai: Tai = 4
    four_wild_tai: Tai = 4
    max_tai: Tai = 4  # 腊子
    round_to: Unit = 10
    cap: Hu = 400
    wild_copies: Copies = 3  # 4: the turned-up tile is wild too
    three_wild_cap: bool = False
    four_winds_cap: bool = True  # 四风台 满贯 (seed 002 『肆』)
    loser_wild_tai: bool = False  # non-winners' 台 count their 財神
    huang_tiles: Tiles = 16  # 黄庄 when this many tiles remain
    chengbao_tiles: Tiles = 9  # 承包 for a discard this close to 黄庄
    banker_keeps_on_win: bool = False
    points_per_hu: Points = 1  # the agreed stake: points per 胡


PRESETS: dict[str, dict[str, int | bool]] = {
    "yuhuan": {},
    "yuhuan_cap300": {"cap": 300},
    "yuhuan_platform": {"full_flush_tai": 4, "three_wild_cap": True},
}
DEFAULT_PRESET = "yuhuan"


def wild_tai(options: YuhuanOptions, held: int) -> int:
    """財神台: none 1, one 0, two 1, three 4 (seed 002 台数)."""
    table = (
        options.no_wild_tai,
        options.one_wild_tai,
        options.two_wild_tai,
        options.three_wild_tai,
        options.four_wild_tai,
    )
    return table[min(held, 4)]


def round_up(value: int, unit: int) -> int:
    """以10胡为一个单位: 62 and 69 count as 70, 4 as 10, 0 stays 0."""
    return -(-value // unit) * unit


def total_of(hu: int, tai: int, options: YuhuanOptions) -> int:
    """总胡数 = 胡数 × 2^台, rounded up to the unit, capped (封顶)."""
    return min(round_up(hu << tai, options.round_to), options.cap)
