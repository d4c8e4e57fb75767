"""扯旋 golden cases: seed 001's worked examples, names and ladder, as tables."""

from __future__ import annotations

import pytest

from compliance.games.chexuan import GAME, ChexuanOptions
from compliance.games.chexuan.hands import deck
from compliance.games.chexuan.settle import Contender, outcome
from tests.builders_chexuan import act, round_of, seat, session_of

RANKING = ChexuanOptions().ranking()


def settle(rnd: dict, **options) -> dict[str, int]:
    [result] = GAME.replay(session_of([rnd], **options))
    assert [i.check for i in result.issues if i.check != "settlement_mismatch"] == []
    return result.deltas


# 示例: a、b、c; a 和 b 平局 (a head 天牌 > b head 人牌, a tail 6 < b tail 7); c 最小, tail 2.
A = "HQ DQ H4 H2", "HQ DQ"
B = "H8 D8 S5 D2", "H8 D8"
C = "S10 C10 C7 C5", "S10 C10"


@pytest.mark.parametrize(
    ("c_cap", "expected"),
    [
        pytest.param(100, {"a": 0, "b": 100, "c": -100}, id="all-knock-100-b-wins-100"),
        pytest.param(150, {"a": 50, "b": 100, "c": -150}, id="c-with-150-a-takes-the-remaining-50"),
    ],
)
def test_the_strongest_tail_takes_first_and_a_loser_cannot_pay_twice(c_cap, expected):
    rnd = round_of(
        "c",
        seat("a", A[0], 100, A[1]),
        seat("b", B[0], 100, B[1]),
        seat("c", C[0], c_cap, C[1]),
        betting=[[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", c_cap)], [], []],
    )
    assert settle(rnd) == expected


def test_the_example_hands_are_what_the_seed_says():
    a, b, c = (RANKING.four(h.split()) for h in (A[0], B[0], C[0]))
    tails = [
        RANKING.split(h[1].split(), [x for x in h[0].split() if x not in h[1].split()]).tail.name
        for h in (A, B, C)
    ]
    assert tails == ["6点", "7点", "2点"]
    assert (a.special, b.special, c.special) == (None, None, None)


@pytest.mark.parametrize(
    ("share", "caps", "expected"),
    [
        pytest.param(
            "equal", (100, 100, 150), {"a": 75, "b": 75, "c": -150}, id="equal-tails-share-equally"
        ),
        pytest.param(
            "equal", (100, 50, 90), {"a": 45, "b": 45, "c": -90}, id="equal-shares-under-both-caps"
        ),
        pytest.param(
            "stake", (100, 50, 90), {"a": 60, "b": 30, "c": -90}, id="option-shares-by-stake"
        ),
    ],
)
def test_tied_winners_share_what_the_loser_put_in(share, caps, expected):
    # a and b hold the same 天杠 head and the same 7-point tail (地 + 黑五); c is smaller in both.
    rnd = round_of(
        "c",
        seat("a", "HQ S8 H2 S5", caps[0], "HQ S8"),
        seat("b", "DQ C8 D2 C5", caps[1], "DQ C8"),
        seat("c", "S9 H10 S6 H4", caps[2], "S9 H10"),
        betting=[
            [act("a", "敲", caps[0]), act("b", "敲", caps[1]), act("c", "敲", caps[2])],
            [],
            [],
        ],
    )
    assert settle(rnd, tie_share=share) == expected


def test_a_50_beats_b_200_beats_c_150_a_wins_50_from_each_and_b_100_from_c():
    rnd = round_of(
        "c",
        seat("a", "HQ DQ H3 S6", 50, "HQ DQ"),
        seat("b", "H2 D2 H8 S10", 200, "H2 D2"),
        seat("c", "H4 D4 D8 S9", 150, "H4 D4"),
        betting=[[act("a", "敲", 50), act("b", "敲", 200), act("c", "敲", 150)], [], []],
    )
    assert settle(rnd) == {"a": 100, "b": 50, "c": -150}


def contender(player: str, cards: str, head: str) -> Contender:
    split = RANKING.split(head.split(), [c for c in cards.split() if c not in head.split()])
    return Contender(player, 0, split.head.strength, split.tail.strength)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param(
            ("HQ S8 S4 S5", "HQ S8"), ("H2 C8 H4 C4", "H2 C8"), 1, id="例1-天杠-9-beats-地杠-8"
        ),
        pytest.param(
            ("H2 D2 S7 H8", "H2 H8"), ("HQ C7 S8 SJ", "HQ S8"), 0, id="例2-地杠-9-draws-天杠-8"
        ),
        pytest.param(
            ("H2 D2 S7 H8", "H2 H8"), ("HQ C7 S8 SJ", "HQ C7"), 1, id="例2-地杠-9-beats-9-9"
        ),
    ],
)
def test_the_seed_split_comparisons(a, b, expected):
    assert outcome(contender("a", *a), contender("b", *b)) == expected


