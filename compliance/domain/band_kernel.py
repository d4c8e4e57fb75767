"""按规则集判定: one plan's bands held against many players at once, in exact integers.

A plan (domain/ladder.py) is compiled once into integer bounds: money at the
cent (×100), headcount ×100, the wage ratio at 0.0001 (×10,000), the scale
each figure is rounded to, so every comparison is the exact one the
reference classifier makes on `Decimal`. numpy holds the columns as 64-bit
integers only because the bounds prove they fit: every money figure of a
stored session is below 10^15 yuan (domain/storable.py `check_figures`), 10^17
cents; a wage ratio beyond 2^62 keeps its session on the reference path; and
the next line's gaps are compared by cross-multiplying bounds of at most
`MAX_LADDER` (3 × 10^9 at scale, 3 × 10^7 yuan), whose products stay below
2^63. Every figure is at least 0 (the caller sends a session with a negative
one to the reference), so a ladder bound of 0 is never the next line. A plan
that does not fit (another metric, a bound finer than its scale or four
decimals, a larger or negative ladder bound) is not compiled: `Kernel.fast` is
False and its players go to the reference path.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np

from compliance.domain.ladder import WAGE_METRIC, Plan
from compliance.domain.metrics import PLAYER_METRICS
from compliance.domain.rules import Clause, Comparison, Condition, leaves

MONEY = (*PLAYER_METRICS, "per_capita_capital", "scene_capital", "table_win_loss")
SCALES = {**dict.fromkeys(MONEY, 2), "headcount": 2, WAGE_METRIC: 4}
"""The power of ten each figure is held at, as an integer."""
SHOWN_EXPONENTS = {**dict.fromkeys(MONEY, -2), "headcount": 0, WAGE_METRIC: -4}
"""The exponent of each figure as the reference shows it (cents, a count, 0.0001)."""
MAX_LADDER = 3 * 10**9
MAX_BOUND = 2**62
MAX_FIGURE = 2**62
NONE = -1
EXTRAS = 6  # what else names a finding's template: kin (0, 1, 2) × 2 + public servant
NO_BAND_TIER = 1  # Tier.BELOW_THRESHOLD, what a player no band holds is judged at
OPS = (("min", np.greater_equal), ("above", np.greater), ("max", np.less_equal), ("below", np.less))


def scaled(bound: Decimal, metric: str) -> int | None:
    """A bound at its metric's scale, or None where it is finer than that scale or too large."""
    at = bound.scaleb(SCALES[metric])
    if at != at.to_integral_value() or abs(at) >= MAX_BOUND:
        return None
    return int(at)


