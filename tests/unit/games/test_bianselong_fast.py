"""变色龙's one-loop deal against `Table`: the same winner and penalties, or the deal handed back.

`fast.fast_deal` is what the replay runs; `Table` (which the simulator drives
too) stays the reference. Deals come from the simulator, with cheats, under
random options, and are then bent at random (a card changed, a play dropped
or repeated, a draw cut or padded, a suit named) so that every way the fast
loop hands a deal back is met.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DealError
from compliance.games import cards
from compliance.games.bianselong.fast import (
    ON,
    ON_JACK,
    PLAYABLE,
    RANK_SUIT,
    fast_deal,
    points_table,
)
from compliance.games.bianselong.options import BianselongOptions
from compliance.games.bianselong.record import BianselongDeal
from compliance.games.bianselong.simulator import simulate
from compliance.games.bianselong.table import Table

points = {
    "ace_points": st.integers(0, 15),
    "king_points": st.integers(0, 15),
    "queen_points": st.integers(0, 15),
    "jack_points": st.integers(0, 30),
    "last_jack_multiplier": st.integers(1, 4),
}
rules = {
    "seven_draw": st.integers(0, 4),
    "stuck_draw": st.integers(0, 3),
    "play_after_draw": st.booleans(),
}
# the points alone keep the simulator's plays legal; the rules mostly do not
options = st.one_of(st.fixed_dictionaries(points), st.fixed_dictionaries(points, optional=rules))


def bend(rng: random.Random, record: dict) -> dict:
    plays = record["plays"]
    if not plays:
        return record
    at = rng.randrange(len(plays))
    play = plays[at]
    what = rng.randrange(8)
    if what == 0:
        play["card"] = rng.choice(cards.ALL_CARDS)
    elif what == 1:
        del plays[at]
    elif what == 2:
        plays.insert(at, dict(play))
    elif what == 3 and play.get("draw"):
        play["draw"] = play["draw"][:-1]
    elif what == 4:
        play["draw"] = [*play.get("draw", []), rng.choice(cards.STANDARD_52)]
    elif what == 5:
        play["suit"] = rng.choice("SHCD")
    elif what == 6:
        play.pop("card", None)
        play.pop("suit", None)
    elif what == 7:
        play["player"] = rng.choice(list(record["hands"]) + ["stranger"])
    return record


def reference(opts, order, deal):
    try:
        table = Table.deal(opts, order, deal.hands, deal.starter, deal.decks)
        problems = [text for play in deal.plays for text in table.apply(play)]
    except DealError:
        return None, True
    return (table.winner, table.penalties()), bool(problems)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    values=options,
    players=st.integers(2, 6),
    bent=st.sampled_from([0.0, 0.6]),
)
def test_fast_deal_equals_table_or_hands_the_deal_back(seed, values, players, bent):
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    sim = simulate(random.Random(seed), names, 12, 1, 0.3)
    opts = BianselongOptions(**values)
    values_of = points_table(opts)
    for record in sim.rounds:
        if rng.random() < bent:
            record = bend(rng, record)
        deal = msgspec.convert(record, BianselongDeal)
        order = [p for p in names if p in deal.hands]
        expected, broken = reference(opts, order, deal)
        fast = fast_deal(opts, order, deal.hands, deal.starter, deal.decks, deal.plays, values_of)
        if broken:
            assert fast is None
        else:
            assert fast == expected
            assert fast is not None and list(fast[1]) == list(expected[1])  # same order


@given(
    top=st.sampled_from(cards.STANDARD_52),
    named=st.sampled_from(cards.SUITS),
    hand=st.lists(st.sampled_from(cards.ALL_CARDS), max_size=8),
)
def test_the_playable_table_is_what_the_table_lets_on_its_top(top, named, hand):
    blank = BianselongOptions(ace_points=0, king_points=0)
    table = Table(blank, ["you"], {"you": Counter(hand)}, Counter(), [top], named=named)
    rank, suit = RANK_SUIT[top]
    playable = PLAYABLE[rank, named if rank == "J" else suit]
    assert playable == (ON_JACK[named] if rank == "J" else ON[top])
    assert [c for c in cards.ALL_CARDS if c in playable] == [
        c for c in cards.ALL_CARDS if table.can_play(c)
    ]
    assert playable.isdisjoint(hand) == (not table.playable("you"))
