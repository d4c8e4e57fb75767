"""扯旋 invariants: zero-sum, bounded losses and wins, head never below tail, anomalies found."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.chexuan import GAME, PRESETS, ChexuanOptions
from compliance.games.chexuan.hands import deck
from compliance.games.chexuan.settle import Contender, settle_transfers
from compliance.games.chexuan.simulator import simulate
from tests.builders_chexuan import PLAYERS, session_of


@st.composite
def showdowns(draw):
    n = draw(st.integers(2, 6))
    players = PLAYERS[:n]
    chips = {p: draw(st.integers(0, 500)) for p in players}
    folded = draw(st.lists(st.sampled_from(players), unique=True, max_size=n - 1))
    contenders = []
    for p in players:
        if p in folded:
            continue
        tail = draw(st.integers(0, 12))
        contenders.append(
            Contender(p, draw(st.sampled_from([0, 0, 0, 1, 2])), draw(st.integers(tail, 12)), tail)
        )
    return chips, contenders, folded


@settings(max_examples=400, deadline=None)
@given(showdowns(), st.booleans(), st.booleans(), st.booleans())
def test_nobody_wins_from_one_opponent_more_than_his_own_stake_nor_loses_more_than_he_put_in(
    showdown, tail_decides, by_head, by_stake
):
    chips, contenders, folded = showdown
    paid = settle_transfers(
        chips,
        contenders,
        folded,
        tail_decides=tail_decides,
        by_head=by_head,
        share_by_stake=by_stake,
    )
    for (loser, winner), amount in paid.items():
        assert 0 < amount <= min(chips[loser], chips[winner])
    for p in chips:
        assert sum(a for (loser, _), a in paid.items() if loser == p) <= chips[p]


@st.composite
def all_in_rounds(draw):
    n = draw(st.integers(2, 6))
    cards = draw(st.permutations(deck()))
    caps = [draw(st.integers(10, 300)) for _ in range(n)]
    seats = []
    for i in range(n):
        hand = list(cards[4 * i : 4 * i + 4])
        head = draw(st.sampled_from([hand[:2], [hand[0], hand[2]], [hand[0], hand[3]]]))
        seats.append({"player": PLAYERS[i], "cap": caps[i], "cards": hand, "head": head})
    dealer = draw(st.integers(0, n - 1))
    order = [PLAYERS[(dealer + 1 + i) % n] for i in range(n)]
    betting = [[{"player": p, "act": "敲"} for p in order], [], []]
    return {
        "dealer": PLAYERS[dealer],
        "ante": draw(st.integers(0, 10)),
        "seats": seats,
        "betting": betting,
    }


@settings(max_examples=200, deadline=None)
@given(all_in_rounds(), st.sampled_from(sorted(PRESETS)))
def test_a_showdown_is_zero_sum_and_nobody_loses_more_than_his_簸簸(rnd, preset):
    [result] = GAME.replay(session_of([rnd], preset=preset))
    assert sum(result.deltas.values()) + result.rake + result.carried == 0
    ante_outside = PRESETS[preset].get("ante_mode", "stake") != "stake"
    for s in rnd["seats"]:
        exposure = s["cap"] + (rnd["ante"] if ante_outside else 0)
        assert result.stakes[s["player"]] <= exposure
        assert -result.deltas[s["player"]] <= result.stakes[s["player"]]
    assert {i.check for i in result.issues} <= {"settlement_mismatch", "illegal_action"}


def test_every_split_of_every_four_card_hand_has_the_head_not_below_the_tail():
    for options in (ChexuanOptions(), ChexuanOptions(strict_ladder=True, zero_points_ties=True)):
        ranking = options.ranking()
        hands = 0
        for cards in combinations(deck(), 4):
            four = ranking.four(cards)
            assert len(four.splits) == 3
            for split in four.splits:
                assert split.head.strength >= split.tail.strength
            hands += 1
        assert hands == 35_960


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 8), st.sampled_from([0.0, 0.2, 1.0]))
def test_replay_of_a_simulated_session_finds_exactly_the_injected_anomalies(seed, n_players, rate):
    players = [f"u{i}" for i in range(n_players)]
    sim = simulate(random.Random(seed), players, 40, 10, rate)
    session = session_of(sim.rounds, players=players, preset=sim.variant["preset"])
    results = list(GAME.replay(session))
    found = [(issue.round, issue.check) for r in results for issue in r.issues]
    assert found == sim.anomalies
    if rate == 0.0:
        assert found == []
    for r, record in zip(results, sim.rounds, strict=True):
        table_fee = record.get("rake", 0)  # 抽水 on top of the settlement, as logged
        assert sum(r.deltas.values()) + r.rake - table_fee + r.carried == 0
        for p, delta in r.deltas.items():
            assert -delta <= r.stakes[p]


def test_the_same_seed_simulates_the_same_session():
    one = simulate(random.Random(7), ["x", "y", "z"], 20, 5, 0.3)
    two = simulate(random.Random(7), ["x", "y", "z"], 20, 5, 0.3)
    assert one.rounds == two.rounds and one.anomalies == two.anomalies
