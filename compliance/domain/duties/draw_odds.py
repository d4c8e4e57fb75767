"""抽取概率检验: check 14's frequencies, each pool's paid draws against its published
probabilities by Pearson's χ² (文市发〔2016〕32号 (六)(七)); a signal, never a violation.

State is a count per platform, pool and item, and the first few draws of each pool as
the events behind a finding (with their places in the ledger): never the draws
themselves. Counts add up, so a worker's part (`part`) is absorbed by summing them and
keeping the first draws in ledger order; the pools are judged once, in the driver.
"""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal

from compliance.domain.chisquare import MIN_EXPECTED, GoodnessOfFit, goodness_of_fit
from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import SAMPLE, Collector, event
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.findings import DutyEvent
from compliance.logs.platform_records import LedgerEvent

CHECK = "draw_frequencies"
Odds = dict[tuple[str, str], dict[str, Decimal]]  # (platform, pool) → item → probability
Tally = tuple[
    dict[tuple[str, str], Counter[str]],
    dict[tuple[str, str], list[tuple[int, DutyEvent]]],
    dict[tuple[str, str], str],
]


class DrawFrequencies:
    def __init__(self, book: DutyBook, odds: Odds | None, collect: Collector):
        self.book, self.odds, self.collect = book, odds, collect
        self.counts: dict[tuple[str, str], Counter[str]] = {}
        self.samples: dict[tuple[str, str], list[tuple[int, DutyEvent]]] = {}
        self.last: dict[tuple[str, str], str] = {}  # the month of a pool's latest draw

    def see(self, e: LedgerEvent) -> None:
        if e.type != "draw" or e.result is None or not _paid(e):
            return
        pools = self._pools(e.platform)
        if not pools:
            return  # no odds published at all: the 2016 row is breached, nothing to test on
        pool = e.pool if e.pool is not None else pools[0] if len(pools) == 1 else None
        if pool is None:
            self.collect.cannot(
                CHECK,
                e.platform,
                "ledger draw pool",
                "a draw names no pool and the configuration publishes more than one",
            )
            return
        key = (e.platform, pool)
        self.counts.setdefault(key, Counter())[e.result] += 1
        sample = self.samples.setdefault(key, [])
        if len(sample) < SAMPLE:
            sample.append(
                (self.collect.seq, event(e.id, e.at, f"draw:{e.result}", e.yuan, e.units))
            )
        month = month_of(local_day(e.at))
        if month > self.last.get(key, ""):
            self.last[key] = month

    def part(self) -> Tally:
        """A worker's counts, first draws and latest months, to be summed in the driver."""
        return self.counts, self.samples, self.last

    def absorb(self, part: Tally) -> None:
        counts, samples, last = part
        for key, counted in counts.items():
            self.counts.setdefault(key, Counter()).update(counted)
        for key, sample in samples.items():
            mine = self.samples.get(key, [])
            self.samples[key] = sorted(mine + sample, key=lambda pair: pair[0])[:SAMPLE]
        for key, month in last.items():
            if month > self.last.get(key, ""):
                self.last[key] = month

    def _pools(self, platform: str) -> list[str]:
        return sorted(pool for p, pool in self.odds or {} if p == platform)

    def finish(self, today) -> None:
        for key, counts in sorted(self.counts.items()):
            platform, pool = key
            for duty in self.book.in_force(CHECK, "frequencies", today):
                self._judge(duty, platform, pool, counts)

    def _judge(self, duty: Duty, platform: str, pool: str, counts: Counter[str]) -> None:
        published = (self.odds or {}).get((platform, pool))
        n = sum(counts.values())
        if not published:
            self.collect.cannot(
                CHECK,
                platform,
                "platform-config draw odds",
                f"pool {pool}: draws in the ledger, no published probability to test them on",
            )
            return
        if n < duty.figure("min_draws"):
            self.collect.cannot(
                CHECK,
                platform,
                "draws",
                f"pool {pool}: {n} paid draws, fewer than the {duty.text('min_draws')} "
                "the test needs",
            )
            return
        fit = goodness_of_fit(counts, {k: float(v) for k, v in published.items()})
        if fit.df == 0:
            self.collect.cannot(
                CHECK,
                platform,
                "draws",
                f"pool {pool}: {n} draws leave one cell of {MIN_EXPECTED:g} expected or more",
            )
            return
        self.collect.checked.add((CHECK, platform))
        alpha = duty.figure("alpha")
        if not fit.rejects(float(alpha)):
            return
        b = self.collect.breach(
            duty,
            platform,
            f"pool:{pool}",
            self.last[(platform, pool)],
            metric="chi_square_p_value",
            boundary=f"p ≥ {alpha}: the draws fit the published probabilities",
            cap=alpha,
        )
        b.count = n
        b.value = _p_value(fit)
        b.events = [ev for _, ev in self.samples[(platform, pool)]]
        b.detail = describe(fit, counts, published) + " — a signal, not a violation"


def describe(fit: GoodnessOfFit, counts: Counter[str], published: dict[str, Decimal]) -> str:
    """χ², df, p and each item's observed and expected counts, in words."""
    total = sum(published.values())
    stat = (
        "∞ (an item drawn that was never published)"
        if math.isinf(fit.statistic)
        else (f"{fit.statistic:.2f}")
    )
    items = sorted(set(published) | set(counts))
    cells = ", ".join(
        f"{item} {counts.get(item, 0)}/{fit.n * float(published.get(item, 0) / total):.1f}"
        for item in items
    )
    pooled = (
        f"; pooled (expected < {MIN_EXPECTED:g}): {', '.join(fit.pooled)}" if fit.pooled else ""
    )
    return (
        f"χ² = {stat}, df = {fit.df}, p = {fit.p_value:.3g} over {fit.n} paid draws; "
        f"observed/expected: {cells}{pooled}"
    )


def _p_value(fit: GoodnessOfFit) -> Decimal:
    return Decimal(f"{fit.p_value:.6g}")


def _paid(e: LedgerEvent) -> bool:
    return (e.yuan is not None and e.yuan > 0) or (e.units is not None and e.units > 0)
