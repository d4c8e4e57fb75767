"""牌九 golden cases: seed 003's card ranking as tables."""

from __future__ import annotations

import pytest

from compliance.games.paigow import GAME, deck, ranking_for

RANKING = ranking_for()


def strength(cards: str) -> int:
    return RANKING.two(*cards.split()).strength


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        pytest.param("RJ S3", "至尊宝", id="至尊宝-大王+黑3"),
        pytest.param("HQ DQ", "天牌对", id="一对红Q-天牌"),
        pytest.param("H2 D2", "地牌对", id="一对红2-地牌"),
        pytest.param("H8 D8", "人牌对", id="一对红8-人牌"),
        pytest.param("H4 D4", "和牌对", id="一对红4-和牌"),
        pytest.param("S10 C10", "长牌对·黑10", id="长牌-黑10"),
        pytest.param("SJ CJ", "短牌对·黑J", id="短牌-黑J"),
        pytest.param("S5 C5", "杂牌对·黑5", id="杂牌-黑5"),
        pytest.param("HQ S9", "水牛", id="水牛-Q+9"),
        pytest.param("DQ H8", "天罡", id="天罡-Q+8"),
        pytest.param("H2 C8", "地罡", id="地罡-2+8"),
        pytest.param("H8 S6", "人4", id="人8和长6是人4"),
        pytest.param("SJ S10", "长1", id="21点是1点"),
        pytest.param("S3 S10", "长3", id="13点是3点"),
        pytest.param("RJ S9", "杂5", id="至尊宝拆开也是杂牌"),
    ],
)
def test_card_names(cards, name):
    assert RANKING.two(*cards.split()).name == name


def test_the_ladder_runs_from_至尊宝_through_pairs_水牛_天罡_地罡_to_points():
    order = [
        "RJ S3",
        "HQ DQ",
        "H2 D2",
        "H8 D8",
        "H4 D4",
        "S10 C10",
        "H10 D10",
        "S9 C9",
        "HQ S9",
        "HQ S8",
        "H2 S8",
        "HQ S7",
        "H2 S7",
        "H8 SJ",
        "H4 S5",
        "S4 S5",
        "H10 S9",
        "HQ S6",
        "S5 S3",
    ]
    strengths = [strength(c) for c in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        pytest.param("HQ S7", "H2 S7", id="天9>地9"),
        pytest.param("H2 S7", "H8 SJ", id="地9>人9"),
        pytest.param("H8 SJ", "H4 S5", id="人9>和9"),
        pytest.param("H4 S5", "S4 S5", id="和9>长9"),
        pytest.param("S4 S5", "H10 S9", id="长9>短9"),
        pytest.param("H10 S9", "HQ S6", id="短9>天8"),
        pytest.param("HQ S6", "S5 S3", id="天8>杂8"),
    ],
)
def test_equal_points_go_by_天地人和长短杂(higher, lower):
    assert strength(higher) > strength(lower)


@pytest.mark.parametrize(
    "group",
    [
        pytest.param(["S10 C10", "S6 C6", "S4 C4"], id="三对长牌"),
        pytest.param(["H10 D10", "H7 D7", "SJ CJ", "H6 D6"], id="四对短牌"),
        pytest.param(["S9 C9", "S8 C8", "S7 C7", "S5 C5"], id="四对杂牌"),
    ],
)
def test_pair_groups_are_equal_and_the_strict_option_orders_them_as_listed(group):
    strict = ranking_for("S3", True)
    assert len({strength(c) for c in group}) == 1
    ordered = [strict.two(*c.split()).strength for c in group]
    assert ordered == sorted(ordered, reverse=True) and len(set(ordered)) == len(group)


def test_the_deck_has_a_black_3_where_扯旋_has_a_red_one():
    cards = deck()
    assert len(cards) == 32 and "S3" in cards and "H3" not in cards and "RJ" in cards
    assert "C3" in deck("C3") and "S3" not in deck("C3")


def test_eval_lists_the_three_splits_of_four_cards():
    described = GAME.describe(["HQ", "S9", "H8", "S6"])
    pairs = {(s["head"]["name"], s["tail"]["name"]) for s in described["splits"]}
    assert pairs == {("水牛", "人4"), ("天罡", "长5"), ("天8", "人7")}
