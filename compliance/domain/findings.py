"""审计结论: findings are data, returned and never raised.

Three kinds, each a JSON object with `kind`, `session_id`, `subject` and
`jurisdiction`: `threshold` (a tier and the line behind it), `integrity`
(the log's claim against the rules), `indeterminate` (what is missing).
They are msgspec Structs tagged by `kind`, so they encode to JSON directly.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import msgspec

THRESHOLD = "threshold"
INTEGRITY = "integrity"
INDETERMINATE = "indeterminate"

_encoder = msgspec.json.Encoder(decimal_format="number")


class _Finding(msgspec.Struct, tag_field="kind"):
    session_id: str | None
    platform: str
    subject: str
    jurisdiction: str | None

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-ready dict (decimals as numbers), `kind` first."""
        return msgspec.json.decode(_encoder.encode(self))

    def to_json(self) -> bytes:
        return _encoder.encode(self)


class ThresholdFinding(_Finding, kw_only=True, tag=THRESHOLD):
    player: str | None
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
    matched: list[str] = []
    exemptions: list[str] = []
    would_be: str | None = None
    aggravations: list[str] = []
    window_start: str | None = None
    window_end: str | None = None
    session_count: int | None = None
    sessions: list[str] = []
    figures: dict[str, Decimal] = {}
    disputed: bool = False
    dispute_note: str | None = None
    scene_figure: str | None = None

    @property
    def kind(self) -> str:
        return THRESHOLD


class IntegrityFinding(_Finding, kw_only=True, tag=INTEGRITY):
    game: str
    round: int
    check: str
    detail: str
    players: list[str]
    claimed: dict[str, int] | None = None
    expected: dict[str, int] | None = None

    @property
    def kind(self) -> str:
        return INTEGRITY


class IndeterminateFinding(_Finding, kw_only=True, tag=INDETERMINATE):
    player: str | None
    game: str
    missing: str
    reason: str

    @property
    def kind(self) -> str:
        return INDETERMINATE


Finding = ThresholdFinding | IntegrityFinding | IndeterminateFinding


def encode(finding: Finding) -> bytes:
    return _encoder.encode(finding)
