"""吃火锅 engine: carried pot and chips, orbit decks, turn order, simulator."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.errors import DealError, LogError
from compliance.games import get_game
from compliance.games.cards import STANDARD_52
from compliance.games.chihuoguo import GAME, NEGATIVE_CHIPS, ChihuoguoOptions, settle_bet
from compliance.games.chihuoguo.simulator import simulate
from compliance.logs.records import Session
from tests.builders import session_of as shared_session_of

SEATS = ["a", "b", "c", "d"]


def session_of(turns, players=SEATS, buy_in=10_000, variant=None) -> Session:
    return shared_session_of("chihuoguo", turns, players, variant, buy_in=buy_in, session_id="unit")


def pass_turn(player, ends, **extra) -> dict:
    return {"player": player, "ends": ends, "action": "pass", **extra}


def simulated(seed: int, n_rounds: int = 120, anomaly_rate: float = 0.0):
    sim = simulate(random.Random(seed), SEATS, n_rounds, 10, anomaly_rate)
    return sim, list(GAME.replay(session_of(sim.rounds, buy_in=None, variant=sim.variant)))


def test_the_engine_is_registered_under_its_code():
    assert get_game("chihuoguo") is GAME


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_pot_plus_chips_stays_constant_across_a_simulated_session(seed):
    sim, results = simulated(seed)
    start = sum(sim.rounds[0]["chips"].values())
    pot = 0
    for result in results:
        assert sum(result.deltas.values()) + result.carried == 0
        pot += result.carried
        assert pot >= 0
    chips = start + sum(sum(r.deltas.values()) for r in results)
    assert chips + pot == start


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_a_simulated_session_replays_without_any_integrity_issue(seed):
    _, results = simulated(seed)
    assert [i for r in results for i in r.issues] == []


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_every_injected_anomaly_is_found(seed):
    sim, results = simulated(seed, anomaly_rate=0.2)
    found = {(i.round, i.check) for r in results for i in r.issues}
    assert set(sim.anomalies) <= found


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_nobody_loses_more_in_a_turn_than_his_ante_and_four_times_his_bet(seed):
    sim, results = simulated(seed, anomaly_rate=0.1)
    for record, result in zip(sim.rounds, results, strict=True):
        for player, delta in result.deltas.items():
            ante = record.get("antes", {}).get(player, 0)
            bet = record.get("bet", 0) if record["player"] == player else 0
            assert -delta <= ante + min(4 * bet, 200_000)


def test_the_same_seed_gives_the_same_session():
    first = simulate(random.Random(7), SEATS, 40, 10, 0.1)
    again = simulate(random.Random(7), SEATS, 40, 10, 0.1)
    assert (first.rounds, first.anomalies) == (again.rounds, again.anomalies)


def test_a_card_repeated_within_an_orbit_is_an_impossible_deal():
    turns = [
        pass_turn("a", ["S3", "H9"], antes=dict.fromkeys(SEATS, 10)),
        pass_turn("b", ["S3", "D9"]),
    ]
    with pytest.raises(DealError, match="round 2: card S3 already dealt in round 1"):
        list(GAME.replay(session_of(turns)))


def test_the_deck_is_fresh_after_each_orbit_of_four():
    turns = [pass_turn(p, [f"S{n}", f"H{n}"]) for p, n in zip(SEATS, "2345", strict=True)]
    turns.append(pass_turn("a", ["S2", "H2"]))
    turns[0]["antes"] = dict.fromkeys(SEATS, 10)
    turns[0]["claimed"] = dict.fromkeys(SEATS, -10)
    results = list(GAME.replay(session_of(turns)))
    assert [i for r in results for i in r.issues] == []


def test_a_player_outside_the_session_is_an_impossible_deal():
    with pytest.raises(DealError, match="round 1: player z is not in the session"):
        list(GAME.replay(session_of([pass_turn("z", ["S3", "H9"])])))


def test_a_bet_without_a_third_card_is_an_impossible_deal():
    turn = {"player": "a", "ends": ["S3", "H9"], "action": "bet", "bet": 5}
    with pytest.raises(DealError, match="a bet needs a third card"):
        list(GAME.replay(session_of([turn])))


def test_a_turn_out_of_seat_order_is_an_illegal_action():
    results = list(
        GAME.replay(session_of([pass_turn("a", ["S3", "H9"]), pass_turn("c", ["S4", "H8"])]))
    )
    assert [(i.check, i.detail) for i in results[1].issues] == [
        (ILLEGAL_ACTION, "round 2: c dealt out of turn (b's turn)")
    ]


def test_a_logged_pot_that_differs_from_the_carried_one_is_a_mismatch():
    turns = [
        pass_turn(
            "a", ["S3", "H9"], antes=dict.fromkeys(SEATS, 10), claimed=dict.fromkeys(SEATS, -10)
        ),
        pass_turn("b", ["S4", "H8"], pot=35),
    ]
    results = list(GAME.replay(session_of(turns)))
    assert [i.detail for i in results[1].issues] == [
        "round 2: pot before the turn logged as 35, carried 40"
    ]
    assert results[1].issues[0].check == SETTLEMENT_MISMATCH


def test_unequal_antes_are_an_illegal_action():
    turns = [pass_turn("a", ["S3", "H9"], antes={"a": 10, "b": 10, "c": 10, "d": 5})]
    issues = next(GAME.replay(session_of(turns))).issues
    assert ILLEGAL_ACTION in [i.check for i in issues]


def test_chips_below_zero_after_a_four_fold_post_are_reported_not_hidden():
    turn = {
        "player": "a",
        "ends": ["SA", "HK"],
        "action": "bet",
        "bet": 1000,
        "third": "DA",
        "antes": dict.fromkeys(SEATS, 1000),
    }
    result = next(GAME.replay(session_of([turn], buy_in=3000)))
    assert result.deltas["a"] == -1000 - 4000
    negative = [i for i in result.issues if i.check == NEGATIVE_CHIPS]
    assert negative[0].players == ("a",)
    assert "from 3000 to -2000" in negative[0].detail


def test_a_session_without_known_chips_is_rejected_with_a_reason():
    with pytest.raises(LogError, match="needs every player's chips"):
        list(GAME.replay(session_of([pass_turn("a", ["S3", "H9"])], buy_in=None)))


def test_a_three_player_session_is_rejected_under_the_four_seat_rule():
    with pytest.raises(LogError, match="played by 4 players"):
        list(GAME.replay(session_of([pass_turn("a", ["S3", "H9"])], players=["a", "b", "c"])))


def test_the_shelongmen_preset_pays_three_times_on_any_post():
    turn = {
        "player": "a",
        "ends": ["SA", "HK"],
        "action": "bet",
        "bet": 10,
        "third": "DA",
        "antes": dict.fromkeys(SEATS, 100),
    }
    result = next(GAME.replay(session_of([turn], variant={"preset": "shelongmen"})))
    assert result.deltas["a"] == -100 - 30


def test_describe_lists_what_each_third_card_does():
    described = GAME.describe(["S4", "HJ"])
    assert described["wins"] == ["5", "6", "7", "8", "9", "10"]
    assert described["posts"] == ["4", "J"]
    assert described["cards_left"] == {"win": 24, "post": 6, "lose": 20}


def test_describe_settles_a_record_with_a_third_card():
    described = GAME.describe({"ends": ["SA", "HK"], "third": "CK", "bet": 50, "pot": 400})
    assert (described["outcome_zh"], described["delta"]) == ("牛角尖", -200)


def test_the_round_record_example_in_the_docs_replays_as_it_says():
    text = (Path(__file__).parents[3] / "docs/games/chihuoguo.md").read_text(encoding="utf-8")
    example = json.loads(
        text.split("## Round record", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    )
    results = list(GAME.replay(session_of(example, buy_in=None)))
    assert [r.issues for r in results] == [[], []]
    assert results[0].deltas == {"a": -400, "b": -500, "c": -500, "d": -500}
    assert (results[0].carried, results[0].stakes["a"], results[1].carried) == (1900, 100, 0)


@given(
    st.lists(st.sampled_from(STANDARD_52), min_size=3, max_size=3, unique=True),
    st.integers(min_value=1, max_value=100_000),
    st.integers(min_value=0, max_value=10_000_000),
)
def test_a_bet_never_loses_more_than_four_times_or_the_cap_nor_wins_more_than_the_pot(
    dealt, bet, pot
):
    outcome = settle_bet(dealt[:2], dealt[2], bet, pot, ChihuoguoOptions())
    assert -min(4 * bet, 200_000) <= outcome.delta <= pot
    if outcome.kind != "triple":
        assert outcome.delta <= bet
