"""玉环麻将 win detection: 財神 wildcards, hands greedy counters miss, a brute-force cross-check."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.yuhuan.options import YuhuanOptions
from compliance.games.yuhuan.score import (
    SHANPON,
    SINGLE,
    HandContext,
    _chow_wait,
    best_scoring,
    score,
)
from compliance.games.yuhuan.tiles import EAST, HONOURS, INDEX, KINDS, WHITE, counts_of
from compliance.games.yuhuan.win import CHOW, PAIR, PUNG, decompositions, is_winning, suit_need
from tests.builders_yuhuan import tiles

WILD = INDEX["5z"]  # a 白板 wildcard keeps every suit tile natural
FLOWER = INDEX["7z"]


def split(text: str) -> tuple[list[int], int]:
    """Concealed counts and wildcard count; `*` in the text is a 財神."""
    wild = text.count("*")
    return counts_of(INDEX[t] for t in tiles(text.replace("*", ""))), wild


@cache
def plain_win(counts: tuple[int, ...], pair: bool = True) -> bool:
    """Reference: lowest tile first, pung, chow or pair, no wildcards, no memo per suit."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return not pair
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if plain_win(tuple(c), pair):
            return True
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        if plain_win(tuple(c), False):
            return True
        c[i] += 2
    if i < HONOURS and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if plain_win(tuple(c), pair):
            return True
    return False


def brute_win(counts: list[int], wild: int) -> bool:
    """Reference: try every tile each wildcard could be."""
    for extra in combinations_with_replacement(range(KINDS), wild):
        c = list(counts)
        for t in extra:
            c[t] += 1
        if plain_win(tuple(c)):
            return True
    return False


@pytest.mark.parametrize(
    ("hand", "wins"),
    [
        pytest.param(
            "444p2222m34m555s678s77z", True, id="2222m34m needs a pung and a chow out of four twos"
        ),
        pytest.param("111m123m456p789p11s99s1z", False, id="two pairs and an odd tile is no win"),
        pytest.param(
            "11123m456p789p111s999s", True, id="11123m: pung first fails, the pair first wins"
        ),
        pytest.param("111222333m456p789p55s", True, id="three pungs or three chows of 123"),
        pytest.param("11123455678999m123s", True, id="nine gates shape with a fifth and a chow"),
        pytest.param("1112345678999m123s*", True, id="one wildcard completes the nine gates"),
        pytest.param(
            "147m258p369s12346z***", False, id="three wildcards cannot fix a scattered hand"
        ),
        pytest.param(
            "123m456m789m123p4p77z**", True, id="two wildcards finish a meld around a single"
        ),
        pytest.param(
            "123m456m789m13p58s1z***", False, id="three wildcards cannot fix three broken groups"
        ),
        pytest.param(
            "123m456m789m12p11z5s***",
            True,
            id="three wildcards: a chow and a pung with one real tile",
        ),
        pytest.param("123m456m789m123p55s***", True, id="three wildcards alone make a meld"),
        pytest.param("123m456m789m123p5s66z**", True, id="two wildcards with a single make a meld"),
    ],
)
def test_win_detection_matches_the_reference_on_tricky_hands(hand, wins):
    counts, wild = split(hand)
    assert sum(counts) + wild == 17
    assert is_winning(counts, wild) is wins
    assert brute_win(counts, wild) is wins
    assert any(True for _ in decompositions(counts, wild, EAST, WHITE)) is wins


def test_suit_need_counts_the_fewest_wildcards_for_one_suit():
    assert suit_need((1, 1, 0, 0, 0, 0, 0, 0, 0), True, False) == 1
    assert suit_need((1, 0, 1, 0, 0, 0, 0, 0, 0), True, False) == 1
    assert suit_need((1, 0, 0, 0, 0, 0, 0, 0, 1), True, False) == 4
    assert suit_need((1, 0, 0, 0, 0, 0, 0), False, True) == 1
    assert suit_need((0,) * 9, True, True) == 99


def test_win_detection_agrees_with_brute_force_on_near_winning_hands():
    rng = random.Random(5)
    for _ in range(150):
        hand = built_hand(rng, rng.randint(0, 2))
        counts, wild = counts_of(t for t in hand if t != WILD), hand.count(WILD)
        if rng.random() < 0.7:
            real = [i for i, c in enumerate(counts) if c]
            counts[rng.choice(real)] -= 1
            counts[
                rng.choice([t for t in range(KINDS) if t not in (WILD, FLOWER) and counts[t] < 4])
            ] += 1
        assert is_winning(counts, wild) == brute_win(counts, wild)


