"""卡方检验: Pearson's χ² goodness of fit of observed counts to published probabilities.

The p-value is the upper tail of the χ² distribution, Q(k/2, x/2), the regularised
upper incomplete gamma function, computed as in Numerical Recipes (§6.2): a series
below a + 1, a continued fraction (modified Lentz) above. tests/unit/test_chisquare.py
holds it to published critical values. No dependency: scipy would bring some 40 MB for
one function.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

EPSILON = 1e-15
MAX_TERMS = 10_000
MIN_EXPECTED = 5.0


@dataclass(frozen=True, slots=True)
class GoodnessOfFit:
    statistic: float
    df: int
    p_value: float
    n: int
    pooled: tuple[str, ...] = ()  # items pooled because fewer than 5 draws were expected

    def rejects(self, alpha: float) -> bool:
        return self.p_value < alpha


def upper_tail(x: float, df: int) -> float:
    """P(χ²_df ≥ x)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2.0, x / 2.0)


def _gamma_q(a: float, x: float) -> float:
    if x < a + 1.0:
        return 1.0 - _series(a, x)
    return _continued_fraction(a, x)


def _log_prefix(a: float, x: float) -> float:
    return -x + a * math.log(x) - math.lgamma(a)


def _series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(MAX_TERMS):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * EPSILON:
            break
    return total * math.exp(_log_prefix(a, x))


def _continued_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < EPSILON:
            break
    return math.exp(_log_prefix(a, x)) * h


def goodness_of_fit(observed: Mapping[str, int], published: Mapping[str, float]) -> GoodnessOfFit:
    """χ² of the draws of one pool against its published probabilities (normalised to sum
    to 1). Items expected fewer than 5 times are pooled into one cell, the textbook rule, so
    the test stays valid for rare items; a draw of an item not published is its own cell with
    an expected count of zero, which makes the statistic infinite (p = 0)."""
    n = sum(observed.values())
    total = sum(published.values())
    if n <= 0 or total <= 0:
        raise ValueError("a pool needs draws and published probabilities")
    unknown = [k for k, v in observed.items() if v and k not in published]
    if unknown:
        return GoodnessOfFit(math.inf, max(1, len(published) - 1), 0.0, n)
    cells: list[tuple[float, int]] = []
    pooled: list[str] = []
    rare_expected, rare_observed = 0.0, 0
    for item, p in sorted(published.items()):
        expected = n * p / total
        if expected < MIN_EXPECTED:
            pooled.append(item)
            rare_expected += expected
            rare_observed += observed.get(item, 0)
        else:
            cells.append((expected, observed.get(item, 0)))
    if pooled:
        cells.append((rare_expected, rare_observed))
    cells = [(e, o) for e, o in cells if e > 0 or o > 0]
    if len(cells) < 2:
        return GoodnessOfFit(0.0, 0, 1.0, n, tuple(pooled))
    statistic = _statistic(cells)
    df = len(cells) - 1
    return GoodnessOfFit(statistic, df, upper_tail(statistic, df), n, tuple(pooled))


def _statistic(cells: Sequence[tuple[float, int]]) -> float:
    total = 0.0
    for expected, observed in cells:
        if expected == 0:
            return math.inf
        total += (observed - expected) ** 2 / expected
    return total
