"""玉环麻将: seed 002's worked example, its rounding examples and its 胡 and 台 lines as tables."""

from __future__ import annotations

import pytest

from compliance.games.yuhuan import GAME
from compliance.games.yuhuan.options import YuhuanOptions, round_up, total_of
from compliance.logs.records import Variant
from tests.builders_yuhuan import hand, meld

# 『伍』: 8筒 is the 財神, 南 is not the seat wind; three 白板 杠花, 南 and 发 pungs,
# concealed 七筒 and 九万, a pung made with the 財神, self-drawn.
WORKED = hand(
    "777p999m8s8s8p5s5s",
    meld("pung", "222z", "c"),
    meld("pung", "666z", "d"),
    win="7p",
    wildcard="8p",
    wind="1z",
    flowers="555z",
)

PINGHU = "123m456m789p234s678s55p"


def describe(record, preset=None, **options):
    return GAME.describe(record, Variant(preset=preset, options=options))


def items(result) -> dict[str, int]:
    """胡 and 台 per item name, summed."""
    out: dict[str, int] = {}
    for i in result["items"]:
        out[i["item"]] = out.get(i["item"], 0) + i.get("hu", 0) + i.get("tai", 0)
    return out


def test_worked_example_scores_58_hu_and_4_tai_capped_at_400():
    result = describe(WORKED)
    assert result["win"] is True
    assert (result["hu"], result["tai"], result["total"]) == (58, 4, 400)
    assert result["tai_raw"] == 6  # 3 杠花 + 发 + 碰碰胡 2, more than the 4 of a 腊子
    assert result["raw"] == 58 * 16
    assert result["capped"] is True


def test_worked_example_itemises_every_hu_and_tai_the_seed_lists():
    hu = [(i["item"], i["hu"]) for i in describe(WORKED)["items"] if "hu" in i]
    tai = [(i["item"], i["tai"]) for i in describe(WORKED)["items"] if "tai" in i]
    assert ("底胡", 20) in hu and ("杠花 ×3", 12) in hu
    assert ("明刻南", 4) in hu and ("明刻发", 4) in hu
    assert ("暗坎七筒", 4) in hu and ("暗坎九万", 8) in hu
    assert ("自摸 对倒", 2) in hu
    assert sum(h for _, h in hu) == 58
    assert sorted(tai) == sorted([("杠花 ×3", 3), ("三个发", 1), ("碰碰胡", 2)])


def test_worked_example_uses_the_wildcard_in_a_concealed_pung_of_simples():
    melds = describe(WORKED)["melds"]
    wild = [m for m in melds if m["wild"]]
    assert len(wild) == 1 and wild[0]["type"] == "pung" and not wild[0]["exposed"]


def test_worked_example_is_capped_at_300_in_the_neighbouring_counties():
    assert describe(WORKED, preset="yuhuan_cap300")["total"] == 300


@pytest.mark.parametrize(
    ("raw", "rounded"),
    [
        pytest.param(256, 260, id="256 胡 is 260"),
        pytest.param(72, 80, id="72 胡 is 80"),
        pytest.param(80, 80, id="80 胡 stays 80"),
        pytest.param(4, 10, id="4 胡 is 10"),
        pytest.param(62, 70, id="62 胡 is 70"),
        pytest.param(69, 70, id="69 胡 is 70"),
    ],
)
def test_totals_round_up_to_the_next_ten(raw, rounded):
    assert round_up(raw, 10) == rounded


def test_totals_above_400_are_capped():
    assert total_of(58, 4, YuhuanOptions()) == 400
    assert total_of(20, 4, YuhuanOptions()) == 320


