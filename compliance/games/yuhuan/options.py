"""玩法: the numbers of 玉环麻将 scoring as one typed options object and its presets.

Every number of seed 002's 记分 section is a field here; presets name the
house rules met in the wild, and a log's variant may override any field.
"""

from __future__ import annotations

import msgspec


class YuhuanOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玉环麻将玩法: 胡数, 台数, rounding, cap, payments and wildcards."""

    base_hu: int = 20  # 底胡, the winner's only
    flower_hu: int = 4  # each 杠花
    honour_pair_hu: int = 2  # a pair of 中, 发 or the seat wind
    pung_exposed_major: int = 4  # 幺九 (honours, terminals)
    pung_concealed_major: int = 8
    kong_exposed_major: int = 16
    kong_concealed_major: int = 32
    pung_exposed_minor: int = 2  # 普通牌 (simples)
    pung_concealed_minor: int = 4
    kong_exposed_minor: int = 8
    kong_concealed_minor: int = 16
    hard_wait_self_drawn_hu: int = 4  # 坎档, 靠壁, 对子
    hard_wait_discard_hu: int = 2
    easy_wait_self_drawn_hu: int = 2
    easy_wait_discard_hu: int = 0
    discard_pung_exposed: bool = True  # a pung completed by the winning discard is 明刻
    flower_tai: int = 1
    dragon_pung_tai: int = 1
    seat_wind_pung_tai: int = 1
    pinghu_tai: int = 1
    kong_flower_tai: int = 1  # 杠上开花
    robbed_kong_tai: int = 1  # 拉杠
    half_flush_tai: int = 2  # 混一色
    all_pungs_tai: int = 2  # 碰碰胡
    full_flush_tai: int = 3  # 清一色
    no_wild_tai: int = 1
    one_wild_tai: int = 0
    two_wild_tai: int = 1
    three_wild_tai: int = 4
    four_wild_tai: int = 4
    max_tai: int = 4  # 腊子
    round_to: int = 10
    cap: int = 400
    wild_copies: int = 3  # 4: the turned-up tile is wild too
    three_wild_cap: bool = False
    four_winds_cap: bool = True  # 四风台 满贯 (seed 002 『肆』)
    loser_wild_tai: bool = False  # non-winners' 台 count their 財神
    huang_tiles: int = 16  # 黄庄 when this many tiles remain
    chengbao_tiles: int = 9  # 承包 for a discard this close to 黄庄
    banker_keeps_on_win: bool = False
    points_per_hu: int = 1  # the agreed stake: points per 胡


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
