"""跨日累计: a subject's day rows summed over the runs of days that no window splits.

A window that a subject's rules can ask for begins on one of a few days, which
`windows.window_starts` lists for its end (a calendar span back from it, or a
period 累计 rests on), and ends on its end. The days between two such first
days are summed in SQL into one row, so a ledger holds a row per run, a few,
not a row per day of its history: a daily audit reads what is new and a few
rows of what is old. A run keeps its first and last day, so the ledger knows a
window it was not cut for and reads that subject's days again (`refill`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, timedelta

from sqlalchemy import ColumnElement, and_

ONE_DAY = timedelta(days=1)
MOST_ENDS = 8  # a chunk of subjects with more ends is read a day a row: a query an end

Starts = Callable[[date], Iterable[date]]  # the first days a window ending on a day can have


def cuts_for(starts: Starts, end: date, read_from: date | None) -> list[date]:
    """The days a run of days begins on, latest first: each first day a window ending on
    `end` can have, after the first day read, and the day after `end` (days stored later
    than the window are a run of their own)."""
    days = {d for d in starts(end) if d <= end and (read_from is None or d > read_from)}
    days.add(end + ONE_DAY)
    return sorted(days, reverse=True)


def runs(day: ColumnElement, cuts: list[date]) -> list[ColumnElement[bool]]:
    """Each run of days as a condition on `day`: from the first cut on, then between two,
    then before the last."""
    bounds: list[date | None] = [None, *cuts]
    found: list[ColumnElement[bool]] = []
    for later, cut in zip(bounds, cuts, strict=False):
        found.append(day >= cut if later is None else and_(day >= cut, day < later))
    found.append(day < cuts[-1])
    return found


def by_end(ends: dict, keys: Iterable) -> dict[date, list]:
    """The keys grouped by their end."""
    out: dict[date, list] = {}
    for key in keys:
        out.setdefault(ends[key], []).append(key)
    return out
