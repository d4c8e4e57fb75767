"""规则检查: gaps, overlaps and other faults in a rule book, found before they judge anyone.

Bands are compared within one jurisdiction, subject, game-class scope and role,
one metric at a time, for every period in which the set of instruments in force
stays the same. Only comparisons that decide a band on their own take part (a
band's single comparison, or the members of an `any`); those inside an `all`
depend on another figure and are left out of the interval analysis.

Where one tier's 以下 meets the next tier's 以上 at the same figure, both bands
include it and the higher tier wins (DESIGN §6): that is not an overlap. Nor is
an open-ended lower line ("X以上") under a higher one ("Y以上", Y ≥ X), the way
statutes are drafted: from Y up both match and the higher tier wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from itertools import combinations

from compliance.domain.metrics import ALL_METRICS
from compliance.domain.rules import Band, Clause, Comparison, Condition, Instrument, RuleBook

ONE_DAY = timedelta(days=1)
CHECKS = (
    "overlap",
    "gap",
    "tier_order",
    "source",
    "versions",
    "unknown_metric",
    "unknown_game_class",
    "dates",
)


@dataclass(frozen=True, slots=True)
class Problem:
    """一处问题: which check failed, on which rows, and why."""

    check: str
    rows: tuple[str, ...]
    message: str

    def describe(self) -> str:
        return f"{self.check}: {', '.join(self.rows)}: {self.message}"

    def as_dict(self) -> dict:
        return {"check": self.check, "rows": list(self.rows), "message": self.message}


@dataclass(frozen=True, slots=True)
class Interval:
    """区间: a range of one metric with its bounds' inclusivity; None is unbounded."""

    lo: Decimal | None
    lo_in: bool
    hi: Decimal | None
    hi_in: bool

    @classmethod
    def of(cls, c: Comparison) -> Interval:
        lo, lo_in = (c.min, True) if c.min is not None else (c.above, False)
        hi, hi_in = (c.max, True) if c.max is not None else (c.below, False)
        return cls(lo, lo_in and lo is not None, hi, hi_in and hi is not None)

    def describe(self) -> str:
        left = "(-∞" if self.lo is None else ("[" if self.lo_in else "(") + _num(self.lo)
        right = "∞)" if self.hi is None else _num(self.hi) + ("]" if self.hi_in else ")")
        return f"{left}, {right}"

    def meet(self, other: Interval) -> Interval | None:
        """The figures in both, or None."""
        lo, lo_in = _max_lower((self.lo, self.lo_in), (other.lo, other.lo_in))
        hi, hi_in = _min_upper((self.hi, self.hi_in), (other.hi, other.hi_in))
        if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_in and hi_in))):
            return None
        return Interval(lo, lo_in, hi, hi_in)

    def is_above(self, other: Interval) -> bool:
        """Every figure here is at or above every figure of `other`."""
        return other.hi is not None and self.lo is not None and self.lo >= other.hi


def _num(value: Decimal) -> str:
    return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)


def _max_lower(a, b):
    if a[0] is None or (b[0] is not None and b[0] > a[0]):
        return b
    if b[0] is None or a[0] > b[0]:
        return a
    return (a[0], a[1] and b[1])


def _min_upper(a, b):
    if a[0] is None or (b[0] is not None and b[0] < a[0]):
        return b
    if b[0] is None or a[0] < b[0]:
        return a
    return (a[0], a[1] and b[1])


def deciding_leaves(clause: Clause | None) -> list[Comparison]:
    """The comparisons that decide a band on their own: the clause itself, or members of an any."""
    if clause is None:
        return []
    if isinstance(clause, Comparison):
        return [clause]
    if clause.mode == "any":
        return [leaf for part in clause.parts for leaf in deciding_leaves(part)]
    return []


def check_book(book: RuleBook) -> list[Problem]:
    """Every fault in the book, in a stable order."""
    found: dict[tuple, Problem] = {}
    for problem in (
        *check_sources(book),
        *check_dates(book),
        *check_versions(book),
        *check_names(book),
        *check_bands(book),
    ):
        found.setdefault((problem.check, problem.rows, problem.message), problem)
    return list(found.values())


