"""裁量标准: jurisdictions, instruments, threshold bands and their conditions.

Plain data, built from the database or straight from the reviewed files in
`data/`. A band's condition is a tree of metric comparisons joined by
all / any; its bounds say whether they include the figure (以上, 以下) or
not (不满), as docs/rules-data.md explains.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from compliance.domain.metrics import ALL_METRICS
from compliance.domain.tiers import Tier
from compliance.errors import RulesError

BOUND_KEYS = ("min", "above", "max", "below")
SUBJECTS = ("player", "session", "owner", "platform")
CONFIDENCE = ("H", "M", "L")


@dataclass(frozen=True, slots=True)
class Comparison:
    """One metric against one or two bounds."""

    metric: str
    min: Decimal | None = None
    above: Decimal | None = None
    max: Decimal | None = None
    below: Decimal | None = None

    def holds(self, value: Decimal) -> bool:
        if self.min is not None and value < self.min:
            return False
        if self.above is not None and value <= self.above:
            return False
        if self.max is not None and value > self.max:
            return False
        return not (self.below is not None and value >= self.below)

    @property
    def lower(self) -> Decimal | None:
        return self.min if self.min is not None else self.above

    def describe(self) -> str:
        parts = []
        if self.min is not None:
            parts.append(f"≥ {self.min}")
        if self.above is not None:
            parts.append(f"> {self.above}")
        if self.max is not None:
            parts.append(f"≤ {self.max}")
        if self.below is not None:
            parts.append(f"< {self.below}")
        return f"{self.metric} {' and '.join(parts)}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metric": self.metric}
        for key in BOUND_KEYS:
            bound = getattr(self, key)
            if bound is not None:
                out[key] = int(bound) if bound == bound.to_integral_value() else float(bound)
        return out


@dataclass(frozen=True, slots=True)
class Condition:
    """all / any of comparisons and nested conditions."""

    mode: str
    parts: tuple[Comparison | Condition, ...]

    def to_dict(self) -> dict[str, Any]:
        return {self.mode: [p.to_dict() for p in self.parts]}


Clause = Comparison | Condition


JURISDICTION_CODE = re.compile(r"[0-9]{6}")


def finite_number(raw: Any, where: str) -> Decimal:
    """有限数: a number of a rule row; RulesError for NaN, ±inf or what is no number."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str, Decimal)):
        raise RulesError(f"{where}: {raw!r} is not a number")
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise RulesError(f"{where}: {raw!r} is not a number") from None
    if not value.is_finite():
        raise RulesError(f"{where}: {raw!r} is not a finite number")
    return value


def whole_number(raw: Any, where: str) -> int | None:
    """整数: a count or an amount of whole yuan or days, or None when absent."""
    if raw is None:
        return None
    value = finite_number(raw, where)
    if value != value.to_integral_value():
        raise RulesError(f"{where}: {raw!r} is not a whole number")
    return int(value)


def jurisdiction_code(raw: Any, where: str) -> str:
    """行政区划代码: six digits (GB/T 2260; 000000 for the nation), never a path."""
    code = str(raw)
    if not JURISDICTION_CODE.fullmatch(code):
        raise RulesError(
            f"{where}: jurisdiction code {code!r} is not six digits "
            "(GB/T 2260, e.g. 430000; 000000 for the nation)"
        )
    return code


def parse_condition(raw: Mapping[str, Any], where: str = "") -> Clause:
    """A condition from its data form; RulesError names the row when malformed."""
    if "all" in raw or "any" in raw:
        if len(raw) != 1:
            raise RulesError(f"{where}: a condition has either all or any, alone")
        mode = "all" if "all" in raw else "any"
        items = raw[mode]
        if not isinstance(items, list) or not items:
            raise RulesError(f"{where}: {mode} needs a non-empty list")
        return Condition(mode, tuple(parse_condition(item, where) for item in items))
    metric = raw.get("metric")
    if metric not in ALL_METRICS:
        raise RulesError(f"{where}: unknown metric {metric!r}")
    unknown = set(raw) - {"metric", *BOUND_KEYS}
    if unknown:
        raise RulesError(f"{where}: unknown keys {sorted(unknown)}")
    bounds = {k: finite_number(raw[k], f"{where} {metric} {k}") for k in BOUND_KEYS if k in raw}
    if not bounds:
        raise RulesError(f"{where}: comparison on {metric} has no bound")
    if "min" in bounds and "above" in bounds or "max" in bounds and "below" in bounds:
        raise RulesError(f"{where}: two lower or two upper bounds on {metric}")
    return Comparison(metric, **bounds)


def matched_leaves(clause: Clause, values: Mapping[str, Decimal]) -> list[Comparison] | None:
    """The comparisons that make the clause hold, or None when it does not.

    A metric missing from `values` makes its comparison fail; the classifier
    says which metric was missing rather than guessing.
    """
    if isinstance(clause, Comparison):
        value = values.get(clause.metric)
        return [clause] if value is not None and clause.holds(value) else None
    if clause.mode == "all":
        found: list[Comparison] = []
        for part in clause.parts:
            leaves = matched_leaves(part, values)
            if leaves is None:
                return None
            found.extend(leaves)
        return found
    found = []
    for part in clause.parts:
        leaves = matched_leaves(part, values)
        if leaves is not None:
            found.extend(leaves)
    return found or None