@pytest.mark.parametrize(
    ("record", "hu", "tai", "total", "wait"),
    [
        pytest.param(
            hand(PINGHU, win="4s", wildcard="9s", self_drawn=False),
            20,
            2,
            80,
            "两面",
            id="平胡 on a discard: 20 胡, 平胡 and 没有财神",
        ),
        pytest.param(
            hand(PINGHU, win="4s", wildcard="9s"),
            22,
            2,
            90,
            "两面",
            id="平胡 self-drawn: 自摸 2 胡, 88 is 90",
        ),
        pytest.param(
            hand(PINGHU, win="9p", wildcard="9s", self_drawn=False),
            20,
            2,
            80,
            "两面",
            id="9 of 789 is two-sided, not 靠壁",
        ),
        pytest.param(
            hand(PINGHU, win="5m", wildcard="9s", self_drawn=False),
            22,
            1,
            50,
            "坎档",
            id="坎档 on a discard: 2 胡, no 平胡",
        ),
        pytest.param(
            hand(PINGHU, win="3m", wildcard="9s", self_drawn=False),
            22,
            1,
            50,
            "靠壁",
            id="靠壁 3 of 123 on a discard: 2 胡",
        ),
        pytest.param(
            hand(PINGHU, win="7p", wildcard="9s", self_drawn=False),
            22,
            1,
            50,
            "靠壁",
            id="靠壁 7 of 789 on a discard: 2 胡",
        ),
        pytest.param(
            hand(PINGHU, win="5p", wildcard="9s"),
            24,
            1,
            50,
            "对子",
            id="pair wait self-drawn: 4 胡",
        ),
        pytest.param(
            hand("23m456m789p234s678s55p9s", win="4s", wildcard="9s", self_drawn=False),
            20,
            1,
            40,
            "两面",
            id="one 財神: no 台 for it",
        ),
        pytest.param(
            hand("23m456m789p234s67s55p9s9s", win="4s", wildcard="9s", self_drawn=False),
            20,
            2,
            80,
            "两面",
            id="two 財神: one 台",
        ),
        pytest.param(
            hand("23m456m78p234s67s55p9s9s9s", win="4s", wildcard="9s", self_drawn=False),
            20,
            4,
            320,
            "两面",
            id="three 財神: four 台, the 腊子",
        ),
        pytest.param(
            hand(
                "222m777s33m",
                meld("pung", "111m", "b"),
                meld("kong", "5555s", "c"),
                meld("concealed_kong", "9999p"),
                win="7s",
                wildcard="1z",
            ),
            74,
            3,
            400,
            "对倒",
            id="碰 一九 4, 明杠 simple 8, 暗杠 一九 32, 暗坎 simple 4 each, 碰碰胡",
        ),
        pytest.param(
            hand(
                "222m777s33m",
                meld("pung", "111m", "b"),
                meld("kong", "5555s", "c"),
                meld("concealed_kong", "9999p"),
                win="7s",
                wildcard="1z",
                self_drawn=False,
            ),
            70,
            3,
            400,
            "对倒",
            id="a pung completed by the winning discard is 明刻 2, and the wait gives nothing",
        ),
        pytest.param(
            hand(
                "123m456m78m111z77z9s",
                meld("pung", "666z", "c"),
                win="5m",
                wildcard="9s",
                wind="3z",
                self_drawn=False,
            ),
            36,
            3,
            290,
            "坎档",
            id="混一色 with a 发 pung, a 中 pair 2 胡 and a 东 暗坎 8",
        ),
        pytest.param(
            hand("111p234p456p789p99p55p1s", win="2p", wildcard="1s"),
            44,
            3,
            360,
            "坎档",
            id="清一色: the best split puts the 財神 in 一筒 and the winning 二筒 in a 坎档",
        ),
    ],
)
def test_seed_scoring_lines_give_the_expected_hu_tai_and_total(record, hu, tai, total, wait):
    result = describe(record)
    assert (result["hu"], result["tai"], result["total"], result["wait"]) == (hu, tai, total, wait)


def test_the_seat_wind_pung_is_a_tai_and_another_wind_is_not():
    east = describe(
        hand("123m456m789m111z55p", meld("pung", "999s", "b"), win="5m", wildcard="9s", wind="1z")
    )
    west = describe(
        hand("123m456m789m111z55p", meld("pung", "999s", "b"), win="5m", wildcard="9s", wind="3z")
    )
    assert items(east)["门风刻"] == 1 and "门风刻" not in items(west)
    assert east["tai_raw"] == west["tai_raw"] + 1


def test_kong_flower_and_robbed_kong_are_a_tai_each():
    plain = describe(hand("23m456m789p234s678s55p9s", win="4s", wildcard="9s", flowers="5z"))
    flower = describe(
        hand("23m456m789p234s678s55p9s", win="4s", wildcard="9s", flowers="5z", kong_flower=True)
    )
    robbed = describe(
        hand(
            "23m456m789p234s678s55p9s", win="4s", wildcard="9s", self_drawn=False, robbed_kong=True
        )
    )
    assert flower["tai_raw"] == plain["tai_raw"] + 1 and items(flower)["杠上开花"] == 1
    assert items(robbed)["拉杠"] == 1


def test_when_the_white_dragon_is_the_wildcard_the_red_dragon_is_the_flower():
    result = describe(hand("23m456m789p234s678s55p5z", win="4s", wildcard="5z", flowers="77z"))
    assert result["flower"] == "7z" and result["wildcards_held"] == 1
    assert items(result)["杠花 ×2"] == 2 * 4 + 2


def test_the_platform_preset_scores_a_full_flush_as_four_and_three_wildcards_as_the_cap():
    flush = hand("111p234p456p789p99p55p1s", win="2p", wildcard="1s")
    assert describe(flush, preset="yuhuan_platform")["tai"] == 4
    three = hand("23m456m78p234s67s55p9s9s9s", win="4s", wildcard="9s", self_drawn=False)
    assert describe(three, preset="yuhuan_platform")["total"] == 400


def test_four_wind_pungs_score_the_cap():
    result = describe(
        hand("111z222z333z444z123m55p", win="5p", wildcard="9s", wind="2z", self_drawn=False),
        max_tai=0,
    )
    assert result["total"] == 400
