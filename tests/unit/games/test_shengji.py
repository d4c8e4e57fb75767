"""升级 engine: trick checks in a log, deal checks, levels and describe."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from compliance.errors import DealError
from compliance.games import get_game
from compliance.games.shengji import GAME, ROUND_TYPE, tricks
from compliance.games.shengji.simulator import simulate
from compliance.logs.records import Variant
from tests.builders_guandan import SEATS, session_of, shengji_scripted


def replay(rounds: list[dict], **options) -> list:
    return list(GAME.replay(session_of("shengji", rounds, **options)))


def test_the_engine_is_registered_under_its_game_code():
    assert get_game("shengji") is GAME and ROUND_TYPE.__name__ == "ShengjiHand"


def test_a_revoke_in_a_log_names_the_hand_and_the_trick():
    hand = shengji_scripted("H10")
    spade, later = hand["tricks"][12][1], hand["tricks"][20][1]
    spade["cards"], later["cards"] = later["cards"], spade["cards"]
    (result,) = replay([hand])
    (issue,) = result.issues
    assert issue.check == "illegal_action"
    assert issue.detail.startswith("hand 1: trick 13: b") and "must follow suit" in issue.detail
    assert issue.players == ("b",)


def test_plays_out_of_turn_are_flagged():
    hand = shengji_scripted("H10")
    hand["tricks"][3][1], hand["tricks"][3][2] = hand["tricks"][3][2], hand["tricks"][3][1]
    (result,) = replay([hand])
    assert "turn order" in result.issues[0].detail


def test_burying_a_card_not_held_is_flagged():
    hand = shengji_scripted("H10")
    hand["buried"] = ["HA", *hand["buried"][1:]]
    (result,) = replay([hand])
    assert "buries HA not held" in result.issues[0].detail


def test_logged_points_that_differ_from_the_tricks_are_a_mismatch():
    hand = shengji_scripted("H10")
    hand["points"] = 60
    (result,) = replay([hand])
    assert [i.check for i in result.issues] == ["settlement_mismatch"]


def test_a_hand_without_tricks_is_settled_from_its_logged_points_and_found_unverifiable():
    hand = {**shengji_scripted("H10"), "tricks": [], "points": 0}
    hand["claimed"] = {"a": 3, "b": -3, "c": 3, "d": -3}
    (result,) = replay([hand])
    assert result.deltas == hand["claimed"]
    (issue,) = result.issues
    assert (issue.check, issue.round) == ("unverifiable", 1)
    assert issue.detail == (
        "hand 1: logged without its tricks (points 0); settled from the log, "
        "which the cards cannot confirm"
    )


def test_a_hand_without_tricks_or_points_is_paid_as_claimed_and_found_unverifiable():
    hand = {**shengji_scripted("H10"), "tricks": []}
    hand["claimed"] = {"a": 5, "b": -5, "c": 5, "d": -5}
    (result,) = replay([hand])
    assert result.deltas == hand["claimed"]
    assert [i.check for i in result.issues] == ["unverifiable"]


def test_a_wrong_level_is_flagged():
    hand = {**shengji_scripted("H10"), "level": "5"}
    (result,) = replay([hand])
    assert "the levels give 2" in result.issues[0].detail


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param(lambda r: r["deal"]["a"].pop(), "holds 24 cards", id="a short hand"),
        pytest.param(lambda r: r["kitty"].pop(), "8 cards each", id="a short kitty"),
        pytest.param(
            lambda r: r.__setitem__("declarer", "z"), "not in the session", id="a stranger declares"
        ),
        pytest.param(
            lambda r: r["kitty"].__setitem__(0, "RJ"), "duplicate card RJ", id="a third big joker"
        ),
    ],
)
def test_impossible_deals_are_rejected_naming_the_round(change, reason):
    hand = copy.deepcopy(shengji_scripted("H10"))
    change(hand)
    with pytest.raises(DealError, match=f"round 1: .*{reason}"):
        replay([hand])


def test_levels_carry_and_the_bank_passes_in_a_simulated_match():
    sim = simulate(random.Random(11), SEATS, 12, 5, 0.0)
    results = replay(sim.rounds, stake_per_level=5)
    assert all(r.issues == [] for r in results)
    assert len({r["level"] for r in sim.rounds}) > 1
    assert len({r["declarer"] for r in sim.rounds}) > 1


def test_describe_counts_points_and_trumps():
    described = GAME.describe({"cards": ["H5", "H5"], "level": "5", "trump": "S"})
    assert described == {
        "game": "shengji",
        "level": "5",
        "trump": "S",
        "cards": ["H5", "H5"],
        "shape": "pair",
        "suit": "trump",
        "units": [2],
        "points": 10,
        "trumps": ["H5", "H5"],
    }


def test_describe_rejects_a_bad_trump():
    with pytest.raises(DealError):
        GAME.describe({"cards": ["S3"], "trump": "X"})


@pytest.mark.parametrize(
    ("throw", "others", "legal"),
    [
        pytest.param("SA SK", ["S3 S4"], True, id="two singles nobody can beat"),
        pytest.param("SA SK", ["SA S4"], False, id="another A beats the thrown K"),
        pytest.param("SA SA S9", ["S3 S10"], False, id="a 10 beats the thrown 9"),
        pytest.param(
            "SA SA S9", ["S3 S4", "SK SK"], False, id="a pair of K cannot beat AA but K beats 9"
        ),
        pytest.param("SK SK S9", ["SA S3"], False, id="an A beats the thrown single 9"),
        pytest.param("SQ SQ SA", ["SK SK"], False, id="a pair of K beats the thrown pair of Q"),
        pytest.param(
            "C3 C3 C6 C6 C9 C9",
            ["C4 C5 C7 C8 C10 CJ", "D3 D4 D5 D6 D7 D8"],
            True,
            id="three pairs of clubs, no higher club pair elsewhere",
        ),
        pytest.param("C4 C4 C9 C9", ["C10 CJ CQ CK"], True, id="44 99, clubs above held singly"),
    ],
)
def test_a_throw_must_be_unbeatable_unit_by_unit(throw, others, legal):
    trumps = tricks.Trumps("2", "H")
    lead = tricks.shape(throw.split(), trumps)
    hands = [Counter(h.split()) for h in others]
    assert (tricks.throw_problem(lead, throw.split(), hands, trumps) is None) is legal


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        pytest.param(
            ["SA SK", "H3 H4", "S3 S4", "S5 S6"], 1, id="a trump ruff of two singles takes a throw"
        ),
        pytest.param(
            ["SA SK", "H3 H3", "S3 S4", "S5 S6"], 0, id="a trump pair does not match two singles"
        ),
        pytest.param(["SA SK", "S3 S4", "SA SQ", "S5 S6"], 0, id="the suit cannot beat a throw"),
    ],
)
def test_only_a_matching_trump_ruff_beats_a_throw(plays, winner):
    trumps = tricks.Trumps("2", "H")
    assert tricks.trick_winner([(str(i), p.split()) for i, p in enumerate(plays)], trumps) == winner


CLUBS_LOW, DIAMONDS = "C4 C5 C7 C8 C10 CJ", "D3 D4 D5 D6 D7 D8"


@pytest.mark.parametrize(
    ("plays", "units", "shape"),
    [
        pytest.param(
            ["C3 C3 C6 C6 C9 C9", "H7 H7 H8 H8 HA HA", CLUBS_LOW, DIAMONDS],
            1,
            0,
            id="three thrown pairs: a tractor 77-88 and a pair AA are three pair units",
        ),
        pytest.param(
            ["C4 C4 C9 C9", "H6 H6 HJ HJ", "HQ HQ HK HK", "D3 D4 D5 D6"],
            2,
            1,
            id="two thrown pairs: the tractor QQ-KK (top K) over-ruffs 66 JJ (top J)",
        ),
        pytest.param(
            ["C4 C4 C9 C9", "HQ HQ HK HK", "H6 H6 HJ HJ", "D3 D4 D5 D6"],
            1,
            2,
            id="two thrown pairs: 66 JJ (top J) does not over-ruff QQ-KK (top K)",
        ),
        pytest.param(
            ["C3 C3 C4 C4 C9 C9", "H5 H5 H6 H6 H7 H7", CLUBS_LOW, DIAMONDS],
            1,
            0,
            id="a thrown tractor and pair: the tractor 55-66-77 holds both units",
        ),
        pytest.param(
            ["C3 C3 C4 C4 C9 C9", "H5 H5 H8 H8 H10 H10", CLUBS_LOW, DIAMONDS],
            0,
            0,
            id="a thrown tractor and pair: three pairs hold no tractor, no ruff",
        ),
        pytest.param(
            ["C3 C3 C4 C4 C9", "H5 H5 H6 H6 HA", "HJ HJ HQ HQ H3", "D3 D4 D5 D6 D7"],
            2,
            2,
            id="a thrown tractor and single: the higher tractor (top Q over 6) wins",
        ),
        pytest.param(
            ["C3 C3 C4 C4 C9", "H5 H5 H6 H6 HA", "H3 H3 H4 H4 BJ", "D3 D4 D5 D6 D7"],
            1,
            1,
            id="a thrown tractor and single: the tractor ranks the ruff, not the single BJ",
        ),
        pytest.param(
            ["CA CK", "H3 H3", "H4 H5", "D3 D4"],
            2,
            2,
            id="two thrown singles: a pair does not stand for two singles",
        ),
        pytest.param(
            ["H3 H3 H9 H9", "BJ BJ RJ RJ", "C3 C3 C4 C4", "D3 D4 D5 D6"],
            0,
            0,
            id="a throw of trumps cannot be ruffed",
        ),
    ],
)
def test_a_ruff_of_a_throw_matches_it_unit_by_unit_and_the_higher_units_win(plays, units, shape):
    trumps = tricks.Trumps("2", "H")
    given = [(str(i), p.split()) for i, p in enumerate(plays)]
    assert tricks.trick_winner(given, trumps) == units
    assert tricks.trick_winner(given, trumps, "units") == units
    assert tricks.trick_winner(given, trumps, "shape") == shape


def test_the_exact_shape_ruff_is_an_option_off_by_default():
    assert GAME.options_for(None).throw_ruff == "units"
    assert GAME.options_for(Variant(options={"throw_ruff": "shape"})).throw_ruff == "shape"
