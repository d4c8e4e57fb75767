"""升级 holdings: the per-suit trick checks agree with the reference rules in `tricks`."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.cards import build_deck
from compliance.games.shengji import tricks
from compliance.games.shengji.holdings import follow_problem, holding_of, play_trick
from compliance.games.shengji.options import ShengjiOptions
from compliance.games.shengji.record import ShengjiHand, ShengjiPlay
from compliance.games.shengji.simulator import simulate
from tests.builders_guandan import SEATS

seeds = st.integers(0, 2**32 - 1)


def trumps_of(hand: ShengjiHand) -> tricks.Trumps:
    return tricks.Trumps(hand.level or "2", None if hand.trump == "NT" else hand.trump)


@settings(max_examples=40, deadline=None)
@given(seeds, st.booleans())
def test_a_follow_is_judged_as_the_reference_judges_it(seed, tractor_follow):
    rng = random.Random(seed)
    sim = simulate(rng, SEATS, 1, 1, 0.0)
    hand = msgspec.convert(sim.rounds[0], ShengjiHand)
    trumps = trumps_of(hand)
    for trick in hand.tricks:
        lead = tricks.shape(trick[0].cards, trumps)
        assert lead is not None
        held = Counter(rng.sample(build_deck(2, jokers=True), rng.randrange(0, 26)))
        size = len(trick[0].cards)
        pool = list(held.elements())
        play = rng.sample(pool, min(size + rng.choice((-1, 0, 0, 1)), len(pool)))
        suited = holding_of(held, trumps).get(lead.suit, {})
        fast = follow_problem(lead, suited, play, trumps, tractor_follow)
        assert fast == tricks.follow_problem(lead, held, play, trumps, tractor_follow)


@settings(max_examples=40, deadline=None)
@given(seeds, st.sampled_from(["units", "shape"]))
def test_every_simulated_trick_is_won_as_the_reference_wins_it(seed, ruff):
    sim = simulate(random.Random(seed), SEATS, 1, 1, 0.0)
    hand = msgspec.convert(sim.rounds[0], ShengjiHand)
    trumps = trumps_of(hand)
    held = {p: Counter(hand.deal[p]) for p in SEATS}
    held[hand.declarer] += Counter(hand.kitty)
    held[hand.declarer] -= Counter(hand.buried)
    holdings = {p: holding_of(held[p], trumps) for p in SEATS}
    options = ShengjiOptions(throw_ruff=ruff)
    for trick in hand.tricks:
        leader = SEATS.index(trick[0].player)
        expected = [SEATS[(leader + k) % 4] for k in range(4)]
        plays = [(p.player, p.cards) for p in trick]
        winner = play_trick(trick, expected, SEATS, holdings, trumps, options)
        assert winner == tricks.trick_winner(plays, trumps, ruff)


def test_a_card_played_twice_from_one_copy_is_not_held():
    trumps = tricks.Trumps("2", "H")
    holdings = {p: holding_of(Counter(["S3", "S4", "S5"]), trumps) for p in SEATS}
    trick = [ShengjiPlay(player=p, cards=["S3", "S3"]) for p in SEATS]
    found = play_trick(trick, SEATS, SEATS, holdings, trumps, ShengjiOptions())
    assert found == ("a plays S3 not held", "a")
