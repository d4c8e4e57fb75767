"""档次阶梯: the bands that can judge a player, highest first, and the next line not reached."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from compliance.domain.rules import Band, Comparison, leaves
from compliance.domain.tiers import Tier

WAGE_METRIC = "per_capita_wage_ratio"


@dataclass(frozen=True, slots=True)
class Plan:
    """The bands that can judge a player under one ruleset, game class and role, worked out once.

    `descending`: highest (tier, seq) first, so the first band that holds is
    the one that applies. `ladder`: every lower bound of those bands, for
    the next line a player has not reached.
    """

    descending: tuple[Band, ...]
    ladder: tuple[tuple[Band, Comparison], ...]
    needs_wage: bool


def ladder_of(admitted: list[Band]) -> Plan:
    """A plan from the admitted bands, in the ruleset's (tier, seq) order."""
    ladder = tuple(
        (band, leaf)
        for band in admitted
        for leaf in leaves(band.condition)
        if leaf.lower is not None
    )
    needs_wage = any(leaf.metric == WAGE_METRIC for b in admitted for leaf in leaves(b.condition))
    return Plan(tuple(reversed(admitted)), ladder, needs_wage)


def next_line(ladder, values, tier: Tier):
    """The nearest lower bound of a higher tier that the figures have not reached."""
    best = None
    for band, leaf in ladder:
        if band.tier <= tier:
            continue
        value = values.get(leaf.metric)
        if value is None or value >= leaf.lower:
            continue
        gap = (leaf.lower - value) / leaf.lower if leaf.lower else Decimal(0)
        key = (band.tier, gap)
        if best is None or key < best[0]:
            best = (key, band, leaf)
    return (best[1], best[2]) if best else (None, None)