def check_sources(book: RuleBook) -> Iterable[Problem]:
    """出处: every instrument, penalty, exemption, wage and multiplier row says where it came from."""
    for inst in book.instruments.values():
        if not inst.source.strip():
            yield Problem("source", (inst.id,), "instrument without a source")
    for kind, rows in (("penalty", book.penalties), ("exemption", book.exemptions)):
        for row in rows:
            if not row.source.strip():
                yield Problem("source", (row.id,), f"{kind} without a source")
    for w in book.wages:
        if not w.source.strip():
            yield Problem("source", (f"wage {w.city} {w.year}",), "wage without a source")
    for m in book.multipliers:
        if not m.source.strip():
            yield Problem(
                "source",
                (f"multiplier {m.jurisdiction} {m.game_class}",),
                "multiplier without a source",
            )


def check_dates(book: RuleBook) -> Iterable[Problem]:
    for inst in book.instruments.values():
        if inst.effective_to is not None and inst.effective_to < inst.effective_from:
            yield Problem(
                "dates",
                (inst.id,),
                f"ends {inst.effective_to} before it begins {inst.effective_from}",
            )


def _overlapping(a: Instrument, b: Instrument) -> bool:
    a_end, b_end = a.effective_to or date.max, b.effective_to or date.max
    return a.effective_from <= b_end and b.effective_from <= a_end


def check_versions(book: RuleBook) -> Iterable[Problem]:
    """版本组: rival versions in force together may not both be the default."""
    groups: dict[str, list[Instrument]] = {}
    for inst in book.instruments.values():
        if inst.version_group:
            groups.setdefault(inst.version_group, []).append(inst)
    for group, members in sorted(groups.items()):
        for a, b in combinations(sorted(members, key=lambda i: i.id), 2):
            if a.default and b.default and _overlapping(a, b):
                yield Problem(
                    "versions",
                    (a.id, b.id),
                    f"both default in version group {group} and in force together",
                )


def check_names(book: RuleBook) -> Iterable[Problem]:
    """Conditions name known metrics; bands, game types and multipliers name known classes."""
    classes = set(book.game_classes)
    for band in book.bands:
        for leaf in _all_leaves(band.condition):
            if leaf.metric not in ALL_METRICS:
                yield Problem("unknown_metric", (band.id,), f"unknown metric {leaf.metric!r}")
        for code in sorted(band.game_classes - classes):
            yield Problem("unknown_game_class", (band.id,), f"unknown game class {code!r}")
    for g in book.game_types.values():
        if g.game_class not in classes:
            yield Problem(
                "unknown_game_class",
                (f"game_type {g.code}",),
                f"unknown game class {g.game_class!r}",
            )
    for m in book.multipliers:
        if m.game_class not in classes:
            yield Problem(
                "unknown_game_class",
                (f"multiplier {m.jurisdiction} {m.game_class}",),
                f"unknown game class {m.game_class!r}",
            )


def _all_leaves(clause: Clause | None) -> list[Comparison]:
    if clause is None:
        return []
    if isinstance(clause, Condition):
        return [leaf for part in clause.parts for leaf in _all_leaves(part)]
    return [clause]


def periods(instruments: Iterable[Instrument]) -> list[date]:
    """The first day of every period in which none of these instruments starts or ends."""
    days = set()
    for inst in instruments:
        days.add(inst.effective_from)
        if inst.effective_to is not None and inst.effective_to < date.max - ONE_DAY:
            days.add(inst.effective_to + ONE_DAY)
    return sorted(days)


def in_force(
    book: RuleBook, day: date, jurisdiction: str | None = None, pick: str | None = None
) -> dict[str, Instrument]:
    """Instruments in force on `day`, one per version group: the default, or `pick` in its group."""
    live = [
        i
        for i in book.instruments.values()
        if i.in_force(day) and (jurisdiction is None or i.jurisdiction == jurisdiction)
    ]
    chosen: dict[str, Instrument] = {}
    for inst in live:
        key = inst.version_group or inst.id
        held = chosen.get(key)
        if (
            held is None
            or held.id != pick
            and (inst.id == pick or inst.default and not held.default)
        ):
            chosen[key] = inst
    return {i.id: i for i in chosen.values()}


