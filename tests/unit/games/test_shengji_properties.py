"""升级 invariants: 200 points per two decks, legal play passes, illegal mutations are caught."""

from __future__ import annotations

import copy
import random
from collections import Counter

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.cards import build_deck
from compliance.games.shengji import GAME, ShengjiHand, ShengjiOptions, play_tricks, tricks
from compliance.games.shengji.simulator import simulate
from tests.builders_guandan import SEATS, session_of

seeds = st.integers(0, 2**32 - 1)


def replay(rounds: list[dict], base: int = 1) -> list:
    return list(GAME.replay(session_of("shengji", rounds, stake_per_level=base)))


def played(record: dict):
    hand = msgspec.convert(record, ShengjiHand)
    held = {p: Counter(hand.deal[p]) for p in SEATS}
    held[hand.declarer] += Counter(hand.kitty)
    held[hand.declarer] -= Counter(hand.buried)
    trumps = tricks.Trumps(hand.level, None if hand.trump == "NT" else hand.trump)
    return play_tricks(hand, held, SEATS, trumps, ShengjiOptions())


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_points_in_tricks_and_kitty_total_200_per_two_decks(seed):
    sim = simulate(random.Random(seed), SEATS, 2, 1, 0.0)
    for record in sim.rounds:
        outcome = played(record)
        assert outcome.trick_points + outcome.kitty_points == 200


@settings(max_examples=20, deadline=None)
@given(seeds, st.integers(1, 50))
def test_every_simulated_legal_play_is_accepted_and_money_is_zero_sum(seed, base):
    sim = simulate(random.Random(seed), SEATS, 3, base, 0.0)
    for result in replay(sim.rounds, base):
        assert result.issues == []
        assert sum(result.deltas.values()) == 0


@settings(max_examples=20, deadline=None)
@given(seeds)
def test_every_injected_anomaly_is_found(seed):
    sim = simulate(random.Random(seed), SEATS, 4, 1, 0.5)
    found = {(i.round, i.check) for r in replay(sim.rounds) for i in r.issues}
    assert set(sim.anomalies) == found


def mutate(rng: random.Random, record: dict) -> None:
    """One random illegal change to a legal hand's tricks."""
    trick = rng.choice(record["tricks"])
    kind = rng.choice(("swap_turn", "drop_card", "not_held", "mixed_lead"))
    if kind == "swap_turn":
        i = rng.randrange(3)
        trick[i], trick[i + 1] = trick[i + 1], trick[i]
    elif kind == "drop_card":
        play = rng.choice(trick[1:])
        play["cards"] = (
            play["cards"] + play["cards"][:1] if len(play["cards"]) == 1 else play["cards"][1:]
        )
    elif kind == "not_held":
        play = rng.choice(trick)
        dealt = set(record["deal"][play["player"]]) | set(record["kitty"])
        absent = next(c for c in build_deck(1, jokers=True) if c not in dealt)
        play["cards"] = [absent, *play["cards"][1:]]
    else:
        lead = trick[0]
        trumps = tricks.Trumps(
            record["level"], None if record["trump"] == "NT" else record["trump"]
        )
        first = record["tricks"].index(trick)
        later = [
            t[0]["cards"][0]
            for t in record["tricks"][first + 1 :]
            if t[0]["player"] == lead["player"]
        ]
        other = [c for c in later if trumps.suit(c) != trumps.suit(lead["cards"][0])]
        if other:
            lead["cards"] = [*lead["cards"], other[0]]
        else:
            trick[0], trick[1] = trick[1], trick[0]


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_a_random_illegal_mutation_is_caught(seed):
    rng = random.Random(seed)
    sim = simulate(rng, SEATS, 1, 1, 0.0)
    record = copy.deepcopy(sim.rounds[0])
    mutate(rng, record)
    (result,) = replay([record])
    assert any(i.check == "illegal_action" for i in result.issues)
