"""斗牛 replay: settlement, stakes, banker succession by 牛九, claims, rake and impossible deals."""

from __future__ import annotations

import random

import pytest

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH, WRONG_BANKER
from compliance.errors import DealError, DecodeError, LogError
from compliance.games import get_game
from compliance.games.base import resolve_options
from compliance.games.douniu import (
    DEFAULT_PRESET,
    GAME,
    PRESETS,
    ROUND_TYPE,
    DouniuOptions,
    DouniuRound,
)
from compliance.games.douniu.simulator import simulate
from compliance.games.douniu.tally import multipliers_of
from compliance.logs.records import Variant
from tests.builders_douniu import PLAYERS, round_of, seat, session_of

BULL_5 = "SA H2 C3 D4 S5"
BULL_7 = "S10 HJ CQ D9 S8"
BULL_9 = "HQ CK DJ H3 H6"  # highest 梅花K
BULL_9_LOWER = "C4 C6 D10 H9 C10"  # highest 梅花10
BULL_BULL = "SK H5 C5 D3 S7"
NO_BULL = "HA DA C2 D5 S9"  # the constant hands share no card


def replay(rounds, **kwargs):
    return list(GAME.replay(session_of(rounds, **kwargs)))


def checks(results):
    return [(issue.round, issue.check) for r in results for issue in r.issues]


def test_the_engine_is_registered_under_its_code():
    assert get_game("douniu") is GAME
    assert ROUND_TYPE is DouniuRound
    assert (GAME.code, GAME.name_zh) == ("douniu", "斗牛")


def test_the_example_round_settles_with_rake_and_no_issue():
    rnd = round_of(
        "p1", seat("p1", BULL_5, -40), seat("p2", BULL_7, 38, bet=2, rake=2), base=10, grab=2
    )
    [result] = replay([rnd])
    assert result.deltas == {"p2": 40, "p1": -40}
    assert result.stakes == {"p2": 40, "p1": 40}
    assert (result.banker, result.rake, result.issues) == ("p1", 2, [])


def test_a_winning_banker_is_paid_his_own_hand_multiplier():
    rnd = round_of("p1", seat("p1", BULL_BULL, 60), seat("p2", BULL_5, -60, bet=2), base=10)
    [result] = replay([rnd])
    assert result.deltas == {"p2": -60, "p1": 60}
    assert result.issues == []


def test_the_banker_settles_with_each_player_and_players_never_with_each_other():
    rnd = round_of(
        "p1",
        seat("p1", BULL_7, 0),
        seat("p2", BULL_BULL, 90, bet=3),  # 牛牛 ×3 beats the banker
        seat("p3", BULL_5, -10),  # loses at the banker's ×1
        seat("p4", NO_BULL, -20, bet=2),
        base=10,
    )
    [result] = replay([rnd])
    assert result.deltas == {"p2": 90, "p3": -10, "p4": -20, "p1": -60}
    assert result.stakes == {"p2": 30, "p3": 10, "p4": 20, "p1": 30}
    assert sum(result.deltas.values()) == 0


def test_equal_bulls_go_to_the_higher_card_by_default_and_to_the_banker_when_chosen():
    higher, lower = "SK D4 H2 CQ C4", "HK C10 HA H9 CK"  # 牛牛 with 黑桃K against 牛牛 with 红桃K
    rnd = round_of("p1", seat("p1", lower, 30), seat("p2", higher, -30))
    assert replay([rnd])[0].deltas == {"p2": 30, "p1": -30}
    [result] = replay([rnd], equal_rank="banker")
    assert result.deltas == {"p2": -30, "p1": 30}
    assert result.issues == []


def test_no_bull_ties_are_still_broken_by_the_highest_card_under_banker_ties():
    rnd = round_of("p1", seat("p1", NO_BULL, -10), seat("p2", "SK CK S5 H3 SA", 10))
    [result] = replay([rnd], equal_rank="banker")
    assert result.deltas == {"p2": 10, "p1": -10}


