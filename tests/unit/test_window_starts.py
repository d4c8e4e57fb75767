"""窗口起点: the first days a ledger is read in runs between cover every band's window, and a
ledger read in runs gives the figures of one read a day a row."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.ledger import Entry, Ledger
from compliance.domain.periods import limitation_years
from compliance.domain.ruleset import Resolver
from compliance.domain.windows import LIMITATION_YEARS, band_start, window_starts
from compliance.ruledata import load_book

BOOK = load_book()
RESOLVER = Resolver(BOOK)
WINDOWS = {band.window for band in BOOK.bands}


def test_the_limitation_periods_listed_are_all_there_are():
    assert {limitation_years(n) for n in range(0, 40)} == set(LIMITATION_YEARS)


@settings(max_examples=60, deadline=None)
@given(
    end=st.dates(min_value=date(2015, 1, 1), max_value=date(2030, 12, 31)),
    years=st.none() | st.integers(min_value=1, max_value=20),
)
def test_every_band_of_every_place_starts_on_a_day_window_starts_lists(end, years):
    starts = window_starts(WINDOWS, end, years)
    for code in BOOK.jurisdictions:
        rules = RESOLVER.ruleset(code, end)
        for kind in ("player", "owner", "platform"):
            for band in rules.bands_for(kind):
                start, _ = band_start(band, rules, end, years)
                assert start is None or start in starts


def day_entries(days: list[int], end: date) -> list[Entry]:
    return [
        Entry(end - timedelta(days=d), "430000" if d % 3 else "500000", 1, 100 * d, rake=d)
        for d in days
    ]


def in_runs(entries: list[Entry], cuts: list[date]) -> list[Entry]:
    """The entries summed per place over the runs of days between `cuts` (latest first)."""
    runs: dict[tuple[int, str | None], Entry] = {}
    for e in entries:
        run = next((i for i, cut in enumerate(cuts) if e.day >= cut), len(cuts))
        was = runs.get((run, e.place))
        if was is None:
            runs[(run, e.place)] = dataclasses.replace(e, last=e.day)
            continue
        was.day, was.last = min(was.day, e.day), max(was.last or e.day, e.day)
        was.sessions += e.sessions
        was.capital += e.capital
        was.rake += e.rake
    return list(runs.values())


@settings(max_examples=80, deadline=None)
@given(
    days=st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=40, unique=True),
    cut_back=st.lists(st.integers(min_value=1, max_value=400), max_size=4, unique=True),
    asked=st.integers(min_value=0, max_value=420),
)
def test_a_ledger_read_in_runs_sums_as_one_read_a_day_a_row(days, cut_back, asked):
    end = date(2026, 6, 30)
    cuts = sorted({end - timedelta(days=n) for n in cut_back} | {end + timedelta(days=1)})
    cuts.reverse()
    each_day = Ledger("player", "u1", "p1", end, entries=day_entries(days, end))
    refilled = []

    def refill(book: Ledger) -> None:
        refilled.append(book.id)
        book.entries = day_entries(days, end)

    runs = Ledger("player", "u1", "p1", end, entries=in_runs(each_day.entries, cuts))
    runs.refill = refill
    for cut in cuts[1:]:
        assert runs.figures(cut) == each_day.figures(cut)
    assert runs.figures() == each_day.figures()
    assert not refilled
    start = end - timedelta(days=asked)
    assert runs.figures(start) == each_day.figures(start)
    inside = any(
        e.last is not None and e.day < start <= e.last for e in in_runs(each_day.entries, cuts)
    )
    assert refilled == (["u1"] if inside else [])
