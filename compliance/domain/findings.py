"""审计结论: findings are data, returned and never raised.

Three kinds, each a JSON object with `kind`, `session_id`, `subject` and
`jurisdiction`: `threshold` (a tier and the line behind it), `integrity`
(the log's claim against the rules), `indeterminate` (what is missing).
They are msgspec Structs tagged by `kind`, so they encode to JSON directly.

The output contract (README, "Finding fields"): every JSON Lines line carries
`format` (`FORMAT`, bumped when a field is added, renamed or changes meaning)
and the finding's own fields; both CSVs (`audit --format csv`, `report --format
csv`) write `FIELDS`, in that order. `identity` is what one finding is across
runs: SARIF's fingerprints and any later review of findings key on it.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

import msgspec

THRESHOLD = "threshold"
INTEGRITY = "integrity"
INDETERMINATE = "indeterminate"
DUTY = "duty"

FORMAT = "compliance-finding/2"
"""The finding contract's version, on every JSON Lines line (docs/output-contract.md)."""

SESSION_FIELDS = (
    "kind",
    "session_id",
    "platform",
    "subject",
    "player",
    "name",
    "jurisdiction",
    "game",
    "date",
    "room_id",
    "owner_id",
    "tier",
    "rule",
    "metric",
    "value",
    "boundary",
    "margin",
    "next_tier",
    "margin_to_next",
    "citation",
    "statutory_penalty",
    "confidence",
    "disputed",
    "dispute_note",
    "window_start",
    "window_end",
    "check",
    "round",
    "detail",
    "missing",
    "reason",
    "fingerprint",
    "review_status",
    "waiver",
)
"""The CSV columns of a finding, alike in the audit's and the report's. `name`, `room_id`
and `owner_id` come from the stored session: the report fills them, the audit leaves
them empty; `date` is the session's day (a window's last day). `fingerprint` (the
identity's hash), `review_status` and `waiver` (the id of the waiver
covering it) are the report's: the audit leaves them empty."""

DUTY_FIELDS = (
    "severity",
    "status",
    "duty",
    "check_no",
    "instrument",
    "article",
    "account",
    "person",
    "cap",
    "events",
    "event_count",
)
"""The columns of `duty` findings, which every CSV carries after the others."""
FIELDS = SESSION_FIELDS + DUTY_FIELDS

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
    escaped_penalty: str | None = None
    escaped_statutory_penalty: str | None = None
    elements: list[str] = []
    elements_missing: list[str] = []
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


class IndeterminateFinding(_Finding, kw_only=True, tag=INDETERMINATE, omit_defaults=True):
    """未能判定: what is missing; a window's (owners, platforms) also says which window."""

    player: str | None
    game: str
    missing: str
    reason: str
    window_start: str | None = None
    window_end: str | None = None
    session_count: int | None = None
    sessions: list[str] = []

    @property
    def kind(self) -> str:
        return INDETERMINATE


class DutyEvent(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """An event behind a duty finding: its id (a ledger event's or a session's), time,
    type and amounts; for a signal, the other account and the room where there is one."""

    id: str
    at: str
    type: str
    yuan: Decimal | None = None
    units: int | None = None
    account: str | None = None
    counterpart: str | None = None
    room: str | None = None


class DutyFinding(_Finding, kw_only=True, tag=DUTY, omit_defaults=True):
    """平台义务: a duty of the platform breached (`status` `breached`, with its severity:
    violation, signal or advisory), or not decidable (`indeterminate`, naming what is
    `missing`); for the platform, an account, a person, or a game mode (`subject`)."""

    check: str
    check_no: int
    duty: str
    severity: str
    status: str
    instrument: str
    article: str
    citation: str
    confidence: str
    date: str | None = None
    account: str | None = None
    person: str | None = None
    metric: str | None = None
    value: Decimal | None = None
    cap: Decimal | None = None
    boundary: str | None = None
    detail: str = ""
    missing: str | None = None
    reason: str | None = None
    events: list[DutyEvent] = []
    event_count: int = 0
    accounts: list[str] = []
    rooms: list[str] = []

    @property
    def kind(self) -> str:
        return DUTY


Finding = ThresholdFinding | IntegrityFinding | IndeterminateFinding | DutyFinding


def encode(finding: Finding) -> bytes:
    return _encoder.encode(finding)


def with_format(encoded: bytes, version: str = FORMAT) -> bytes:
    """A finding's JSON with `format` as its first member: one JSON Lines line."""
    return b'{"format":"' + version.encode() + b'",' + encoded[1:]


def band_of(row: dict[str, Any]) -> str:
    """The rule a finding is of: its band, or for a finding of no band its kind and what
    it is about (`threshold/below_threshold`, `integrity/payout`, `indeterminate/jurisdiction`)."""
    kind = row["kind"]
    if kind == THRESHOLD:
        return row.get("rule") or f"{THRESHOLD}/{row.get('tier')}"
    if kind == INTEGRITY:
        return f"{INTEGRITY}/{row.get('check')}"
    if kind == DUTY:
        return f"{DUTY}/{row.get('duty')}"
    return f"{INDETERMINATE}/{row.get('missing')}"


def identity(row: dict[str, Any]) -> tuple[str, ...]:
    """同一结论: what makes two findings one, run after run: platform, subject, band, and
    the session, or for a window its rule and last day. An integrity finding adds its round
    and what it says (one round can break one check several ways)."""
    base = (row["platform"], row["subject"], band_of(row))
    if row["kind"] == DUTY:
        return (*base, "duty", str(row.get("status")), str(row.get("date")), str(row.get("metric")))
    if row.get("session_id") is None:
        return (*base, "window", str(row.get("rule")), str(row.get("window_end")))
    if row["kind"] == INTEGRITY:
        return (*base, "session", row["session_id"], str(row.get("round")), str(row.get("detail")))
    return (*base, "session", row["session_id"])


def fingerprint(row: dict[str, Any]) -> str:
    """The identity as a short stable hash (SHA-256 of its parts, NUL-separated)."""
    return hashlib.sha256("\0".join(identity(row)).encode()).hexdigest()[:32]