def test_the_holder_of_a_niu_nine_is_the_next_banker():
    first = round_of("p1", seat("p1", BULL_5, 10), seat("p2", BULL_9, -10))
    first["seats"][0]["claimed"], first["seats"][1]["claimed"] = -20, 20
    right = round_of("p2", seat("p1", BULL_5, -10), seat("p2", BULL_7, 10))
    wrong = round_of("p1", seat("p1", BULL_5, -10), seat("p2", BULL_7, 10))
    assert checks(replay([first, right])) == []
    results = replay([first, wrong])
    assert checks(results) == [(2, WRONG_BANKER)]
    assert results[1].issues[0].players == ("p1", "p2")


def test_with_two_niu_nines_the_better_one_takes_the_bank():
    first = round_of(
        "p1", seat("p1", BULL_5, -40), seat("p2", BULL_9_LOWER, 20), seat("p3", BULL_9, 20)
    )
    to_p3 = round_of(
        "p3", seat("p1", BULL_5, -30), seat("p2", BULL_7, -30), seat("p3", BULL_BULL, 60)
    )
    to_p2 = round_of(
        "p2", seat("p1", BULL_5, -30), seat("p2", BULL_BULL, 60), seat("p3", BULL_7, -30)
    )
    assert checks(replay([first, to_p3])) == []
    assert checks(replay([first, to_p2])) == [(2, WRONG_BANKER)]


def test_without_a_niu_nine_the_banker_stays_and_the_first_banker_is_free():
    first = round_of("p2", seat("p1", BULL_5, -10), seat("p2", BULL_7, 10))
    stays = round_of("p2", seat("p1", BULL_5, -10), seat("p2", BULL_7, 10))
    moves = round_of("p1", seat("p1", BULL_5, -10), seat("p2", BULL_7, 10))
    assert checks(replay([first, stays])) == []
    assert checks(replay([first, moves])) == [(2, WRONG_BANKER)]
    assert checks(replay([first, moves], banker_succession="grab")) == []


def test_a_due_banker_who_left_the_table_leaves_the_bank_free():
    first = round_of("p1", seat("p1", BULL_5, 10), seat("p2", BULL_9, -10))
    first["seats"][0]["claimed"], first["seats"][1]["claimed"] = -20, 20
    without_p2 = round_of("p3", seat("p1", BULL_5, -10), seat("p3", BULL_7, 10))
    assert checks(replay([first, without_p2])) == []


def test_a_tampered_claim_is_a_settlement_mismatch_naming_round_and_players():
    ok = round_of("p1", seat("p1", BULL_5, -10), seat("p2", BULL_7, 10))
    tampered = round_of("p1", seat("p1", BULL_5, -10), seat("p2", BULL_7, 25))
    results = replay([ok, tampered])
    assert checks(results) == [(2, SETTLEMENT_MISMATCH)]
    issue = results[1].issues[0]
    assert issue.players == ("p2",)
    assert (issue.claimed, issue.expected) == ({"p2": 25}, {"p2": 10})
    assert issue.detail == "p2 claimed 25, rules give 10"


def test_rake_on_a_losing_seat_is_an_illegal_action():
    rnd = round_of("p1", seat("p1", BULL_5, -12, rake=2), seat("p2", BULL_7, 10))
    [result] = replay([rnd])
    assert [i.check for i in result.issues] == [ILLEGAL_ACTION]
    assert result.issues[0].players == ("p1",)


def test_rake_beyond_the_winnings_is_an_illegal_action():
    rnd = round_of("p1", seat("p1", BULL_5, -10), seat("p2", BULL_7, -5, rake=15))
    assert checks(replay([rnd])) == [(1, ILLEGAL_ACTION)]


