"""斗牛 invariants: zero-sum, bounded losses, and simulate → replay finding exactly what was injected."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.metrics import tally
from compliance.games.cards import STANDARD_52
from compliance.games.douniu import GAME, PRESETS, hands, options_for
from compliance.games.douniu.simulator import simulate
from compliance.logs.records import Variant
from tests.builders_douniu import PLAYERS, session_of


@st.composite
def douniu_rounds(draw):
    n = draw(st.integers(2, 6))
    deck = draw(st.permutations(STANDARD_52))
    seats = [
        {
            "player": PLAYERS[i],
            "cards": list(deck[5 * i : 5 * i + 5]),
            "bet": draw(st.integers(1, 5)),
            "claimed": 0,
        }
        for i in range(n)
    ]
    banker = PLAYERS[draw(st.integers(0, n - 1))]
    return {
        "banker": banker,
        "base": draw(st.integers(1, 100)),
        "grab": draw(st.integers(1, 4)),
        "seats": seats,
    }


presets = st.sampled_from(sorted(PRESETS))
equal_rank = st.sampled_from(["high_card", "banker"])


@settings(max_examples=200, deadline=None)
@given(douniu_rounds(), presets, equal_rank)
def test_a_round_is_zero_sum_and_nobody_loses_more_than_his_exposure(rnd, preset, ties):
    [result] = GAME.replay(session_of([rnd], preset=preset, equal_rank=ties))
    top = max(options_for(Variant(preset=preset)).multipliers)
    assert sum(result.deltas.values()) == 0
    banker = rnd["banker"]
    players = [s for s in rnd["seats"] if s["player"] != banker]
    for s in players:
        stake = rnd["base"] * rnd["grab"] * s["bet"]
        assert result.stakes[s["player"]] == stake
        assert -result.deltas[s["player"]] <= stake * top
    assert result.stakes[banker] == max(result.stakes[s["player"]] for s in players)
    assert -result.deltas[banker] <= sum(result.stakes[s["player"]] * top for s in players)


@settings(max_examples=300, deadline=None)
@given(st.permutations(STANDARD_52), st.sampled_from([0, 4, 5]))
def test_the_lookup_table_scores_every_hand_as_the_reference_does(deck, small):
    for i in range(0, 50, 5):
        cards = deck[i : i + 5]
        assert hands.score(cards, small) == hands.reference_score(cards, small)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 8), st.sampled_from([0.0, 0.2, 1.0]))
def test_replay_of_a_simulated_session_finds_exactly_the_injected_anomalies(seed, n_players, rate):
    players = [f"u{i}" for i in range(n_players)]
    sim = simulate(random.Random(seed), players, 40, 10, rate)
    session = session_of(sim.rounds, players=players, preset=sim.variant["preset"])
    found = [(issue.round, issue.check) for r in GAME.replay(session) for issue in r.issues]
    assert found == sim.anomalies
    if rate == 0.0:
        assert found == []


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(2, 8),
    st.sampled_from([0.0, 0.1, 0.5]),
    presets,
    equal_rank,
    st.sampled_from(["niu_nine", "grab"]),
    st.sampled_from([0, 4, 5]),
)
def test_the_one_pass_tally_equals_the_tally_of_the_replay(
    seed, n, rate, preset, ties, succession, small
):
    players = [f"u{i}" for i in range(n)]
    sim = simulate(random.Random(seed), players, 30, 10, rate)
    rounds = sim.rounds
    if rate:
        rng = random.Random(seed)
        for rnd in rng.sample(rounds, 3):
            seat = rng.choice(rnd["seats"])
            seat["rake"] = rng.randint(0, 20)
    session = session_of(
        rounds,
        players=players,
        preset=preset,
        equal_rank=ties,
        banker_succession=succession,
        five_small_max=small,
    )
    assert GAME.tally_session(session, players) == tally(GAME.replay(session), players)
