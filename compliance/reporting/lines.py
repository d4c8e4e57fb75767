"""界线与差额: the threshold lines a report draws, the rules it cites, and its near misses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from compliance.domain.rules import RuleBook, leaves
from compliance.domain.ruleset import Resolver
from compliance.reporting.facts import ReportQuery

LINE_METRICS = ("single_stake", "per_capita_capital")
NEAR_MISS_SHARE = 0.2
NEAR_BINS = (0, 2.5, 5, 7.5, 10, 12.5, 15, 17.5, 20)  # per cent of the next line


@dataclass(frozen=True)
class ThresholdLine:
    """One lower bound of a band on a charted metric: where a tier starts."""

    metric: str
    jurisdiction: str
    value: float
    tier: str
    band: str
    game_classes: tuple[str, ...] = ()


def rules_cited(book: RuleBook | None, used: set[str]) -> list[dict[str, Any]]:
    """引用的规则: each band the findings name, with its instrument's provenance."""
    if book is None:
        return []
    bands = {b.id: b for b in book.bands}
    out = []
    for rule in sorted(used):
        band = bands.get(rule)
        inst = book.instruments.get(band.instrument) if band else None
        out.append(
            {
                "rule": rule,
                "jurisdiction": band.jurisdiction if band else None,
                "tier": band.tier.code if band else None,
                "article": band.article if band else "",
                "instrument": inst.id if inst else None,
                "title": inst.title if inst else "",
                "doc_number": inst.doc_number if inst else "",
                "source": inst.source if inst else "",
                "confidence": band.confidence if band else None,
                "disputed": bool(inst and inst.disputed),
                "note": inst.note if inst else "",
            }
        )
    return out


def threshold_lines(
    book: RuleBook | None, codes: set[str], day: date | None, query: ReportQuery
) -> list[ThresholdLine]:
    """阈值线: each jurisdiction's lower bounds on the charted metrics, in force at the end."""
    if book is None or day is None:
        return []
    if query.jurisdictions:
        codes = codes & set(query.jurisdictions)
    resolver = Resolver(book)
    found: dict[tuple, ThresholdLine] = {}
    for code in sorted(codes):
        if code not in book.jurisdictions:
            continue
        for band in resolver.ruleset(code, day).bands_for("player"):
            for leaf in leaves(band.condition):
                bound = leaf.lower
                if leaf.metric not in LINE_METRICS or bound is None or bound <= 0:
                    continue
                line = ThresholdLine(
                    leaf.metric,
                    code,
                    float(bound),
                    band.tier.code,
                    band.id,
                    tuple(sorted(band.game_classes)),
                )
                found.setdefault((line.metric, code, line.value, line.game_classes), line)
    return sorted(found.values(), key=lambda x: (x.metric, x.jurisdiction, x.value))


def near_share(f: dict[str, Any], share: float = NEAR_MISS_SHARE) -> float | None:
    """How far below the next tier's line a threshold finding is, as a share of that
    line, when within `share` of it; else None."""
    margin, boundary = f.get("margin_to_next"), f.get("next_boundary")
    if f["kind"] != "threshold" or margin is None or not boundary:
        return None
    ratio = float(margin) / float(boundary)
    return round(ratio, 4) if 0 <= ratio <= share else None


def _near_key(f: dict[str, Any]) -> tuple:
    return (f["margin_share"], f["session_id"] or "", f["subject"])


def near_misses(findings: Iterable[dict[str, Any]], share: float = NEAR_MISS_SHARE) -> list[dict]:
    """差一点: threshold findings within `share` of the next tier's line, closest first."""
    out = []
    for f in findings:
        found = near_share(f, share)
        if found is not None:
            out.append(dict(f, margin_share=found))
    out.sort(key=_near_key)
    return out
