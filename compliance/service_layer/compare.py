"""两次审计的比较: how each finding identity moved between two stored runs.

Each finding of either run is keyed by its identity (`findings.fingerprint`) and
labelled by its tier (a threshold finding) or its kind; an identity one run lacks
is `absent` there. The matrix counts identities by (label in A, label in B); the
moved ones are those whose label differs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from compliance.domain.findings import THRESHOLD, band_of, fingerprint
from compliance.domain.tiers import TIER_CODES
from compliance.service_layer.unit_of_work import UnitOfWork

ABSENT = "absent"
ORDER = (*reversed(TIER_CODES), "integrity", "indeterminate", ABSENT)


@dataclass
class Comparison:
    run_a: int
    run_b: int
    matrix: Counter = field(default_factory=Counter)
    moved: list[dict[str, Any]] = field(default_factory=list)

    def labels(self) -> list[str]:
        seen = {label for pair in self.matrix for label in pair}
        return [label for label in ORDER if label in seen]

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_a": self.run_a,
            "run_b": self.run_b,
            "matrix": [
                {"a": a, "b": b, "count": n} for (a, b), n in sorted(self.matrix.items(), key=_rank)
            ],
            "moved": self.moved,
        }


def _rank(item) -> tuple[int, int]:
    (a, b), _ = item
    return ORDER.index(a), ORDER.index(b)


def label(finding: dict[str, Any]) -> str:
    return str(finding.get("tier")) if finding["kind"] == THRESHOLD else str(finding["kind"])


def compare(uow: UnitOfWork, run_a: int, run_b: int) -> Comparison:
    """The tier-migration matrix of two runs and the identities that moved, most severe
    in B first."""
    with uow:
        first = {fingerprint(f): f for f in uow.review.run_findings(run_a)}
        result = Comparison(run_a, run_b)
        for f in uow.review.run_findings(run_b):
            fp = fingerprint(f)
            before = first.pop(fp, None)
            a, b = (label(before) if before else ABSENT), label(f)
            result.matrix[(a, b)] += 1
            if a != b:
                result.moved.append(_moved(fp, f, a, b))
    for fp, f in first.items():
        result.matrix[(label(f), ABSENT)] += 1
        result.moved.append(_moved(fp, f, label(f), ABSENT))
    result.moved.sort(key=lambda m: (ORDER.index(m["b"]), ORDER.index(m["a"]), m["fingerprint"]))
    return result


def _moved(fp: str, f: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return {
        "fingerprint": fp,
        "platform": f["platform"],
        "subject": f["subject"],
        "band": band_of(f),
        "session_id": f.get("session_id"),
        "window_end": f.get("window_end"),
        "a": a,
        "b": b,
    }