class Kernel:
    """The compiled bands of one plan: `judge` gives each player's band, the comparisons
    that held (a bit per leaf of that band) and the next line (an index into the ladder)."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.leaves = [leaves(band.condition) for band in plan.descending]
        used = {leaf.metric for band in self.leaves for leaf in band}
        used |= {leaf.metric for _, leaf in plan.ladder}
        self.metrics = tuple(sorted(used))
        self.needs_wage = WAGE_METRIC in used
        self.tiers = np.array([int(b.tier) for b in plan.descending] + [NO_BAND_TIER], np.int64)
        self.bounds: dict[Comparison, list[tuple[Any, int]]] = {}
        self.lowers: list[int] = []
        self.width = 1 << max((len(band) for band in self.leaves), default=0)
        self.span = len(plan.ladder) + 1
        self.numbered = (len(self.leaves) + 1) * self.width * self.span * EXTRAS < MAX_FIGURE
        self.fast = all(m in SCALES for m in used) and self._compile()

    def _compile(self) -> bool:
        for band in self.leaves:
            for leaf in band:
                found = []
                for key, _ in OPS:
                    bound = getattr(leaf, key)
                    if bound is None:
                        continue
                    at = scaled(bound, leaf.metric)
                    if at is None or bound.as_tuple().exponent < -4:  # type: ignore[operator]
                        return False
                    found.append((dict(OPS)[key], at))
                self.bounds[leaf] = found
        for _, leaf in self.plan.ladder:
            lower = leaf.lower
            at = scaled(lower, leaf.metric) if lower is not None else None
            if at is None or not 0 <= at <= MAX_LADDER or lower.as_tuple().exponent < -4:  # type: ignore[union-attr,operator]
                return False
            self.lowers.append(at)
        return True

    def judge(self, columns: dict[str, np.ndarray], n: int):
        """(band index or NONE, leaf bits, ladder index or NONE), one array each, per player."""
        band = np.full(n, NONE, np.int64)
        bits = np.zeros(n, np.int64)
        open_ = np.ones(n, bool)
        for i, b in enumerate(self.plan.descending):
            if b.condition is None:
                held, pattern = np.ones(n, bool), np.zeros(n, np.int64)
            else:
                held, parts = self._held(b.condition, columns)
                pattern = np.zeros(n, np.int64)
                for j, (_, included) in enumerate(parts):
                    pattern |= included.astype(np.int64) << j
            now = held & open_
            band[now] = i
            bits[now] = pattern[now]
            open_ &= ~now
            if not open_.any():
                break
        return band, bits, self._next(self.tiers[band], columns, n)

    def keys(self, band: np.ndarray, bits: np.ndarray, ahead: np.ndarray, extra: np.ndarray):
        """Per player, a key naming what `judge` found and `extra` (below EXTRAS): one integer
        where they fit in one, else a tuple; `key_of` gives them back."""
        if not self.numbered:
            return list(zip(*(a.tolist() for a in (band, bits, ahead, extra)), strict=True))
        return (
            (((band + 1) * self.width + bits) * self.span + ahead + 1) * EXTRAS + extra
        ).tolist()

    def key_of(self, key) -> tuple[int, int, int, int]:
        """(band index or NONE, leaf bits, ladder index or NONE, extra) of a key from `keys`."""
        if isinstance(key, tuple):
            return key
        rest, extra = divmod(key, EXTRAS)
        rest, ahead = divmod(rest, self.span)
        band, bits = divmod(rest, self.width)
        return band - 1, bits, ahead - 1, extra

    def _held(self, clause: Clause, columns) -> tuple[np.ndarray, list]:
        """Where `clause` holds, and for each of its leaves where it is among those that
        make it hold (it holds, and so does every clause above it)."""
        if isinstance(clause, Comparison):
            values = columns[clause.metric]
            held = np.ones(len(values), bool)
            for op, at in self.bounds[clause]:
                held &= op(values, at)
            return held, [(clause, held)]
        assert isinstance(clause, Condition)
        found = [self._held(part, columns) for part in clause.parts]
        masks = [mask for mask, _ in found]
        held = np.logical_and.reduce(masks) if clause.mode == "all" else np.logical_or.reduce(masks)
        return held, [(leaf, inc & held) for _, parts in found for leaf, inc in parts]

    def _next(self, tier: np.ndarray, columns, n: int) -> np.ndarray:
        """ladder.next_line over every player: the nearest lower bound of a higher tier not
        reached, nearest by (tier, (bound − figure) ÷ bound), the first of equals."""
        best = np.full(n, NONE, np.int64)
        best_tier = np.full(n, 1 << 30, np.int64)
        best_gap = np.zeros(n, np.int64)
        best_bound = np.ones(n, np.int64)
        for k, ((band, leaf), lower) in enumerate(zip(self.plan.ladder, self.lowers, strict=True)):
            if lower == 0:
                continue  # no figure is below 0: never the next line (the reference's gap 0)
            values = columns[leaf.metric]
            gap = np.clip(lower - values, 0, lower)  # only where values < lower is it read
            t = int(band.tier)
            nearer = (t < best_tier) | ((t == best_tier) & (gap * best_bound < best_gap * lower))
            take = (t > tier) & (values < lower) & nearer
            best[take] = k
            best_tier[take] = t
            best_gap[take] = gap[take]
            best_bound[take] = lower
        return best
