"""累计: what a report keeps of millions of rows in memory bounded by what it shows."""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from compliance.domain.tiers import Tier

TOP = 10
SAMPLE = 50_000  # figures kept for a distribution chart; beyond, a uniform sample


@dataclass(frozen=True)
class Exposure:
    """赌资敞口: the capital that passed through a room, owner or player."""

    key: str
    label: str
    sessions: int
    capital: float
    top_tier: str | None


class Kept:
    """The first `n` items of a stream in `key` order, as `sorted` would give them
    (ties in arrival order), holding at most about 2n at a time."""

    def __init__(self, n: int, key: Callable[[Any], Any]):
        self.n, self.key = n, key
        self.items: list[Any] = []

    def add(self, item: Any) -> None:
        self.items.append(item)
        if len(self.items) >= 2 * self.n + 64:
            self._prune()

    def _prune(self) -> None:
        self.items.sort(key=self.key)
        del self.items[self.n :]

    def result(self) -> list:
        self._prune()
        return self.items


class Sample:
    """Every figure up to `cap`; beyond, a uniform sample of `cap` (reservoir, seeded)."""

    def __init__(self, cap: int = SAMPLE):
        self.cap, self.count = cap, 0
        self.items: list[Any] = []
        self._rng = random.Random(0)

    def add(self, item: Any) -> None:
        self.count += 1
        if len(self.items) < self.cap:
            self.items.append(item)
            return
        slot = self._rng.randrange(self.count)
        if slot < self.cap:
            self.items[slot] = item


class Exposures:
    """赌资敞口 by key: capital, sessions, a label, and the worst tier found."""

    def __init__(self) -> None:
        self.capital: dict[str, float] = {}
        self.sessions: Counter[str] = Counter()
        self.labels: dict[str, str] = {}
        self.worst: dict[str, float] = {}

    def add(self, key: str, label: str, capital: float | None) -> None:
        self.capital[key] = self.capital.get(key, 0) + (capital or 0)
        self.sessions[key] += 1
        self.labels[key] = label

    def judged(self, key: str, rank: float) -> None:
        if key in self.capital:
            self.worst[key] = max(self.worst.get(key, -1), rank)

    def top(self) -> list[Exposure]:
        return [
            Exposure(
                key,
                self.labels[key],
                self.sessions[key],
                round(value, 2),
                Tier(int(self.worst[key])).code if key in self.worst else None,
            )
            # Counter.most_common's own ordering, for float capital
            for key, value in heapq.nlargest(TOP, self.capital.items(), key=itemgetter(1))
        ]