def rivals(book: RuleBook, day: date, jurisdiction: str) -> list[str | None]:
    """None (the defaults), then every non-default version in force that day, each in turn."""
    return [None] + sorted(
        i.id
        for i in book.instruments.values()
        if i.version_group and not i.default and i.jurisdiction == jurisdiction and i.in_force(day)
    )


def check_bands(book: RuleBook) -> Iterable[Problem]:
    """重叠、缺口、档次倒挂 among the bands in force together."""
    by_jurisdiction: dict[str, list[Band]] = {}
    for band in book.bands:
        by_jurisdiction.setdefault(band.jurisdiction, []).append(band)
    for code, bands in sorted(by_jurisdiction.items()):
        mine = [i for i in book.instruments.values() if i.jurisdiction == code]
        for day in periods(mine):
            for pick in rivals(book, day, code):
                live = in_force(book, day, code, pick)
                scopes: dict[tuple, list[Band]] = {}
                for band in bands:
                    if band.instrument in live:
                        key = (
                            band.subject,
                            tuple(sorted(band.game_classes)),
                            band.role or "",
                            tuple(sorted(band.venues)),
                        )
                        scopes.setdefault(key, []).append(band)
                for scope in scopes.values():
                    yield from _check_scope(scope)


def _check_scope(bands: list[Band]) -> Iterable[Problem]:
    by_metric: dict[str, list[tuple[Band, Interval]]] = {}
    for band in bands:
        for leaf in deciding_leaves(band.condition):
            by_metric.setdefault(leaf.metric, []).append((band, Interval.of(leaf)))
    for metric, items in sorted(by_metric.items()):
        for (a, ia), (b, ib) in combinations(items, 2):
            if a.id == b.id:
                continue
            low, high = (a, ia), (b, ib)
            if b.tier < a.tier:
                low, high = high, low
            yield from _pair(metric, low, high)
        yield from _gaps(metric, items)


def _pair(metric: str, low: tuple[Band, Interval], high: tuple[Band, Interval]):
    (lb, li), (hb, hi) = low, high
    both = li.meet(hi)
    if lb.tier == hb.tier:
        return
    if both is not None:
        meeting = both.lo is not None and both.lo == both.hi and li.hi == hi.lo
        layered = li.hi is None and hi.lo is not None and li.lo is not None and hi.lo >= li.lo
        if not (meeting or layered):
            yield Problem(
                "overlap",
                (lb.id, hb.id),
                f"{metric} {both.describe()} is in both {lb.tier.code} {li.describe()} "
                f"and {hb.tier.code} {hi.describe()}",
            )
        return
    if li.is_above(hi):
        yield Problem(
            "tier_order",
            (hb.id, lb.id),
            f"{metric}: {hb.tier.code} at {hi.describe()} lies below "
            f"{lb.tier.code} at {li.describe()}; tiers must rise with the amount",
        )


def _gaps(metric: str, items: list[tuple[Band, Interval]]):
    """Figures between the lowest and highest line that no band covers."""
    ordered = sorted(
        items,
        key=lambda it: (
            it[1].lo is not None,
            it[1].lo if it[1].lo is not None else 0,
            not it[1].lo_in,
        ),
    )
    reach_band, reach = ordered[0][0], ordered[0][1]
    for band, iv in ordered[1:]:
        if reach.hi is None:
            return
        if iv.lo is not None and (
            iv.lo > reach.hi or (iv.lo == reach.hi and not (reach.hi_in or iv.lo_in))
        ):
            hole = Interval(reach.hi, not reach.hi_in, iv.lo, not iv.lo_in)
            yield Problem(
                "gap",
                (reach_band.id, band.id),
                f"{metric} {hole.describe()} is in no band between "
                f"{reach_band.tier.code} {reach.describe()} and "
                f"{band.tier.code} {iv.describe()}",
            )
        if iv.hi is None or (reach.hi < iv.hi) or (reach.hi == iv.hi and iv.hi_in):
            reach_band, reach = band, iv