@pytest.mark.parametrize(
    ("rnd", "reason"),
    [
        pytest.param(
            round_of("p1", seat("p1", BULL_5), seat("p2", "SA HK CQ DJ S10")),
            "round 1: duplicate card SA",
            id="a card dealt twice",
        ),
        pytest.param(
            round_of("p1", seat("p1", "SA SA C3 D4 S5"), seat("p2", BULL_7)),
            "round 1: duplicate card SA",
            id="a card twice in one hand",
        ),
        pytest.param(
            round_of("p1", seat("p1", "SA H2 C3 D4 RJ"), seat("p2", BULL_7)),
            "round 1: joker RJ is not in the 斗牛 deck (seed 004 rule 1)",
            id="a joker",
        ),
        pytest.param(
            round_of("p1", seat("p1", "SA H2 C3 D4"), seat("p2", BULL_7)),
            "round 1: p1 holds 4 cards, not 5",
            id="four cards",
        ),
        pytest.param(
            round_of("p1", seat("p1", BULL_5)),
            "round 1: 1 seats, 斗牛 seats 2 to 6 (seed 004 rule 2)",
            id="one seat",
        ),
        pytest.param(
            round_of("p1", seat("p1", BULL_5), seat("p9", BULL_7)),
            "round 1: player p9 is not in the session's players",
            id="a stranger",
        ),
        pytest.param(
            round_of("p3", seat("p1", BULL_5), seat("p2", BULL_7)),
            "round 1: banker p3 is not seated",
            id="a banker who is not seated",
        ),
        pytest.param(
            round_of("p1", seat("p1", BULL_5), seat("p1", BULL_7)),
            "round 1: player p1 is seated twice",
            id="a player seated twice",
        ),
    ],
)
def test_impossible_deals_raise_deal_error_naming_the_round(rnd, reason):
    with pytest.raises(DealError) as caught:
        replay([rnd])
    assert str(caught.value) == reason
    with pytest.raises(DealError) as in_one_pass:  # what the audit runs
        GAME.tally_session(session_of([rnd]), PLAYERS)
    assert str(in_one_pass.value) == reason


def test_seven_seats_are_impossible():
    deck = [
        "SA",
        "S2",
        "S3",
        "S4",
        "S5",
        "S6",
        "S7",
        "S8",
        "S9",
        "S10",
        "SJ",
        "SQ",
        "SK",
        "HA",
        "H2",
        "H3",
        "H4",
        "H5",
        "H6",
        "H7",
        "H8",
        "H9",
        "H10",
        "HJ",
        "HQ",
        "HK",
        "CA",
        "C2",
        "C3",
        "C4",
        "C5",
        "C6",
        "C7",
        "C8",
        "C9",
    ]
    rnd = round_of("p1", *(seat(f"p{i + 1}", " ".join(deck[5 * i : 5 * i + 5])) for i in range(7)))
    with pytest.raises(DealError, match="7 seats"):
        replay([rnd], players=[f"p{i}" for i in range(1, 8)])


@pytest.mark.parametrize(
    "rnd",
    [
        pytest.param(
            round_of("p1", seat("p1", "SA H2 C3 D4 X5"), seat("p2", BULL_7)), id="unknown card"
        ),
        pytest.param(
            round_of("p1", seat("p1", BULL_5), seat("p2", BULL_7), base=0), id="zero base"
        ),
        pytest.param(round_of("p1", seat("p1", BULL_5), seat("p2", BULL_7, bet=0)), id="zero bet"),
        pytest.param(
            round_of("p1", seat("p1", BULL_5), seat("p2", BULL_7, rake=-1)), id="negative rake"
        ),
        pytest.param(
            round_of("p1", seat("p1", BULL_5), seat("p2", BULL_7, tip=1)), id="unknown field"
        ),
        pytest.param(
            {"banker": "p1", "base": 10, "seats": [{"player": "p1", "cards": BULL_5.split()}]},
            id="no claim",
        ),
    ],
)
def test_malformed_rounds_are_decode_errors(rnd):
    with pytest.raises(DecodeError):
        replay([rnd])


