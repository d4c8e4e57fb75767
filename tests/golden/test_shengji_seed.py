"""升级: seed 003 (主牌, 分牌) and issue 6's level table and kitty rule as golden tables."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from compliance.games.cards import build_deck
from compliance.games.shengji import GAME, level_change, tricks
from tests.builders_guandan import session_of, shengji_scripted


@pytest.mark.parametrize(
    ("points", "side", "levels"),
    [
        pytest.param(0, "holders", 3, id="0: holders +3"),
        pytest.param(5, "holders", 2, id="5: holders +2"),
        pytest.param(35, "holders", 2, id="35: holders +2"),
        pytest.param(40, "holders", 1, id="40: holders +1"),
        pytest.param(75, "holders", 1, id="75: holders +1"),
        pytest.param(80, "attackers", 0, id="80: attackers take over"),
        pytest.param(115, "attackers", 0, id="115: attackers take over"),
        pytest.param(120, "attackers", 1, id="120: attackers +1"),
        pytest.param(155, "attackers", 1, id="155: attackers +1"),
        pytest.param(160, "attackers", 2, id="160: attackers +2"),
        pytest.param(200, "attackers", 3, id="200: attackers +3"),
        pytest.param(240, "attackers", 4, id="240: +1 per further 40"),
    ],
)
def test_the_level_change_follows_the_attackers_points(points, side, levels):
    assert level_change(points) == (side, levels)


def test_two_decks_hold_200_points():
    assert tricks.points(build_deck(2, jokers=True)) == 200


@pytest.mark.parametrize(
    ("cards", "level", "trump", "shape", "suit"),
    [
        pytest.param("SA", "2", "H", "single", "S", id="a side-suit single"),
        pytest.param("S2", "2", "H", "single", "trump", id="a level card is trump"),
        pytest.param("RJ", "2", "NT", "single", "trump", id="jokers are trump in 无主"),
        pytest.param("HK HK", "2", "H", "pair", "trump", id="a trump-suit pair"),
        pytest.param("S7 S7 S8 S8", "2", "H", "tractor", "S", id="拖拉机 of two pairs"),
        pytest.param(
            "S6 S6 S8 S8", "7", "H", "tractor", "S", id="the level rank drops out of the run"
        ),
        pytest.param(
            "HA HA C2 C2", "2", "H", "tractor", "trump", id="trump A pair to off-suit level pair"
        ),
        pytest.param(
            "C2 C2 H2 H2", "2", "H", "tractor", "trump", id="off-suit level pair to trump level"
        ),
        pytest.param(
            "H2 H2 BJ BJ", "2", "H", "tractor", "trump", id="trump level pair to small jokers"
        ),
        pytest.param(
            "C2 C2 D2 D2", "2", "H", "throw", "trump", id="two off-suit level pairs are equal"
        ),
        pytest.param(
            "C2 D2", "2", "H", "throw", "trump", id="two different level cards are no pair"
        ),
        pytest.param("SA SK", "2", "H", "throw", "S", id="two singles are a throw"),
        pytest.param("SA HA", "2", "NT", "mixed", None, id="two suits are no lead"),
    ],
)
def test_leads_are_recognised_with_trumps_and_level(cards, level, trump, shape, suit):
    described = GAME.describe({"cards": cards.split(), "level": level, "trump": trump})
    assert (described["shape"], described["suit"]) == (shape, suit)


def test_seed_point_cards_count_5_10_and_10():
    assert GAME.describe(["S5", "H10", "CK", "DQ"])["points"] == 25


def test_attackers_at_80_with_the_kitty_doubled_take_the_bank():
    """20 points in the last trick plus the 30-point kitty × 2 (a single) = 80."""
    first = shengji_scripted("H10")
    second = {**shengji_scripted("H10"), "declarer": "b", "tricks": [], "points": 0}
    second["claimed"] = {"a": -3, "b": 3, "c": -3, "d": 3}
    results = list(GAME.replay(session_of("shengji", [first, second])))
    assert results[0].deltas == {"a": 0, "b": 0, "c": 0, "d": 0}
    assert results[0].issues == []
    assert [i.check for i in results[1].issues] == ["unverifiable"]


def test_the_old_holders_may_not_declare_after_losing_the_bank():
    first = shengji_scripted("H10")
    second = {**shengji_scripted("H10"), "tricks": [], "points": 0}
    second["claimed"] = {"a": 3, "b": -3, "c": 3, "d": -3}
    issues = list(GAME.replay(session_of("shengji", [first, second])))[1].issues
    assert [i.check for i in issues] == ["wrong_banker", "unverifiable"]


def test_75_points_give_the_holders_one_level():
    """15 points in the last trick plus the doubled 30-point kitty = 75."""
    hand = shengji_scripted("H5")
    hand["claimed"] = {"a": 10, "b": -10, "c": 10, "d": -10}
    (result,) = GAME.replay(session_of("shengji", [hand], stake_per_level=10))
    assert result.deltas == hand["claimed"] and result.issues == []


@pytest.mark.parametrize(
    ("lead", "rule", "multiplier"),
    [
        pytest.param("SA", "double_unit", 2, id="single: 2 × 1"),
        pytest.param("SA SA", "double_unit", 4, id="pair: 2 × 2"),
        pytest.param("SK SK SA SA", "double_unit", 8, id="two-pair tractor: 2 × 4"),
        pytest.param("SK SK SA SA", "power", 16, id="two-pair tractor, power variant: 2^4"),
        pytest.param("SA SK", "double_unit", 2, id="a throw of singles: 2 × 1"),
    ],
)
def test_the_kitty_multiplier_follows_the_largest_unit_of_the_last_trick(lead, rule, multiplier):
    shape = tricks.shape(lead.split(), tricks.Trumps("2", "H"))
    assert tricks.kitty_multiplier(shape, rule) == multiplier


@pytest.mark.parametrize(
    ("lead", "follow", "hand", "problem"),
    [
        pytest.param("SA", "H3", "H3 S4", "must follow suit", id="a revoke"),
        pytest.param("S9 S9", "S3 S4", "S3 S4 S5 S5", "pairs", id="a pair not followed by a pair"),
        pytest.param(
            "S9 S9 S10 S10",
            "S3 S3 S5 S5",
            "S3 S3 S5 S5 S6 S6 S7 S7",
            "tractor",
            id="a tractor withheld",
        ),
        pytest.param("SA", "S3 S4", "S3 S4", "cards to a lead", id="the wrong count"),
    ],
)
def test_following_breaches_are_named(lead, follow, hand, problem):
    trumps = tricks.Trumps("2", "H")
    shape = tricks.shape(lead.split(), trumps)
    found = tricks.follow_problem(shape, Counter(hand.split()), follow.split(), trumps, True)
    assert found is not None and problem in found


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        pytest.param(["SA", "SK", "H3", "S4"], 2, id="a trump ruff takes a side-suit single"),
        pytest.param(["SA", "SK", "H3", "BJ"], 3, id="a higher trump over-ruffs"),
        pytest.param(["SK", "SA", "SA", "S4"], 1, id="the first of two equal cards wins"),
        pytest.param(["S9 S9", "SA SK", "S3 S3", "H4 H5"], 0, id="two singles do not beat a pair"),
        pytest.param(["S9 S9", "SA SA", "S3 S3", "H4 H5"], 1, id="a higher pair beats a pair"),
        pytest.param(["S9 S9", "H4 H4", "H3 H3", "C4 C4"], 1, id="a trump pair ruffs a pair"),
        pytest.param(
            ["C2", "D2", "H2", "S2"], 2, id="the trump-suit level card over other level cards"
        ),
    ],
)
def test_the_trick_goes_to_the_rules_winner(plays, winner):
    trumps = tricks.Trumps("2", "H")
    assert tricks.trick_winner([(str(i), p.split()) for i, p in enumerate(plays)], trumps) == winner


def test_the_round_record_example_of_the_docs_breaks_no_rule_and_is_unverified():
    text = (Path(__file__).parents[2] / "docs/games/shengji.md").read_text(encoding="utf-8")
    example = text.split("## Round record", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    (result,) = GAME.replay(session_of("shengji", [json.loads(example)]))
    assert [i.check for i in result.issues] == ["unverifiable"] and result.deltas == {
        "a": 0,
        "b": 0,
        "c": 0,
        "d": 0,
    }
