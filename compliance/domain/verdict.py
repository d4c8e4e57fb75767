"""门槛结论: a threshold finding built from its tier and band, and its line's texts kept once.

An exempt finding carries no penalty of its own: what the tier it escaped
would have carried goes in `escaped_penalty` and `escaped_statutory_penalty`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from compliance.domain.findings import ThresholdFinding
from compliance.domain.ladder import next_line
from compliance.domain.rules import Band, Comparison, Jurisdiction
from compliance.domain.ruleset import Ruleset
from compliance.domain.tiers import Tier

RANK = {"H": 3, "M": 2, "L": 1}


@lru_cache(maxsize=4096)
def describe(comparison: Comparison) -> str:
    return comparison.describe()


class Lines:
    """What a finding says of its line: the same for every player it fits, so kept."""

    def __init__(self) -> None:
        self._lines: dict[tuple, dict[str, Any]] = {}

    def of(
        self, rules: Ruleset, band: Band | None, tier: Tier, would_be: Tier | None
    ) -> dict[str, Any]:
        key = (id(rules), band.id if band else None, tier, would_be)
        found = self._lines.get(key)
        if found is None:
            found = self._lines[key] = line_texts(rules, band, tier, would_be)
        return found


def line_texts(
    rules: Ruleset, band: Band | None, tier: Tier, would_be: Tier | None
) -> dict[str, Any]:
    instrument = rules.instruments.get(band.instrument) if band else None
    statute = rules.penalty_for(would_be or tier, band.offence if band else None)
    statute_inst = rules.instruments.get(statute.instrument) if statute else None
    penalty = band.penalty if band else None
    statutory = statute.text if statute else None
    escaped = tier == Tier.EXEMPT
    return {
        "tier": tier.code,
        "tier_label": tier.label,
        "rule": band.id if band else None,
        "instrument": instrument.id if instrument else None,
        "citation": f"{instrument.title} {band.article}".strip() if instrument and band else None,
        "article": band.article if band else None,
        "penalty": None if escaped else penalty,
        "statutory_penalty": None if escaped else statutory,
        "statutory_citation": (
            f"{statute_inst.title} {statute.article}" if statute and statute_inst else None
        ),
        "escaped_penalty": penalty if escaped else None,
        "escaped_statutory_penalty": statutory if escaped else None,
        "confidence": min(
            (c for c in (band and band.confidence, instrument and instrument.confidence) if c),
            key=lambda c: RANK.get(c, 0),
            default="M",
        ),
        "disputed": bool(instrument and instrument.disputed),
        "dispute_note": instrument.note if instrument and instrument.disputed else None,
    }


@dataclass(frozen=True, slots=True)
class Verdict:
    """裁决: what a threshold finding is made of, besides its line and its session.

    `tier` under `band` (None: no band held), the comparisons that `hit`, the
    figures (`values`) and the `ladder` the next line is sought on; an exempt
    finding's grounds and the tier it `would_be`; a `subject` other than the player.
    """

    where: Jurisdiction
    day_judged: str
    tier: Tier
    band: Band | None
    hit: list[Comparison]
    values: Mapping[str, Decimal]
    ladder: Any
    exemptions: list[str]
    would_be: Tier | None = None
    subject: str | None = None


def threshold_finding(
    line: dict[str, Any], facts: Any, player_id: str, v: Verdict
) -> ThresholdFinding:
    """The finding for `player_id` (or `v.subject`), with the margin and the next line not
    reached (from `v.ladder`)."""
    lead: Comparison | None = v.hit[0] if v.hit else None
    next_band, next_leaf = next_line(v.ladder, v.values, v.would_be or v.tier)
    value = v.values.get(lead.metric) if lead else None
    next_value = v.values.get(next_leaf.metric) if next_leaf else None
    return finding_of(line, facts, player_id, v, (next_band, next_leaf), value, next_value)


def finding_of(
    line: dict[str, Any],
    facts: Any,
    player_id: str,
    v: Verdict,
    next_at: tuple[Band | None, Comparison | None],
    value: Decimal | None,
    next_value: Decimal | None,
) -> ThresholdFinding:
    """The finding, its next line (`next_at`) found and its figures read; the fast path
    (domain/templates.py) makes its templates with this too, so both write alike."""
    lead: Comparison | None = v.hit[0] if v.hit else None
    next_band, next_leaf = next_at
    subject, band = v.subject, v.band
    return ThresholdFinding(
        session_id=facts.session_id,
        platform=facts.platform,
        subject=subject or f"player:{player_id}",
        player=player_id if subject is None or subject.startswith("player:") else None,
        jurisdiction=v.where.code,
        jurisdiction_name=v.where.name_zh,
        date=facts.day.isoformat(),
        judged_on=v.day_judged,
        game=facts.game,
        metric=lead.metric if lead else ("role" if band else None),
        value=value,
        boundary=describe(lead) if lead else (f"role = {band.role}" if band else None),
        margin=(
            value - lead.lower if lead and lead.lower is not None and value is not None else None
        ),
        next_tier=next_band.tier.code if next_band else None,
        next_rule=next_band.id if next_band else None,
        next_metric=next_leaf.metric if next_leaf else None,
        next_boundary=next_leaf.lower if next_leaf else None,
        margin_to_next=(
            next_leaf.lower - next_value
            if next_leaf and next_leaf.lower is not None and next_value is not None
            else None
        ),
        matched=[describe(leaf) for leaf in v.hit or []],
        exemptions=v.exemptions,
        would_be=v.would_be.code if v.would_be else None,
        **line,
    )