@pytest.mark.parametrize(
    ("cards", "splits"),
    [
        pytest.param(
            "HQ S8 S4 S5", {("天杠", "板五九"), ("6点", "3点"), ("7点", "2点")}, id="例1-a"
        ),
        pytest.param("H2 D2 S7 H8", {("地杠", "地关九"), ("地牌", "5点")}, id="例2-a"),
        pytest.param(
            "HQ C7 S8 SJ", {("天杠", "8点"), ("天关九", "乌龙九"), ("5点", "3点")}, id="例2-b"
        ),
    ],
)
def test_eval_lists_every_split_with_both_names(cards, splits):
    described = GAME.describe(cards.split())
    assert len(described["splits"]) == 3
    assert {(s["head"]["name"], s["tail"]["name"]) for s in described["splits"]} == splits
    for s in described["splits"]:
        assert s["head"]["strength"] >= s["tail"]["strength"]


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        pytest.param("H3 RJ", "丁皇", id="丁皇"),
        pytest.param("HQ DQ", "天牌", id="天牌"),
        pytest.param("HQ S9", "奶狗", id="奶狗"),
        pytest.param("HQ D8", "天杠", id="天杠"),
        pytest.param("D2 C8", "地杠", id="地杠"),
        pytest.param("HQ C7", "天关九", id="天关九"),
        pytest.param("H2 H7", "地关九", id="地关九"),
        pytest.param("H8 SJ", "灯笼九", id="人牌九-红缨枪"),
        pytest.param("H4 S5", "和五九", id="和五九"),
        pytest.param("S4 C5", "板五九", id="长二九"),
        pytest.param("C8 CJ", "乌龙九", id="虎头九"),
        pytest.param("S4 H6", "0点", id="4+6-is-0"),
        pytest.param("H3 D7", "0点", id="3+7-is-0"),
        pytest.param("SJ S9", "0点", id="J+9-is-0"),
        pytest.param("HQ S6", "8点", id="红Q+黑6-is-8"),
        pytest.param("S5 H4", "和五九", id="黑5+红4-is-9"),
    ],
)
def test_two_card_names(cards, name):
    assert RANKING.two(*cards.split()).name == name


LADDER = [
    "H3 RJ",
    "HQ DQ",
    "H2 D2",
    "H8 D8",
    "H4 D4",
    "S10 C10",
    "SJ CJ",
    "S9 C9",
    "HQ S9",
    "HQ S8",
    "H2 S8",
    "HQ S7",
    "H2 S7",
    "H8 SJ",
    "H4 S5",
    "S4 S5",
    "H3 H6",
    "HQ S6",
]


def test_the_ladder_runs_from_丁皇_down_to_points():
    strengths = [RANKING.two(*c.split()).strength for c in LADDER]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


