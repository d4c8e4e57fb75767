"""掼蛋 shapes: readings from rank counts equal `combos`' readings of the cards, and the
fast check of whole hands agrees with the reference checks on legal and broken hands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.cards import build_deck
from compliance.games.guandan import combos, fast, shapes

DECK = build_deck(2, jokers=True)
levels = st.sampled_from(combos.LEVELS)
plays = st.lists(st.sampled_from(DECK), min_size=1, max_size=10)


@st.composite
def shaped(draw):
    """Cards likely to make a combination: runs, groups and full houses with wildcards."""
    level = draw(levels)
    wild = "H" + level
    kind = draw(st.sampled_from(["run", "group", "full", "jokers"]))
    suit = draw(st.sampled_from("SHCD"))
    if kind == "run":
        count, length = draw(st.sampled_from([(1, 5), (2, 3), (3, 2)]))
        start = draw(st.integers(1, 15 - length))
        names = [combos.SEQUENCE_NAME[p] for p in range(start, start + length)]
        cards = [draw(st.sampled_from([suit, *"SHCD"])) + r for r in names for _ in range(count)]
    elif kind == "group":
        rank = draw(st.sampled_from(combos.LEVELS))
        cards = [s + rank for s in "SHCD" for _ in range(2)][: draw(st.integers(1, 8))]
    elif kind == "full":
        three, two = draw(st.lists(st.sampled_from(combos.LEVELS), min_size=2, max_size=2))
        cards = ["S" + three, "C" + three, "D" + three, "S" + two, "D" + two]
    else:
        cards = draw(st.sampled_from([["BJ", "BJ"], ["RJ", "RJ"], ["BJ", "RJ"]]))
        cards += ["S" + r for r in draw(st.lists(st.sampled_from(combos.LEVELS), max_size=3))]
    wilds = draw(st.integers(0, min(2, len(cards))))
    for i in draw(st.permutations(range(len(cards))))[:wilds]:
        cards[i] = wild
    return cards, level


def fast_readings(cards: list[str], level: str):
    codes = fast.Level(level)
    read = codes.read(tuple(cards))
    return None if read is None else codes.readings(read[1])


@settings(max_examples=600, deadline=None)
@given(shaped())
def test_a_shape_reads_as_combos_reads_its_cards(case):
    cards, level = case
    if max(cards.count(c) for c in cards) <= 2:
        assert fast_readings(cards, level) == combos.ranked(tuple(cards), level)


@settings(max_examples=600, deadline=None)
@given(plays, levels)
def test_any_cards_read_as_combos_reads_them(cards, level):
    if max(cards.count(c) for c in cards) <= 2:
        assert fast_readings(cards, level) == combos.ranked(tuple(cards), level)
    else:
        assert fast_readings(cards, level) is None


def test_the_ranks_field_counts_naturals_wildcards_and_jokers_apart():
    cards = ("H5", "S5", "BJ", "RJ", "RJ", "CA")
    code = sum(map(fast.Level("5").code.__getitem__, cards))
    ranks = (code & fast.RANKS) >> fast.RANK_AT
    counts = [(ranks >> 5 * i) & 31 for i in range(16)]
    assert counts[3] == 1 and counts[12] == 1 and counts[13:] == [1, 2, 1]
    assert shapes.readings(ranks, True, "5") == combos.ranked(cards, "5") == ()
