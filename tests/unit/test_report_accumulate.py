"""What a report keeps of many rows: the first n in order, a uniform sample, exposures."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.reporting.accumulate import Exposures, Kept, Sample


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers()), max_size=400), st.integers(1, 40))
def test_kept_gives_what_sorted_gives_ties_in_arrival_order(items, n):
    kept = Kept(n, key=lambda item: item[0])
    for item in items:
        kept.add(item)
    assert kept.result() == sorted(items, key=lambda item: item[0])[:n]


def test_a_sample_keeps_everything_up_to_its_cap_then_a_fixed_share():
    small = Sample(cap=10)
    for i in range(7):
        small.add(i)
    assert (small.items, small.count) == (list(range(7)), 7)
    big, again = Sample(cap=100), Sample(cap=100)
    for i in range(10_000):
        big.add(i)
        again.add(i)
    assert (len(big.items), big.count) == (100, 10_000)
    assert big.items == again.items  # seeded: the same rows give the same chart
    assert sum(big.items) / 100 > 2_000  # drawn from the whole stream, not its head


def test_exposures_count_sessions_and_keep_the_worst_tier_of_known_keys():
    rooms = Exposures()
    rooms.add("p/r1", "r1", 100.0)
    rooms.add("p/r1", "r1", 50.0)
    rooms.add("p/r2", "r2", 400.0)
    rooms.judged("p/r1", 3.0)
    rooms.judged("p/r1", 2.0)
    rooms.judged("p/unknown", 5.0)
    assert [(e.label, e.sessions, e.capital, e.top_tier) for e in rooms.top()] == [
        ("r2", 1, 400.0, None),
        ("r1", 2, 150.0, "administrative_serious"),
    ]
