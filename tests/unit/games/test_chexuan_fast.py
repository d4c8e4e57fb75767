"""扯旋's fast paths against the references they stand in for, on random and simulated input.

`fast_betting` for `replay_betting`, `showdown_deltas` for `settle_showdown`,
`Ranking.specials` for `Ranking.four`, `Ranking.by_cards` for `Ranking.pairs`,
`_well_formed` for `_validate`.
"""

from __future__ import annotations

import random
from itertools import combinations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DealError
from compliance.games.chexuan import ChexuanOptions, ChexuanRound
from compliance.games.chexuan.betting import ChexuanAction, replay_betting
from compliance.games.chexuan.engine import _validate, _well_formed
from compliance.games.chexuan.fast_betting import fast_betting
from compliance.games.chexuan.hands import deck
from compliance.games.chexuan.settle import (
    _tail_groups,
    groups_of,
    settle_showdown,
    showdown_deltas,
    tail_order,
)
from compliance.games.chexuan.simulator import simulate
from tests.unit.games.test_chexuan_properties import showdowns

ACTS = ["大", "跟", "敲", "休", "丢", "超时", "逃跑"]
NAMES = ["p0", "p1", "p2", "p3", "p4", "p5"]


@st.composite
def bettings(draw):
    n = draw(st.integers(2, 6))
    seats = NAMES[:n]
    rooms = {p: draw(st.integers(0, 30)) for p in seats}
    deal_rounds = draw(st.integers(1, 3))
    rounds = []
    for _ in range(draw(st.integers(0, deal_rounds))):
        actions = []
        for _ in range(draw(st.integers(0, 8))):
            amount = draw(st.one_of(st.none(), st.integers(0, 12)))
            act = draw(st.sampled_from(ACTS))
            actions.append(ChexuanAction(draw(st.sampled_from(seats)), act, amount))
        rounds.append(actions)
    return seats, draw(st.sampled_from(seats)), rooms, rounds, deal_rounds, draw(st.booleans())


def simulated_rounds(seed: int, rate: float) -> list[ChexuanRound]:
    players = [f"u{i}" for i in range(6)]
    sim = simulate(random.Random(seed), players, 30, 10, rate)
    return [msgspec.convert(r, ChexuanRound) for r in sim.rounds]


def same_betting(seats, dealer, rooms, rounds, deal_rounds, escape_folds) -> bool:
    """The fast replay equals the reference, or hands back a round the reference flags."""
    reference = replay_betting(seats, dealer, dict(rooms), rounds, deal_rounds, escape_folds)
    fast = fast_betting(seats, dealer, dict(rooms), rounds, deal_rounds, escape_folds)
    if fast is None:
        assert reference.problem is not None
        return False
    assert fast == reference
    return True


@settings(max_examples=600, deadline=None)
@given(bettings())
def test_fast_betting_equals_the_reference_on_random_actions(betting):
    same_betting(*betting)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([0.0, 0.3]), st.booleans())
def test_fast_betting_equals_the_reference_on_simulated_rounds(seed, rate, escape_folds):
    settled = 0
    for rnd in simulated_rounds(seed, rate):
        names = [s.player for s in rnd.seats]
        rooms = {s.player: max(s.cap - rnd.ante, 0) for s in rnd.seats}
        deal_rounds = len(rnd.seats[0].cards) - 1
        settled += same_betting(names, rnd.dealer, rooms, rnd.betting, deal_rounds, escape_folds)
    if rate == 0.0:
        assert settled == 30


@settings(max_examples=400, deadline=None)
@given(showdowns(), st.booleans(), st.booleans(), st.booleans())
def test_showdown_deltas_equal_settle_showdown(showdown, tail_decides, by_head, by_stake):
    chips, contenders, folded = showdown
    rules = {"tail_decides": tail_decides, "by_head": by_head, "share_by_stake": by_stake}
    fast = showdown_deltas(chips, contenders, folded, **rules)
    reference = settle_showdown(chips, contenders, folded, **rules)
    assert list(fast.items()) == list(reference.items())


@given(showdowns())
def test_tail_groups_equal_the_groups_of_the_tail_order(showdown):
    _, contenders, _ = showdown
    assert _tail_groups(contenders) == groups_of(tail_order(contenders))


def test_specials_and_pairs_by_cards_equal_the_four_card_and_pair_tables():
    for options in (
        ChexuanOptions(),
        ChexuanOptions(strict_ladder=True, zero_points_ties=True, di_jiu_wang=True),
        ChexuanOptions(red_three="D3", sanhua=False, duoduo=False, gang_dui=False),
        ChexuanOptions(huang_pairs=False, tiandi_gongzi=False, wang_dui=False, jiu_dui=False),
        ChexuanOptions(duoduo=False, wang_dui=False, gang_dui=False, jiu_dui=False),
    ):
        ranking = options.ranking()
        cards = deck(options.red_three)
        for a, b in combinations(cards, 2):
            assert ranking.two(a, b) is ranking.two(b, a) is ranking.pairs[frozenset((a, b))]
        for hand in combinations(cards, 4):
            four = ranking.four(hand)
            shuffled = random.Random(hand[0]).sample(hand, 4)
            assert ranking.specials(shuffled) == (four.special_rank, four.sanhua)


def bend(rng: random.Random, record: dict) -> dict:
    seat = rng.choice(record["seats"])
    what = rng.randrange(6)
    if what == 0:
        seat["player"] = rng.choice([*(s["player"] for s in record["seats"]), "stranger"])
    elif what == 1:
        seat["cards"][0] = rng.choice(["S2", "RJ", "BJ", "H3", "D3", "CQ"])
    elif what == 2:
        seat["cards"] = seat["cards"][: rng.randrange(1, 5)]
    elif what == 3:
        record["dealer"] = rng.choice(["stranger", seat["player"]])
    elif what == 4 and record["betting"] and record["betting"][0]:
        record["betting"][0][0]["player"] = rng.choice(["stranger", seat["player"]])
    elif what == 5:
        record["betting"] = record["betting"] + [[]] * rng.randrange(3)
    return record


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_well_formed_is_what_validate_lets_through(seed):
    rng = random.Random(seed)
    players = {f"u{i}" for i in range(6)}
    sim = simulate(random.Random(seed), sorted(players), 30, 10, 0.2)
    ranking = ChexuanOptions().ranking()
    for record in sim.rounds:
        rnd = msgspec.convert(bend(rng, record) if rng.random() < 0.6 else record, ChexuanRound)
        try:
            _validate(1, rnd, players, set(ranking.kinds))
        except DealError:
            assert not _well_formed(rnd, players, ranking.deck)
        else:
            assert _well_formed(rnd, players, ranking.deck)