def test_an_unknown_preset_or_option_is_a_log_error():
    with pytest.raises(LogError, match="unknown preset"):
        replay([], preset="regional")
    with pytest.raises(LogError, match="bad variant options"):
        replay([], equal_rank="coin_flip")


def test_a_preset_resolved_once_is_what_every_engine_resolves():
    presets = [None, "classic", "steep", "linear"]
    for preset in presets * 2:  # the second time from what was kept
        variant = Variant(preset=preset)
        expected = resolve_options(variant, PRESETS, DEFAULT_PRESET, DouniuOptions)
        assert GAME.options_for(variant) == expected
        assert multipliers_of(GAME.options_for(variant)) == expected.multipliers
    assert GAME.options_for(None) == GAME.options_for(Variant())
    overridden = Variant(preset="steep", options={"bull_bull": 7})
    assert GAME.options_for(overridden).bull_bull == 7
    assert GAME.options_for(Variant(preset="steep")).bull_bull == 4
    for _ in range(2):  # a wrong preset is refused every time, never kept
        with pytest.raises(LogError, match="unknown preset"):
            GAME.options_for(Variant(preset="regional"))


def test_describe_names_the_rank_and_its_multiplier_under_the_preset():
    assert GAME.describe(BULL_BULL.split()) == {
        "game": "douniu",
        "cards": BULL_BULL.split(),
        "rank": "bull_bull",
        "name_zh": "牛牛",
        "multiplier": 3,
    }
    assert GAME.describe(BULL_BULL.split(), Variant(preset="steep"))["multiplier"] == 4
    assert GAME.describe({"cards": ["sq", "hk", "cj", "d4", "s5"]})["rank"] == "bull_9"


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        pytest.param(["SA", "H2", "C3", "D4"], "a 斗牛 hand has 5 cards, not 4", id="four cards"),
        pytest.param(
            ["SA", "H2", "C3", "D4", "BJ"], "joker BJ is not in the 斗牛 deck", id="joker"
        ),
        pytest.param(["SA", "H2", "C3", "D4", "S1"], "unknown card 'S1'", id="unknown card"),
        pytest.param(["SA", "H2", "C3", "D4", "SA"], "duplicate card SA", id="duplicate"),
        pytest.param({"hand": "SA"}, 'a 斗牛 hand record needs "cards"', id="record without cards"),
    ],
)
def test_describe_rejects_wrong_hands_with_a_clear_message(hand, message):
    with pytest.raises(DealError) as caught:
        GAME.describe(hand)
    assert str(caught.value).startswith(message)


def test_simulate_is_reproducible_from_its_seed():
    players = ["a", "b", "c", "d"]
    one = simulate(random.Random(7), players, 30, 5, 0.2)
    two = simulate(random.Random(7), players, 30, 5, 0.2)
    assert (one.rounds, one.anomalies) == (two.rounds, two.anomalies)
    assert one.variant == {"preset": "classic"}


def test_simulate_seats_at_most_six_of_a_larger_room():
    players = [f"p{i}" for i in range(1, 10)]
    sim = simulate(random.Random(3), players, 50, 10, 0.0)
    assert all(2 <= len(r["seats"]) <= 6 for r in sim.rounds)
    results = list(GAME.replay(session_of(sim.rounds, players=players)))
    assert checks(results) == []


def test_a_steered_simulation_keeps_only_the_deals_chosen_and_stays_honest():
    players = ["a", "b", "c", "d"]
    sim = simulate(random.Random(4), players, 30, 10, 0.0, lambda c, last: last or c["a"] > 0)
    assert all(s["claimed"] > 0 for r in sim.rounds for s in r["seats"] if s["player"] == "a")
    results = list(GAME.replay(session_of(sim.rounds, players=players)))
    assert checks(results) == []  # the 牛九 banker chain and every payout hold
