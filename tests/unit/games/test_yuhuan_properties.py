"""玉环麻将 invariants: zero-sum payments, bounded losses, simulate → replay is clean, tampering is found."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.yuhuan import GAME
from compliance.games.yuhuan.options import YuhuanOptions
from compliance.games.yuhuan.score import settle
from compliance.games.yuhuan.simulator import simulate
from tests.builders_yuhuan import PLAYERS, session_of

CAP = YuhuanOptions().cap
totals = st.integers(0, CAP // 10).map(lambda n: n * 10)


@given(
    scores=st.tuples(totals, totals, totals, totals),
    winner=st.sampled_from(PLAYERS + [None]),
    chengbao=st.sampled_from(PLAYERS + [None]),
)
def test_payments_are_zero_sum_and_nobody_pays_more_than_five_caps(scores, winner, chengbao):
    if chengbao == winner:
        chengbao = None
    deltas = settle(PLAYERS, dict(zip(PLAYERS, scores, strict=True)), winner, chengbao)
    assert sum(deltas.values()) == 0
    assert all(d >= -5 * CAP for d in deltas.values())
    if winner is None:
        assert set(deltas.values()) == {0}
    elif chengbao is None:
        assert all(d >= -3 * CAP for d in deltas.values())


def simulated(seed: int, rounds: int, rate: float, base: int = 1):
    sim = simulate(random.Random(seed), PLAYERS, rounds, base, rate)
    session = session_of(sim.rounds, **sim.variant["options"])
    return sim, list(GAME.replay(session))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), base=st.sampled_from([1, 2, 5]))
def test_simulated_sessions_replay_without_integrity_issues_and_within_exposure(seed, base):
    sim, results = simulated(seed, 30, 0.0, base)
    assert sim.anomalies == []
    for result in results:
        assert result.issues == []
        assert sum(result.deltas.values()) == 0
        assert all(d >= -5 * CAP * base for d in result.deltas.values())
        assert result.stakes == {p: base for p in PLAYERS}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_injected_anomaly_is_found_and_only_there(seed):
    sim, results = simulated(seed, 40, 0.3)
    found = {(r.index, i.check) for r in results for i in r.issues}
    assert set(sim.anomalies) <= found
    tampered = {index for index, _ in sim.anomalies}
    assert {index for index, _ in found} <= tampered


def test_the_same_seed_simulates_the_same_session():
    one = simulate(random.Random(9), PLAYERS, 10, 1, 0.2)
    two = simulate(random.Random(9), PLAYERS, 10, 1, 0.2)
    assert msgspec.json.encode(one.rounds) == msgspec.json.encode(two.rounds)
    assert one.anomalies == two.anomalies


def test_simulated_rounds_include_wins_draws_wildcards_and_chengbao():
    sim, results = simulated(3, 200, 0.0)
    wins = [r for r in sim.rounds if r["win"]]
    assert 100 < len(wins) < 200
    assert any(r["win"]["from"] for r in wins) and any(not r["win"]["from"] for r in wins)
    assert any(
        h["tiles"].count(r["wildcard"]) >= 2
        for r in wins
        for h in r["hands"]
        if h["player"] == r["win"]["player"]
    )
    assert any(r["tiles_left"] <= 25 and r["win"]["from"] for r in wins)
