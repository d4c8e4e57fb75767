"""斗牛: seed 000's calcCow examples and seed 004's ranking as golden tables, and the whole deck."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb

import pytest

from compliance.games.cards import RANKS, STANDARD_52
from compliance.games.douniu import GAME, PRESETS, hands
from compliance.logs.records import Variant
from tests.builders_douniu import round_of, seat, session_of


def level(cards: str) -> str:
    return hands.RANK_CODES[hands.level_of(hands.score(cards.split()))]


def beats(stronger: str, weaker: str) -> bool:
    return hands.score(stronger.split()) > hands.score(weaker.split())


@pytest.mark.parametrize(
    ("cards", "rank"),
    [
        pytest.param("SA H2 C3 D4 S5", "bull_5", id="calcCow 1 2 3 4 5 is 牛5"),
        pytest.param("S10 HJ CQ D9 S8", "bull_7", id="calcCow 10 11 12 9 8 is 牛7"),
    ],
)
def test_seed_000_worked_examples_give_the_seed_result(cards, rank):
    assert level(cards) == rank


@pytest.mark.parametrize(
    ("cards", "rank", "name_zh"),
    [
        pytest.param("SA HA C2 D5 S9", "no_bull", "没牛", id="no three make ten: 没牛"),
        pytest.param("SK HQ CJ DA S10", "bull_1", "牛丁", id="J Q K make 30, A 10 leave 1: 牛丁"),
        pytest.param("S3 H7 CK D2 SQ", "bull_2", "牛二", id="3 7 K, then 2 Q: 牛二"),
        pytest.param("SA H9 C10 D5 S8", "bull_3", "牛三", id="A 9 10, then 5 8 is 13: 牛三"),
        pytest.param("S2 H3 C5 D4 S10", "bull_4", "牛四", id="2 3 5, then 4 10: 牛四"),
        pytest.param("SA H2 C3 D4 S5", "bull_5", "牛五", id="A 4 5, then 2 3: 牛五"),
        pytest.param("S4 H6 CJ D9 S7", "bull_6", "牛六", id="4 6 J, then 9 7: 牛六"),
        pytest.param("S10 HJ CQ D9 S8", "bull_7", "牛七", id="10 J Q, then 9 8: 牛七"),
        pytest.param("S5 H5 CK D3 C5", "bull_8", "牛八", id="5 5 K, then 3 5: 牛八"),
        pytest.param("SQ HK CJ D4 S5", "bull_9", "牛九", id="J Q K, then 4 5: 牛九"),
        pytest.param("SK H5 C5 D3 S7", "bull_bull", "牛牛", id="5 5 K, then 3 7 is 10: 牛牛"),
        pytest.param("S4 H4 C4 D4 SK", "four_bomb", "四炸", id="four 4s need no bull: 四炸"),
        pytest.param(
            "S10 H10 C10 D10 SK", "four_bomb", "四炸", id="four 10s and K: 四炸, 10 is no face"
        ),
        pytest.param("SJ HQ CK DJ SQ", "five_face", "五花牛", id="all J Q K: 五花牛"),
        pytest.param(
            "SK HK CK DK SQ", "five_face", "五花牛", id="four K and Q: the larger, 五花牛"
        ),
    ],
)
def test_each_rank_of_seed_004_is_recognised(cards, rank, name_zh):
    described = GAME.describe(cards.split())
    assert (described["rank"], described["name_zh"]) == (rank, name_zh)
    assert hands.reference_level(cards.split()) == hands.LEVEL_OF_CODE[rank]


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        pytest.param("SK H2 C4 D5 SA", "SA HA C2 D5 S9", id="any bull beats 没牛"),
        pytest.param("SA H2 C3 D4 S5", "S2 H3 C5 D4 S10", id="牛五 beats 牛四"),
        pytest.param("SK H5 C5 D3 S7", "SQ HK CJ D4 S5", id="牛牛 beats 牛九"),
        pytest.param("S4 H4 C4 D4 S2", "SK H5 C5 D3 S7", id="四炸 beats 牛牛"),
        pytest.param("SJ HQ CK DJ SQ", "SA HA CA DA S2", id="五花牛 beats 四炸"),
        pytest.param("SK CK S5 DA SA", "SQ SJ D3 S3 H9", id="没牛: K beats Q"),
        pytest.param("SJ C4 C9 D2 D10", "H10 S2 C7 D10 S9", id="没牛: J beats 10, both count 10"),
        pytest.param("S9 S2 CA D5 C8", "D9 D8 H6 CA D4", id="没牛: highest 9s, 黑桃 beats 方片"),
        pytest.param("H9 S7 H6 C2 C3", "C9 S3 H5 D3 C3", id="没牛: highest 9s, 红桃 beats 梅花"),
        pytest.param(
            "S5 H5 C5 D5 S2", "S4 H4 C4 D4 SK", id="四炸 by the four: 5555 beats 4444 with K"
        ),
        pytest.param("SK HJ CQ DJ SQ", "HK CJ DQ HJ CQ", id="五花牛: highest K, 黑桃 beats 红桃"),
        pytest.param(
            "SK D4 H2 CQ C4", "HK C10 HA H9 CK", id="牛牛 against 牛牛: 黑桃K beats 红桃K"
        ),
    ],
)
def test_seed_004_order_and_tie_breaks(stronger, weaker):
    assert beats(stronger, weaker)
    assert hands.reference_score(stronger.split()) > hands.reference_score(weaker.split())


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        pytest.param("classic", {"bull_bull": 3, "bull_9": 2, "bull_8": 2, "bull_7": 1, "no_bull": 1, "four_bomb": 4, "five_face": 5}, id="classic"),
        pytest.param("steep", {"bull_bull": 4, "bull_9": 3, "bull_8": 2, "bull_7": 2, "bull_6": 1, "four_bomb": 5, "five_face": 6}, id="steep"),
        pytest.param("linear", {"no_bull": 1, "bull_1": 1, "bull_5": 5, "bull_9": 9, "bull_bull": 10, "four_bomb": 10, "five_face": 10}, id="linear"),
    ],
)  # fmt: skip
def test_payout_presets_give_their_multipliers(preset, expected):
    from compliance.games.douniu import options_for
    from compliance.logs.records import Variant

    assert preset in PRESETS
    options = options_for(Variant(preset=preset))
    assert {code: getattr(options, code) for code in expected} == expected


def calc_cow(nums: list[int]) -> int:
    """Seed 000's calcCow, line for line: 0 没牛, 10 牛牛, else the bull."""
    lave = sum(10 if n > 10 else n for n in nums) % 10
    for i in range(4):
        for j in range(i + 1, 5):
            a, b = min(nums[i], 10), min(nums[j], 10)
            if (a + b) % 10 == lave:
                return 10 if lave == 0 else lave
    return 0


