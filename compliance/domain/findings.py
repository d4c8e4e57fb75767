"""审计结论: findings are data, returned and never raised.

Three kinds, each a JSON object with `kind`, `session_id`, `subject` and
`jurisdiction`: `threshold` (a tier and the line behind it), `integrity`
(the log's claim against the rules), `indeterminate` (what is missing).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

THRESHOLD = "threshold"
INTEGRITY = "integrity"
INDETERMINATE = "indeterminate"


def number(value: Decimal | int | float | None) -> int | float | None:
    """A JSON number that shows yuan without float noise."""
    if value is None:
        return None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


@dataclass(slots=True)
class ThresholdFinding:
    session_id: str
    platform: str
    subject: str
    player: str | None
    jurisdiction: str
    jurisdiction_name: str
    date: str
    judged_on: str
    game: str
    tier: str
    tier_label: str
    rule: str | None
    instrument: str | None
    citation: str | None
    article: str | None
    metric: str | None
    value: Decimal | None
    boundary: str | None
    margin: Decimal | None
    penalty: str | None
    statutory_penalty: str | None
    statutory_citation: str | None
    confidence: str
    next_tier: str | None = None
    next_rule: str | None = None
    next_metric: str | None = None
    next_boundary: Decimal | None = None
    margin_to_next: Decimal | None = None
    matched: list[str] = field(default_factory=list)
    exemptions: list[str] = field(default_factory=list)
    would_be: str | None = None
    disputed: bool = False
    dispute_note: str | None = None
    kind: str = THRESHOLD

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("value", "margin", "next_boundary", "margin_to_next"):
            out[key] = number(out[key])
        return {"kind": out.pop("kind"), **out}


@dataclass(slots=True)
class IntegrityFinding:
    session_id: str
    platform: str
    subject: str
    jurisdiction: str | None
    game: str
    round: int
    check: str
    detail: str
    players: list[str]
    claimed: dict[str, int] | None = None
    expected: dict[str, int] | None = None
    kind: str = INTEGRITY

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        return {"kind": out.pop("kind"), **out}


@dataclass(slots=True)
class IndeterminateFinding:
    session_id: str
    platform: str
    subject: str
    player: str | None
    jurisdiction: str | None
    game: str
    missing: str
    reason: str
    kind: str = INDETERMINATE

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        return {"kind": out.pop("kind"), **out}


Finding = ThresholdFinding | IntegrityFinding | IndeterminateFinding
