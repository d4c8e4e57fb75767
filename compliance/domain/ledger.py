"""账目: one subject's stored sessions by day, summed over any window that ends at its end.

`end` is the subject's own latest session of the run (or the audit's
`--as-of`); `read_from` the first day the audit read (`--window-days`), or
None where it read every stored session.

An owner's or platform's entries may be a day each, with `places` and `venues`
counted over the whole window read (what its place and venue are judged by).
An entry may also sum a run of days (`day` its first, `last` its last) that no
window the ledger is asked for begins or ends inside: the days between the
first days its rules' windows can have (`windows.window_starts`). Asked for a
window that does begin inside one, the ledger reads its days again (`refill`).
A room owner's or platform's participants are distinct persons: `people`
holds who played on each day, or, where no stored session of the subject is
later than `end`, `last_seen` how many persons were last seen on each day
(those seen from a window's first day on are those last seen in it), or on
each run of days from its first (`seen_until` its last), as the entries are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from compliance.domain.classifier import Classifier
from compliance.domain.windows import WindowFigures, WindowFinding, judge_window, place_of


@dataclass(slots=True)
class Entry:
    """The subject's sessions of one day (or from `day` to `last`) in one place; money in
    whole cents (分)."""

    day: date
    place: str | None
    sessions: int
    capital: int = 0
    net: int = 0
    rake: int = 0
    minors: int = 0
    venue: str = "online"
    fixed_fee: int = 0
    last: date | None = None


def _yuan(cents: int, shown: bool) -> Decimal:
    """A sum of cents in yuan to the cent; 0 where the subject has no such figure or no
    session in the window (as a sum of no figures is)."""
    return Decimal(cents).scaleb(-2) if shown else Decimal(0)


@dataclass
class Ledger:
    kind: str
    id: str
    platform: str
    end: date
    read_from: date | None = None
    entries: list[Entry] = field(default_factory=list)
    people: dict[date, set[str]] = field(default_factory=dict)
    last_seen: dict[date, int] | None = None
    seen_until: dict[date, date] = field(default_factory=dict)  # a last_seen key's run of days
    places: dict[str, int] | None = None  # the whole window read, where entries carry none
    venues: dict[str, int] | None = None
    priors: tuple[date, ...] = ()
    refill: Callable[[Ledger], None] | None = None  # entries and last_seen a day each

    def figures(self, start: date | None = None) -> WindowFigures:
        """The sums from `start` (None: from the first day read) to `end`, both included."""
        lo = start
        if self.read_from is not None and (lo is None or lo < self.read_from):
            lo = self.read_from
        if self.refill is not None and self._cuts_a_run(lo):
            self.refill(self)
            self.refill = None
        picked = [e for e in self.entries if e.day <= self.end and (lo is None or e.day >= lo)]
        places: Counter = Counter()
        venues: Counter = Counter()
        if self.places is not None:  # a band's own span is judged under the window's place
            places.update(self.places)
            venues.update(self.venues or {})
        else:
            for e in picked:
                if e.place:
                    places[e.place] += e.sessions
                venues[e.venue] += e.sessions
        first = lo or min((e.day for e in picked), default=self.end)
        player = self.kind == "player"
        if self.last_seen is not None:
            participants = sum(n for day, n in self.last_seen.items() if first <= day <= self.end)
        else:
            seen: set[str] = set()
            for day, players in self.people.items():
                if first <= day <= self.end:
                    seen |= players
            participants = len(seen)
        return WindowFigures(
            kind=self.kind,
            id=self.id,
            platform=self.platform,
            jurisdiction=place_of(places),
            start=first,
            end=self.end,
            sessions=sum(e.sessions for e in picked),
            capital=_yuan(sum(e.capital for e in picked), bool(picked)),
            net=_yuan(sum(e.net for e in picked), bool(picked) and player),
            rake=_yuan(sum(e.rake for e in picked), bool(picked) and not player),
            fixed_fee=_yuan(sum(e.fixed_fee for e in picked), bool(picked) and not player),
            venues=dict(venues),
            participants=participants,
            minors=sum(e.minors for e in picked),
            places=dict(places),
            priors=self.priors,
            cut=start if start is not None and lo is not None and start < lo else None,
        )

    def _cuts_a_run(self, lo: date | None) -> bool:
        """Whether the window from `lo` to `end` begins or ends inside an entry's run of days."""
        runs = [(e.day, e.last) for e in self.entries if e.last is not None]
        runs += self.seen_until.items()
        return any(
            (lo is not None and first < lo <= last) or first <= self.end < last
            for first, last in runs
        )


def judge_ledger(
    classifier: Classifier, ledger: Ledger, years: int | None = None
) -> WindowFinding | None:
    """The window finding of one subject, each band over its own window (windows.judge_window)."""
    return judge_window(classifier, ledger.figures(), ledger.figures, years)
