"""掼蛋 invariants: legal plays pass, illegal mutations are caught, money is zero-sum and bounded."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.cards import build_deck
from compliance.games.guandan import GAME, combos
from compliance.games.guandan.simulator import simulate
from tests.builders_guandan import SEATS, session_of

seeds = st.integers(0, 2**32 - 1)


def replay(rounds: list[dict], base: int = 1) -> list:
    return list(GAME.replay(session_of("guandan", rounds, stake_per_level=base)))


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(1, 50))
def test_every_simulated_legal_play_is_accepted_and_money_is_zero_sum(seed, base):
    sim = simulate(random.Random(seed), SEATS, 3, base, 0.0)
    for result in replay(sim.rounds, base):
        assert result.issues == []
        assert sum(result.deltas.values()) == 0
        assert all(abs(d) <= 3 * base for d in result.deltas.values())


@settings(max_examples=5, deadline=None)
@given(seeds)
def test_the_same_seed_simulates_the_same_match(seed):
    one = simulate(random.Random(seed), SEATS, 2, 1, 0.5)
    two = simulate(random.Random(seed), SEATS, 2, 1, 0.5)
    assert one == two


@settings(max_examples=15, deadline=None)
@given(seeds)
def test_every_injected_anomaly_is_found(seed):
    sim = simulate(random.Random(seed), SEATS, 4, 1, 0.5)
    found = {(i.round, i.check) for r in replay(sim.rounds) for i in r.issues}
    assert set(sim.anomalies) == found


def mutate(rng: random.Random, record: dict) -> None:
    """One random illegal change to a legal hand's plays."""
    plays = record["plays"]
    kind = rng.choice(("not_held", "out_of_turn", "pass_on_lead", "too_low"))
    if kind == "pass_on_lead":
        plays[0]["cards"] = []
        return
    if kind == "out_of_turn":
        play = rng.choice(plays)
        play["player"] = rng.choice([p for p in SEATS if p != play["player"]])
        return
    moves = [i for i, p in enumerate(plays) if p["cards"]]
    if kind == "too_low":
        follows = [
            i for i in moves if i and plays[i - 1]["cards"] and len(plays[i - 1]["cards"]) == 1
        ]
        if follows:
            i = rng.choice(follows)
            plays[i]["cards"] = list(plays[i - 1]["cards"])  # an equal single never beats
            plays[i].pop("combo", None)
            return
    play = plays[rng.choice(moves)]
    held = set(record["deal"][play["player"]]).union(
        *([t["card"], t["returned"]] for t in record.get("tribute", []))
    )
    play["cards"] = [next(c for c in build_deck(1, jokers=True) if c not in held)]
    play.pop("combo", None)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_a_random_illegal_mutation_is_caught(seed):
    rng = random.Random(seed)
    sim = simulate(rng, SEATS, 1, 1, 0.0)
    record = copy.deepcopy(sim.rounds[0])
    mutate(rng, record)
    (result,) = replay([record])
    assert any(i.check == "illegal_action" for i in result.issues)


@given(
    st.lists(st.sampled_from(build_deck(2, jokers=True)), min_size=1, max_size=10),
    st.sampled_from(combos.LEVELS),
)
def test_a_bomb_beats_every_non_bomb_and_nothing_beats_itself(cards, level):
    for combo in combos.interpretations(cards, level):
        assert not combos.beats(combo, combo)
        if combo.is_bomb:
            assert combos.beats(combo, combos.Combo(combos.STRAIGHT, 14, 5, "A"))