def test_reference_agrees_with_seed_000_calccow_on_every_rank_multiset():
    checked = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        cards = [
            "SHCD"[sum(1 for r in ranks[:i] if r == rank)] + RANKS[rank - 1]
            for i, rank in enumerate(ranks)
        ]
        got = hands.reference_level(cards)
        if got < hands.FOUR_BOMB:
            assert got == calc_cow(list(ranks)), cards
        checked += 1
    assert checked == len(hands.SCORE_BASE) == 6175


def test_the_lookup_table_is_the_reference_evaluators_multiset_by_multiset():
    assert hands.reference_table() == hands.SCORE_BASE


WHOLE_DECK = {
    "no_bull": 871_744,
    "bull_1": 171_288,
    "bull_2": 168_072,
    "bull_3": 171_288,
    "bull_4": 168_072,
    "bull_5": 177_408,
    "bull_6": 168_072,
    "bull_7": 171_288,
    "bull_8": 168_072,
    "bull_9": 171_288,
    "bull_bull": 190_976,
    "four_bomb": 600,
    "five_face": 792,
}


@pytest.mark.slow
def test_whole_deck_counts_match_and_the_table_agrees_with_the_reference_on_every_hand():
    score, reference = hands.score, hands.reference_score
    counts: Counter[int] = Counter()
    disagreements = []
    for cards in combinations(STANDARD_52, 5):
        fast = score(cards)
        counts[fast >> hands.LEVEL_SHIFT] += 1
        if fast != reference(cards):
            disagreements.append(cards)
    assert not disagreements[:5]
    assert {hands.RANK_CODES[lv]: n for lv, n in counts.items()} == WHOLE_DECK
    assert sum(counts.values()) == 2_598_960


