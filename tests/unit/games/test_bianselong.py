"""变色龙 engine: play legality, running totals, deal checks, simulator."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.rounds import ILLEGAL_ACTION
from compliance.errors import DealError
from compliance.games import get_game
from compliance.games.bianselong import GAME
from compliance.games.bianselong.simulator import simulate
from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of

HANDS = {
    "a": ["S3", "S8", "SA", "HJ", "C2"],
    "b": ["H8", "D9", "D10", "DQ", "C4"],
    "c": ["H3", "C6", "C9", "DK", "H10"],
}


def session_of(deals, players="abc", variant=None) -> Session:
    return shared_session_of(
        "bianselong", deals, players, variant or {"preset": "court10"}, session_id="unit"
    )


def illegal(plays, hands=HANDS, starter="S2") -> list[str]:
    deal = {"hands": hands, "starter": starter, "plays": plays}
    result = next(GAME.replay(session_of([deal])))
    return [i.detail for i in result.issues if i.check == ILLEGAL_ACTION and " play " in i.detail]


def simulated(seed: int, players: list[str], anomaly_rate: float = 0.0):
    sim = simulate(random.Random(seed), players, 12, 2, anomaly_rate)
    session = session_of(sim.rounds, players="".join(players), variant=sim.variant)
    return sim, list(GAME.replay(session))


def test_the_engine_is_registered_under_its_code():
    assert get_game("bianselong") is GAME


def test_a_matching_suit_or_rank_is_legal():
    assert illegal([{"player": "a", "card": "C2"}, {"player": "b", "card": "C4"}]) == []


def test_a_card_matching_neither_suit_nor_rank_is_flagged_with_round_and_play():
    assert illegal([{"player": "a", "card": "C2"}, {"player": "b", "card": "D9"}]) == [
        "round 1 play 2: b plays D9 on C2 (must match its suit or rank)"
    ]


def test_a_jack_names_the_suit_the_next_player_must_follow():
    plays = [{"player": "a", "card": "HJ", "suit": "D"}, {"player": "b", "card": "D9"}]
    assert illegal(plays) == []


def test_no_jack_may_go_on_a_jack():
    hands = {**HANDS, "b": ["DJ", "D9", "D10", "DQ", "C4"]}
    plays = [{"player": "a", "card": "HJ", "suit": "C"}, {"player": "b", "card": "DJ", "suit": "C"}]
    assert illegal(plays, hands) == ["round 1 play 2: b plays DJ on HJ naming C (no J on a J)"]


def test_an_eight_skips_the_next_player_unless_he_answers_with_an_eight():
    plays = [
        {"player": "a", "card": "S8"},
        {"player": "b", "card": "H8"},
        {"player": "c"},
        {"player": "a", "card": "HJ", "suit": "S"},
    ]
    assert illegal(plays) == []


def test_a_skipped_player_who_plays_is_flagged():
    plays = [{"player": "a", "card": "S8"}, {"player": "b", "card": "D9"}]
    assert illegal(plays) == ["round 1 play 2: b is skipped by an 8 and logs D9"]


def test_an_ace_reverses_the_order_of_play():
    plays = [{"player": "a", "card": "SA"}, {"player": "c", "draw": ["SK"]}]
    assert illegal(plays) == []


def test_drawing_while_holding_a_playable_card_is_flagged():
    assert illegal([{"player": "a", "draw": ["D5"]}]) == [
        "round 1 play 1: a draws while holding a playable card (C2)"
    ]


def test_playing_out_of_turn_is_flagged():
    plays = [{"player": "a", "card": "S3"}, {"player": "c", "card": "H3"}]
    assert illegal(plays) == ["round 1 play 2: c plays out of turn (b's turn)"]


def test_a_card_not_in_the_players_hand_is_an_impossible_deal():
    with pytest.raises(DealError, match="round 1: a plays S4, which is not in his hand"):
        illegal([{"player": "a", "card": "S4"}])


def test_a_card_dealt_twice_from_one_deck_is_an_impossible_deal():
    hands = {**HANDS, "c": ["S3", "C6", "C9", "DK", "H10"]}
    with pytest.raises(DealError, match="round 1: card S3 dealt more often than 1 deck"):
        illegal([], hands)


def test_a_short_hand_is_an_impossible_deal():
    hands = {**HANDS, "c": ["H3", "C6", "C9", "DK"]}
    with pytest.raises(DealError, match="c is dealt 4 cards, not 5"):
        illegal([], hands)


def test_four_players_on_one_deck_are_flagged():
    hands = {**HANDS, "d": ["D2", "D3", "D4", "D5", "D6"]}
    deal = {"hands": hands, "starter": "S2", "plays": []}
    result = next(GAME.replay(session_of([deal], players="abcd")))
    assert "round 1: 4 players share one deck (the seed wants two or three)" in [
        i.detail for i in result.issues
    ]


def test_a_player_whose_total_reached_one_hundred_may_not_be_dealt_in_again():
    sim = simulate(random.Random(3), ["a", "b"], 60, 1, 0.0)
    game_over = next(i for i, deal in enumerate(sim.rounds) if deal.get("new_game"))
    dealt_again = sim.rounds[:game_over] + [sim.rounds[0]]
    replayed = list(GAME.replay(session_of(dealt_again, players="ab", variant=sim.variant)))
    assert any("is out (penalty total" in i.detail for i in replayed[-1].issues)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=2, max_value=5))
def test_a_simulated_game_replays_with_every_play_legal(seed, count):
    _, results = simulated(seed, list("abcde")[:count])
    assert [i for r in results for i in r.issues] == []
    for result in results:
        assert sum(result.deltas.values()) == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=2, max_value=5))
def test_every_injected_anomaly_is_found(seed, count):
    sim, results = simulated(seed, list("abcde")[:count], anomaly_rate=0.3)
    found = {(i.round, i.check) for r in results for i in r.issues}
    assert set(sim.anomalies) <= found


def test_the_same_seed_gives_the_same_game():
    first = simulate(random.Random(11), ["a", "b", "c"], 5, 1, 0.2)
    again = simulate(random.Random(11), ["a", "b", "c"], 5, 1, 0.2)
    assert (first.rounds, first.anomalies) == (again.rounds, again.anomalies)


def test_describe_counts_penalty_points_and_lists_playable_cards():
    described = GAME.describe(
        {"hand": ["SA", "HK", "DJ", "C5"], "top": "H9"}, Variant(preset="court10")
    )
    assert described["penalty_points"] == 1 + 10 + 20 + 5
    assert described["playable"] == ["DJ", "HK"]


def test_describe_says_why_it_cannot_score_an_ace_without_a_value():
    described = GAME.describe(["SA", "C5"])
    assert described["penalty_points"] is None
    assert "ace_points" in described["reason"]