def leaves(clause: Clause | None) -> list[Comparison]:
    if clause is None:
        return []
    if isinstance(clause, Comparison):
        return [clause]
    return [leaf for part in clause.parts for leaf in leaves(part)]


@dataclass(frozen=True, slots=True)
class Jurisdiction:
    """法域: the nation, a province, a city or a district."""

    code: str
    name_zh: str
    name_en: str
    level: str
    parent: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Instrument:
    """规范性文件: a statute, interpretation, notice, provincial standard or ruling."""

    id: str
    jurisdiction: str
    title: str
    kind: str
    effective_from: date
    source: str
    confidence: str
    effective_to: date | None = None
    doc_number: str = ""
    issuer: str = ""
    disputed: bool = False
    version_group: str = ""
    default: bool = True
    note: str = ""

    def in_force(self, day: date) -> bool:
        return self.effective_from <= day and (
            self.effective_to is None or day <= self.effective_to
        )


@dataclass(frozen=True, slots=True)
class Band:
    """档次线: a condition and the tier it gives, under one instrument."""

    id: str
    instrument: str
    jurisdiction: str
    tier: Tier
    subject: str = "player"
    condition: Clause | None = None
    game_classes: frozenset[str] = frozenset()
    role: str | None = None
    article: str = ""
    penalty: str = ""
    confidence: str = "M"
    note: str = ""
    seq: int = 0
    offence: str | None = None
    window: str | None = None  # domain/periods.py: "6 months", "1 year", "cumulative"
    venues: frozenset[str] = frozenset()  # 场所 / 方式: empty for every venue

    def admits(self, game_class: str | None, is_banker: bool, venue: str | None = None) -> bool:
        if self.game_classes and game_class not in self.game_classes:
            return False
        if self.venues and venue is not None and venue not in self.venues:
            return False
        return not (self.role == "banker" and not is_banker)


@dataclass(frozen=True, slots=True)
class Penalty:
    """法定罚则: the statutory range for tiers under one statute version."""

    id: str
    instrument: str
    tiers: tuple[Tier, ...]
    article: str
    text: str
    detention_days_max: int | None = None
    fine_min: int | None = None
    fine_max: int | None = None
    offence: str | None = None
    source: str = ""
    confidence: str = "M"
    note: str = ""


@dataclass(frozen=True, slots=True)
class Exemption:
    """不予处罚: a ground on which play is not punished (kin, organiser's prize)."""

    id: str
    instrument: str
    jurisdiction: str
    kind: str
    article: str
    text: str
    requires_no_rake: bool = True
    whatever_amount: bool = False
    source: str = ""
    confidence: str = "M"
    note: str = ""


@dataclass(frozen=True, slots=True)
class Aggravation:
    """从重情节: a circumstance for which an instrument says the penalty may be heavier.

    In force while its instrument is, and only within its own `effective_from` and
    `effective_to` where the row gives them (the 公安部 2005 notice's 一年内 repeat
    stands beside the 2005 statute only, until the 2025 law's own 一年以内 replaces it).
    """

    id: str
    instrument: str
    jurisdiction: str
    kind: str
    article: str
    text: str
    within_days: int | None = None
    effective_from: date | None = None
    effective_to: date | None = None
    source: str = ""
    confidence: str = "M"

    def in_force(self, day: date) -> bool:
        return (self.effective_from is None or self.effective_from <= day) and (
            self.effective_to is None or day <= self.effective_to
        )


AGGRAVATION_KINDS = ("public_place", "workplace", "vehicle", "minor", "public_servant", "repeat")
VENUES = ("online", "private_home", "public_place", "workplace", "vehicle")


@dataclass(frozen=True, slots=True)
class Wage:
    """城镇职工月平均工资: a city's monthly average wage in one year."""

    city: str
    year: int
    monthly: Decimal
    source: str
    confidence: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class GameClass:
    """游戏类别: games a jurisdiction treats alike, and why they belong together."""

    code: str
    name_zh: str
    name_en: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class GameType:
    code: str
    name_zh: str
    game_class: str


@dataclass(frozen=True, slots=True)
class Multiplier:
    """A jurisdiction's factor on amounts for one game class (1 unless it scales)."""

    jurisdiction: str
    game_class: str
    factor: Decimal
    source: str = ""
    confidence: str = "M"


@dataclass(slots=True)
class RuleBook:
    """Every rule row, as loaded once per run."""

    jurisdictions: dict[str, Jurisdiction] = field(default_factory=dict)
    instruments: dict[str, Instrument] = field(default_factory=dict)
    bands: list[Band] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)
    exemptions: list[Exemption] = field(default_factory=list)
    aggravations: list[Aggravation] = field(default_factory=list)
    wages: list[Wage] = field(default_factory=list)
    game_types: dict[str, GameType] = field(default_factory=dict)
    game_classes: dict[str, GameClass] = field(default_factory=dict)
    multipliers: list[Multiplier] = field(default_factory=list)