@pytest.mark.parametrize(
    ("cards", "card_max", "rank"),
    [
        # 五小牛 (house rule): each card ≤ card_max (A = 1), the five summing to ≤ 10; no such
        # hand has a bull (three making 10 would leave the other two nothing), so the seed
        # reads each as 没牛 or 四炸
        pytest.param("SA HA C2 D2 S4", 4, "five_small", id="1+1+2+2+4 = 10, all ≤ 4: 五小牛"),
        pytest.param("SA HA C2 D2 S4", 0, "no_bull", id="the seed: 1+1+2+2+4 is 没牛"),
        pytest.param("SA HA CA DA S2", 4, "five_small", id="A A A A 2 = 6: 五小牛, not 四炸"),
        pytest.param("SA HA CA DA S2", 0, "four_bomb", id="the seed: A A A A 2 is 四炸"),
        pytest.param("SA HA C2 D3 S4", 4, "no_bull", id="1+1+2+3+4 = 11 > 10: 没牛"),
        pytest.param("SA HA CA D2 S5", 4, "no_bull", id="1+1+1+2+5 = 10 but a 5, max 4: 没牛"),
        pytest.param("SA HA CA D2 S5", 5, "five_small", id="1+1+1+2+5 = 10, max 5: 五小牛"),
        pytest.param("SA HA C2 D2 S5", 5, "no_bull", id="1+1+2+2+5 = 11 > 10, max 5: 没牛"),
    ],
)
def test_five_small_bull_is_a_house_rule_above_every_hand(cards, card_max, rank):
    got = hands.level_of(hands.score(cards.split(), card_max))
    assert hands.RANK_CODES[got] == rank
    assert hands.reference_level(cards.split(), card_max) == hands.LEVEL_OF_CODE[rank]


@pytest.mark.parametrize(
    ("preset", "multiplier"),
    [
        pytest.param("classic", 6, id="classic: 五小牛 6 (五花牛 5)"),
        pytest.param("steep", 8, id="steep: 五小牛 8 (五花牛 6)"),
        pytest.param("linear", 10, id="linear: 五小牛 10 (五花牛 10)"),
    ],
)
def test_five_small_bull_beats_five_face_and_four_bomb_and_pays_its_multiplier(preset, multiplier):
    # banker p1 holds 五花牛; p2 A A A A 2 (四炸, or 五小牛); p3 四炸 of K; base 10, bet 1
    five_face = GAME.options_for(Variant(preset=preset)).five_face
    rounds = [
        round_of(
            "p1",
            seat("p1", "SJ HJ CQ DQ SK"),
            seat("p2", "SA HA CA DA S2", bet=1),
            seat("p3", "HK CK DK S3 H3", bet=1),
        )
    ]
    [seed] = GAME.replay(session_of(rounds, preset=preset))
    [house] = GAME.replay(session_of(rounds, preset=preset, five_small_max=4))
    assert seed.deltas == {"p1": 20 * five_face, "p2": -10 * five_face, "p3": -10 * five_face}
    assert house.deltas == {
        "p1": 10 * five_face - 10 * multiplier,
        "p2": 10 * multiplier,
        "p3": -10 * five_face,
    }
    off = GAME.describe(["SA", "HA", "CA", "DA", "S2"], Variant(preset=preset))
    assert (off["rank"], off["name_zh"]) == ("four_bomb", "四炸")
    on = GAME.describe(
        ["SA", "HA", "CA", "DA", "S2"], Variant(preset=preset, options={"five_small_max": 4})
    )
    assert (on["rank"], on["name_zh"], on["multiplier"]) == ("five_small", "五小牛", multiplier)


@pytest.mark.parametrize(
    ("card_max", "deals"),
    [
        pytest.param(4, 776, id="≤ 4: 776 of the 2,598,960 five-card deals"),
        pytest.param(5, 844, id="≤ 5: 68 more (A A A A 5: 4; A A A 2 5: 4 × 4 × 4)"),
    ],
)
def test_five_small_bull_counts_over_the_whole_deck(card_max, deals):
    found = 0
    for key, base in hands.score_table(card_max).items():
        if base >> hands.LEVEL_SHIFT == hands.FIVE_SMALL:
            counts = Counter(r for r in range(1, 14) for _ in range((key >> 3 * (r - 1)) & 7))
            ways = 1
            for n in counts.values():
                ways *= comb(4, n)
            found += ways
    assert found == deals
