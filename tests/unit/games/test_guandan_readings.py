"""掼蛋 fast readings: the cached, suit-free readings choose exactly what `choose` chooses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.cards import build_deck
from compliance.games.guandan import combos

DECK = build_deck(2, jokers=True)
plays = st.lists(st.sampled_from(DECK), min_size=1, max_size=10)
runs = st.sampled_from(
    [
        ["S3", "S4", "S5", "S6", "S7"],
        ["H2", "S4", "S5", "S6", "C7"],
        ["DA", "D2", "D3", "D4", "H2"],
        ["S9", "C9", "H9", "D9"],
        ["S5", "S5", "C6", "C6", "H7", "H7"],
        ["BJ", "BJ", "RJ", "RJ"],
        ["SK", "SK", "HK", "D4", "D4"],
    ]
)
levels = st.sampled_from(combos.LEVELS)
declarations = st.none() | st.sampled_from(
    ["straight:7", "straight:9", "full_house:4", "straight_flush:7", "bomb:9", "pair:5"]
)


def table_of(cards: list[str], level: str):
    best = combos.strongest(combos.interpretations(cards, level))
    return best, (combos.reading(tuple(cards), level)[1][0] if best else None)


@settings(max_examples=400, deadline=None)
@given(plays | runs, levels, plays | runs, declarations)
def test_a_cached_reading_picks_what_choose_picks(cards, level, table_cards, declared):
    table, fast_table = table_of(table_cards, level)
    need, readings = combos.reading(tuple(cards), level)
    slow, _ = combos.choose(cards, level, table, declared)
    fast = combos.pick(readings, fast_table, declared)
    assert (fast.combo if fast else None) == slow
    assert dict(need) == {c: cards.count(c) for c in cards}


@settings(max_examples=300, deadline=None)
@given(plays | runs, levels)
def test_readings_are_the_interpretations_strongest_first(cards, level):
    found = combos.interpretations(cards, level)
    readings = combos.reading(tuple(cards), level)[1]
    assert sorted(found, key=repr) == sorted((r.combo for r in readings), key=repr)
    assert (readings[0].combo if readings else None) == combos.strongest(found)