@pytest.mark.parametrize(
    "group",
    [
        pytest.param(["S10 C10", "S4 C4", "S6 C6"], id="梅十=板凳=长三"),
        pytest.param(["SJ CJ", "H10 D10", "H6 D6", "H7 D7"], id="虎头=苕十=猫猫=膏药"),
        pytest.param(["S4 S5", "H3 S6", "S10 S9"], id="板五九=丁长九=梅十九"),
        pytest.param(["H3 H6", "SJ S8", "H10 S9"], id="丁猫九=乌龙九=苕十九"),
    ],
)
def test_the_seed_groups_are_equal_and_the_strict_ladder_orders_them(group):
    strict = ChexuanOptions(strict_ladder=True).ranking()
    assert len({RANKING.two(*c.split()).strength for c in group}) == 1
    strengths = [strict.two(*c.split()).strength for c in group]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(group)


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        pytest.param("HQ S5", "H2 S5", id="红Q-beats-红2-at-7"),
        pytest.param("H2 S5", "H8 C9", id="红2-beats-红8-at-7"),
        pytest.param("H8 S9", "H4 H3", id="红8-beats-红4-at-7"),
        pytest.param("H4 H3", "S10 S7", id="红4-beats-黑10-at-7"),
        pytest.param("S10 S7", "H10 C7", id="黑10-beats-红10-at-7"),
        pytest.param("H10 S7", "S9 S8", id="红10-beats-黑9-at-7"),
    ],
)
def test_equal_points_go_by_the_single_card_order(higher, lower):
    hi, lo = RANKING.two(*higher.split()), RANKING.two(*lower.split())
    assert hi.name == lo.name and hi.strength > lo.strength


@pytest.mark.parametrize(
    ("cards", "special"),
    [
        pytest.param("H3 RJ HQ DQ", "天皇", id="丁二皇+天对"),
        pytest.param("H3 RJ H2 D2", "地皇", id="丁二皇+地对"),
        pytest.param("HQ DQ H2 D2", "天地公子", id="天地公子"),
        pytest.param("H8 D8 S9 C9", "朵朵", id="朵朵-红8对+黑9对"),
        pytest.param("HQ S9 S5 C5", "王对", id="王对"),
        pytest.param("HQ D8 S5 C5", "杠对", id="杠对-天"),
        pytest.param("H2 C8 S5 C5", "杠对", id="杠对-地"),
        pytest.param("HQ H7 S5 C5", "9对", id="9对"),
        pytest.param("HQ S5 C5 S9", "王对", id="王对-any-order"),
        pytest.param("HQ S8 S4 S5", None, id="no-special"),
    ],
)
def test_four_card_specials(cards, special):
    assert RANKING.four(cards.split()).special == special


@pytest.mark.parametrize(
    ("cards", "sanhua"),
    [
        pytest.param("S10 H10 SJ HQ", "三花十", id="三花十"),
        pytest.param("C6 D6 RJ S5", "三花六", id="三花六"),
        pytest.param("S10 H10 H6 S5", None, id="not-三花"),
    ],
)
def test_三花_hands(cards, sanhua):
    assert RANKING.four(cards.split()).sanhua == sanhua


def test_the_deck_is_the_seeds_32_cards():
    cards = deck()
    assert len(cards) == 32 and len(set(cards)) == 32
    assert "H3" in cards and "RJ" in cards and "D3" not in cards
    assert "D3" in deck("D3") and "H3" not in deck("D3")
    for kind in (
        "HQ",
        "DQ",
        "H2",
        "D2",
        "H8",
        "D8",
        "H4",
        "D4",
        "S10",
        "C10",
        "S4",
        "C4",
        "S6",
        "C6",
        "SJ",
        "CJ",
        "H10",
        "D10",
        "H6",
        "D6",
        "H7",
        "D7",
        "S5",
        "C5",
        "S7",
        "C7",
        "S8",
        "C8",
        "S9",
        "C9",
    ):
        assert kind in cards
