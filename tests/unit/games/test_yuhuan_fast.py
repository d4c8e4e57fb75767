"""玉环麻将's fast settlement against the reference: the same payments, winner and breaches.

`fast.fast_settle` is what the replay runs; `engine.settle_round`, with
`score.best_scoring` and `score.loser_scoring`, stays the reference. Rounds come
from the simulator (tampered at random), under random scoring options, and are
then bent at random (tiles swapped, counts wrong, players renamed) so the paths
where the fast settlement hands a round back are covered too.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DealError
from compliance.games.yuhuan import GAME, fast_win, settle_round
from compliance.games.yuhuan.fast import best_total, fast_settle, loser_total, tables_for
from compliance.games.yuhuan.fast_win import fast_decompositions
from compliance.games.yuhuan.options import YuhuanOptions
from compliance.games.yuhuan.record import YuhuanRound, hand_context
from compliance.games.yuhuan.score import best_scoring, loser_scoring
from compliance.games.yuhuan.simulator import simulate
from compliance.games.yuhuan.tiles import INDEX, KINDS, TILES, WHITE, flower_kind
from compliance.games.yuhuan.win import decompositions, suit_decompositions, suit_need
from tests.builders_yuhuan import PLAYERS, session_of

small = st.integers(0, 40)
tai = st.integers(0, 6)
option_values = st.fixed_dictionaries(
    {},
    optional={
        "base_hu": small,
        "flower_hu": small,
        "honour_pair_hu": small,
        "pung_exposed_major": small,
        "pung_concealed_major": small,
        "kong_exposed_minor": small,
        "kong_concealed_major": small,
        "pung_concealed_minor": small,
        "hard_wait_self_drawn_hu": small,
        "hard_wait_discard_hu": small,
        "easy_wait_self_drawn_hu": small,
        "easy_wait_discard_hu": small,
        "discard_pung_exposed": st.booleans(),
        "flower_tai": tai,
        "dragon_pung_tai": tai,
        "seat_wind_pung_tai": tai,
        "pinghu_tai": tai,
        "kong_flower_tai": tai,
        "robbed_kong_tai": tai,
        "half_flush_tai": tai,
        "all_pungs_tai": tai,
        "full_flush_tai": tai,
        "no_wild_tai": tai,
        "two_wild_tai": tai,
        "three_wild_tai": tai,
        "max_tai": st.integers(0, 8),
        "round_to": st.sampled_from([1, 5, 10]),
        "cap": st.sampled_from([100, 300, 400, 100_000]),
        "wild_copies": st.sampled_from([3, 4]),
        "three_wild_cap": st.booleans(),
        "four_winds_cap": st.booleans(),
        "loser_wild_tai": st.booleans(),
        "huang_tiles": st.sampled_from([0, 16]),
        "chengbao_tiles": st.sampled_from([0, 9, 40]),
    },
)


def bend(rng: random.Random, record: dict) -> dict:
    """One random change that may make the round impossible, or merely odd."""
    hands = record["hands"]
    hand = rng.choice(hands)
    what = rng.randrange(8)
    if what == 0 and hand["tiles"]:
        hand["tiles"][rng.randrange(len(hand["tiles"]))] = rng.choice(TILES)
    elif what == 1:
        hand["tiles"].append(rng.choice(TILES))
    elif what == 2 and hand["tiles"]:
        hand["tiles"].pop(rng.randrange(len(hand["tiles"])))
    elif what == 3:
        hand["player"] = rng.choice([*PLAYERS, "stranger"])
    elif what == 4:
        hand["wind"] = rng.choice(["1z", "2z", "3z", "4z"])
    elif what == 5 and record.get("win"):
        record["win"]["from"] = rng.choice([*PLAYERS, None])
    elif what == 6:
        hand["flowers"] = [rng.choice(["5z", "7z"])] * rng.randrange(3)
    elif what == 7 and hand["melds"]:
        meld = rng.choice(hand["melds"])
        meld["tiles"][0] = rng.choice(TILES)
    return record


def rounds_of(seed: int, n: int, bent: float) -> list[YuhuanRound]:
    rng = random.Random(seed)
    sim = simulate(rng, PLAYERS, n, 1, 0.3)
    out = []
    for record in sim.rounds:
        if rng.random() < bent:
            record = bend(rng, record)
        out.append(msgspec.convert(record, YuhuanRound))
    return out


def reference(rnd: YuhuanRound, o: YuhuanOptions, index: int):
    try:
        out = settle_round(rnd, o, index, set(PLAYERS))
    except DealError:
        return None
    return out.deltas, out.winner, out.has_kong, out.issues


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=option_values, bent=st.sampled_from([0.0, 0.5]))
def test_fast_settlement_equals_the_reference_or_hands_the_round_back(seed, options, bent):
    o = YuhuanOptions(**options)
    for index, rnd in enumerate(rounds_of(seed, 12, bent), 1):
        expected = reference(rnd, o, index)
        fast = fast_settle(rnd, o, index, set(PLAYERS))
        if expected is None:
            assert fast is None
        elif fast is not None:
            assert (fast.deltas, fast.winner, fast.has_kong, fast.issues) == expected
            table = [h.player for h in sorted(rnd.hands, key=lambda h: h.wind)]
            assert list(fast.by_wind) == table
    if bent == 0.0:  # nothing bent: the fast path settles every round itself
        for index, rnd in enumerate(rounds_of(seed, 12, 0.0), 1):
            assert fast_settle(rnd, o, index, set(PLAYERS)) is not None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=option_values)
def test_best_and_loser_totals_equal_the_itemised_scorings(seed, options):
    o = YuhuanOptions(**options)
    t = tables_for(o)
    for rnd in rounds_of(seed, 12, 0.0):
        wild = INDEX[rnd.wildcard]
        for hand in rnd.hands:
            winner = rnd.win is not None and rnd.win.player == hand.player
            ctx = hand_context(
                hand.tiles,
                hand.melds,
                hand.flowers,
                hand.wind,
                rnd.wildcard,
                "",
                17 if winner else 16,
            )
            if winner:
                assert rnd.win is not None
                ctx.win_tile, ctx.win_wild = INDEX[rnd.win.tile], rnd.win.tile == rnd.wildcard
                ctx.self_drawn = rnd.win.from_ is None
                ctx.kong_flower, ctx.robbed_kong = rnd.win.kong_flower, rnd.win.robbed_kong
                best = best_scoring(ctx, o)
                assert best_total(ctx, o, t) == (None if best is None else best.total)
            else:
                total = loser_total(hand, list(ctx.exposed), rnd.wildcard, o, t)
                assert total == loser_scoring(ctx, o).total
                assert flower_kind(wild) == ctx.flower_kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_replay_gives_what_the_reference_gives_round_by_round(seed):
    rng = random.Random(seed)
    sim = simulate(rng, PLAYERS, 40, 2, 0.4)
    o = YuhuanOptions(points_per_hu=2)
    results = list(GAME.replay(session_of(sim.rounds, points_per_hu=2)))
    for index, (record, result) in enumerate(zip(sim.rounds, results, strict=True), 1):
        out = settle_round(msgspec.convert(record, YuhuanRound), o, index, set(PLAYERS))
        assert result.deltas == {p: d * 2 for p, d in out.deltas.items()}
        assert [i for i in result.issues if i.check != "wrong_banker"][: len(out.issues)] == (
            out.issues
        )


@st.composite
def concealed_hands(draw):
    """Tile counts of 2 to 17 tiles in at most a few suits, and the 財神 among them."""
    flower = draw(st.sampled_from([WHITE, WHITE + 2]))
    kinds = draw(st.lists(st.integers(0, KINDS - 1).filter(lambda t: t != flower), max_size=6))
    counts = [0] * KINDS
    for tile in kinds:
        counts[tile] = min(4, counts[tile] + draw(st.integers(1, 4)))
    wildcards = draw(st.integers(0, 4))
    return counts, wildcards, draw(st.sampled_from([27, 28, 29, 30])), flower


@settings(max_examples=500, deadline=None)
@given(concealed_hands())
def test_fast_decompositions_equal_the_reference(hand):
    counts, wildcards, seat, flower = hand
    fast = fast_decompositions(counts, wildcards, seat, flower)
    assert sorted(fast) == sorted(decompositions(counts, wildcards, seat, flower))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_decompositions_equal_the_reference_on_simulated_winners(seed):
    for rnd in rounds_of(seed, 20, 0.0):
        for hand in rnd.hands:
            winner = rnd.win is not None and rnd.win.player == hand.player
            ctx = hand_context(
                hand.tiles,
                hand.melds,
                hand.flowers,
                hand.wind,
                rnd.wildcard,
                "",
                17 if winner else 16,
            )
            args = (ctx.counts, ctx.wildcards, ctx.seat, ctx.flower_kind)
            assert sorted(fast_decompositions(*args)) == sorted(decompositions(*args))


@st.composite
def suit_keys(draw):
    """A suit's rank counts (nine ranks, or seven for the honours), up to 14 tiles."""
    chows = draw(st.booleans())
    ranks = 9 if chows else 7
    key = [0] * ranks
    for rank in draw(st.lists(st.integers(0, ranks - 1), max_size=14)):
        key[rank] = min(4, key[rank] + 1)
    return tuple(key), chows


@settings(max_examples=400, deadline=None)
@given(suit_keys(), st.integers(0, 4), st.booleans())
def test_the_code_searches_equal_the_suit_searches(suit_key, wild, pair):
    key, chows = suit_key
    for memo in (*fast_win._needs, fast_win._need_of, fast_win._parts, fast_win._shifted):
        memo.clear()  # a cold search, not only what other tests memoised
    assert fast_win.code_need(fast_win.code_of(key), chows, pair) == suit_need(key, chows, pair)
    assert fast_win.suit_need(key, chows, pair) == suit_need(key, chows, pair)
    for suit in (0, 1, 2) if chows else (3,):
        got = fast_win.suit_parts(suit, key, wild, pair)
        assert sorted(got) == sorted(suit_decompositions(suit, key, wild, pair))
        assert len(set(got)) == len(got)
