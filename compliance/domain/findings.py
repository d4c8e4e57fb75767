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

# What a threshold finding says of its line rather than of its player: the same
# long texts for every player the line fits, so storage keeps them once.
LINE_FIELDS = (
    "tier_label",
    "instrument",
    "citation",
    "article",
    "penalty",
    "statutory_penalty",
    "statutory_citation",
    "dispute_note",
)
FIELD_ORDER = {name: i for i, name in enumerate(("kind", *ThresholdFinding.__struct_fields__))}


def own_part(finding: ThresholdFinding) -> dict[str, Any]:
    """A threshold finding without its line's texts (`LINE_FIELDS`); `rejoined` orders it."""
    own = msgspec.structs.asdict(finding)
    for name in LINE_FIELDS:
        del own[name]
    own["kind"] = THRESHOLD
    return own


def line_part(finding: ThresholdFinding) -> tuple:
    """The values of its `LINE_FIELDS`, in order."""
    return tuple(getattr(finding, name) for name in LINE_FIELDS)


def rejoined(own: dict[str, Any], line: dict[str, Any] | None) -> dict[str, Any]:
    """A stored finding whole again: its own part and its line's, in the fields' order."""
    if not line:
        return own
    whole = {**own, **line}
    return dict(sorted(whole.items(), key=lambda kv: FIELD_ORDER.get(kv[0], len(FIELD_ORDER))))


def encode(finding: Finding) -> bytes:
    return _encoder.encode(finding)


def json_text(value) -> str:
    """JSON text of a finding or any plain value; decimals as numbers."""
    return _encoder.encode(value).decode()


_finding_decoder = msgspec.json.Decoder(Finding)


class EncodedFinding:
    """已编码的结论: a finding as a worker encoded it, decoded only when a field other
    than its kind, tier or check is read, and written out as it came."""

    __slots__ = ("_json", "_decoded", "kind", "tier", "check")

    def __init__(self, json: bytes, kind: str, tier: str | None, check: str | None):
        self._json, self._decoded = json, None
        self.kind, self.tier, self.check = kind, tier, check

    def to_json(self) -> bytes:
        return self._json

    def to_dict(self) -> dict[str, Any]:
        return msgspec.json.decode(self._json)

    def decoded(self) -> Finding:
        if self._decoded is None:
            self._decoded = _finding_decoder.decode(self._json)
        return self._decoded

    def __getattr__(self, name: str):
        return getattr(self.decoded(), name)