def built_hand(rng: random.Random, wild: int) -> list[int]:
    """Five random melds and a pair (no 白板 or 中), then `wild` tiles made 財神."""
    usable = [t for t in range(KINDS) if t not in (WILD, FLOWER)]
    counts = [0] * KINDS
    hand: list[int] = []
    while len(hand) < 15:
        t = rng.choice(usable)
        meld = [t, t + 1, t + 2] if t < HONOURS and t % 9 <= 6 and rng.random() < 0.6 else [t] * 3
        if all(counts[x] + meld.count(x) <= 4 for x in meld):
            for x in meld:
                counts[x] += 1
            hand += meld
    pair = rng.choice([t for t in usable if counts[t] <= 2])
    hand += [pair, pair]
    for pos in rng.sample(range(17), wild):
        hand[pos] = WILD
    return hand


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), wild=st.integers(0, 3))
def test_every_hand_of_five_melds_and_a_pair_with_wildcards_is_a_win(seed, wild):
    hand = built_hand(random.Random(seed), wild)
    counts = counts_of(t for t in hand if t != WILD)
    held = hand.count(WILD)
    assert is_winning(counts, held)
    win = next(t for t in hand if t != WILD)
    ctx = HandContext(counts, held, (), EAST, 0, FLOWER, win_tile=win)
    best = best_scoring(ctx, YuhuanOptions())
    assert best is not None and best.hu >= 20 and 10 <= best.total <= 400


def test_four_wildcards_are_allowed_when_the_option_plays_all_four_copies():
    counts, wild = split("123m456m789m123p****")
    assert len(tiles("123m456m789m123p")) + wild == 16
    counts, wild = split("123m456m789m12p****")
    assert is_winning(counts, wild)


def plain_decompositions(counts: list[int], pair: bool = True):
    """Reference: every split of concrete tiles into pungs, chows and one pair."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        if not pair:
            yield ()
        return
    shapes = [(PUNG, [i] * 3)]
    if pair:
        shapes.append((PAIR, [i] * 2))
    if i < HONOURS and i % 9 <= 6:
        shapes.append((CHOW, [i, i + 1, i + 2]))
    for kind, used in shapes:
        if all(counts[t] >= used.count(t) for t in set(used)):
            rest = list(counts)
            for t in used:
                rest[t] -= 1
            for tail in plain_decompositions(rest, pair and kind != PAIR):
                yield ((kind, i, 0, False), *tail)


def reference_best(ctx: HandContext, o: YuhuanOptions, skip_win_kind: bool) -> tuple[int, int, int]:
    """The best (total, 台, 胡) over every tile the 財神 could be, the winning tile
    placed in any meld of its kind: exact when no 財神 stands for that kind."""
    best = (-1, -1, -1)
    for extra in combinations_with_replacement(range(KINDS), ctx.wildcards):
        if extra and (FLOWER in extra or (skip_win_kind and ctx.win_tile in extra)):
            continue
        counts = list(ctx.counts)
        for t in extra:
            counts[t] += 1
        for melds in plain_decompositions(counts):
            for at, (kind, tile, _, _) in enumerate(melds):
                if (
                    kind == CHOW
                    and 0 <= ctx.win_tile - tile <= 2
                    and ctx.win_tile // 9 == tile // 9
                ):
                    wait = _chow_wait(tile, ctx.win_tile - tile)
                elif kind in (PUNG, PAIR) and tile == ctx.win_tile:
                    wait = SHANPON if kind == PUNG else SINGLE
                else:
                    continue
                s = score(melds, wait, at, ctx, o)
                best = max(best, (s.total, s.tai, s.hu))
    return best


@pytest.mark.parametrize("wild", [0, 1, 2])
def test_the_best_scoring_is_the_maximum_over_every_concrete_reading_of_the_wildcards(wild):
    rng = random.Random(100 + wild)
    for _ in range(25 if wild < 2 else 8):
        hand = built_hand(rng, wild)
        counts = counts_of(t for t in hand if t != WILD)
        win = rng.choice([t for t in hand if t != WILD])
        ctx = HandContext(
            counts,
            wild,
            (),
            EAST,
            rng.randint(0, 1),
            FLOWER,
            win_tile=win,
            self_drawn=rng.random() < 0.5,
        )
        o = YuhuanOptions(max_tai=9, cap=10**6)
        best = best_scoring(ctx, o)
        engine = (best.total, best.tai, best.hu)
        lower = reference_best(ctx, o, skip_win_kind=True)
        assert lower <= engine <= reference_best(ctx, o, skip_win_kind=False)
        if wild == 0:
            assert engine == lower
