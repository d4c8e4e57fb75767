"""复核与豁免: waivers (scoped, with a reason and dates) and the review status of a finding.

A waiver covers a finding when every part of its scope that is set matches the
finding and the finding's own date (its session's day, or a window's last day)
lies from the waiver's first day to its last, both included; a revoked waiver
covers nothing. A review status belongs to a finding identity (`findings.identity`)
and the tier it was given at; the same identity found later at the same or a
lower tier keeps it, a higher tier reopens it. No SQLAlchemy here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from compliance.domain.findings import INDETERMINATE, INTEGRITY, THRESHOLD, band_of
from compliance.domain.tiers import TIER_CODES, Tier

OPEN, CONFIRMED, DISMISSED, ESCALATED = "open", "confirmed", "dismissed", "escalated"
STATUSES = (OPEN, CONFIRMED, DISMISSED, ESCALATED)
STATUS_LABELS = {
    OPEN: "待复核 open",
    CONFIRMED: "已确认 confirmed",
    DISMISSED: "已驳回 dismissed",
    ESCALATED: "已上报 escalated",
}
SCOPE_PARTS = ("platform", "room", "owner", "player", "band", "jurisdiction")


@dataclass(frozen=True, slots=True)
class Scope:
    """豁免范围: the parts a waiver is limited to; None matches anything."""

    platform: str | None = None
    room: str | None = None
    owner: str | None = None
    player: str | None = None
    band: str | None = None
    jurisdiction: str | None = None

    def parts(self) -> dict[str, str]:
        return {k: v for k in SCOPE_PARTS if (v := getattr(self, k)) is not None}

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.parts().items())

    def matches(self, finding: Mapping[str, Any]) -> bool:
        subject = str(finding.get("subject") or "")
        checks = (
            (self.platform, finding.get("platform") == self.platform),
            (self.room, finding.get("room_id") == self.room),
            (
                self.owner,
                finding.get("owner_id") == self.owner or subject == f"owner:{self.owner}",
            ),
            (
                self.player,
                finding.get("player") == self.player or subject == f"player:{self.player}",
            ),
            (self.band, self.band in (band_of(dict(finding)), finding.get("rule"))),
            (self.jurisdiction, finding.get("jurisdiction") == self.jurisdiction),
        )
        return all(ok for wanted, ok in checks if wanted is not None)


@dataclass(frozen=True, slots=True)
class Waiver:
    """豁免: a scope, why, who, and the days of the findings it covers."""

    id: int
    scope: Scope
    reason: str
    actor: str
    starts: date
    until: date
    created_at: datetime | None = None
    revoked_at: datetime | None = None
    revoked_by: str | None = None
    revoke_reason: str | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def covers(self, finding: Mapping[str, Any]) -> bool:
        day = finding_day(finding)
        return (
            not self.revoked
            and day is not None
            and self.starts <= day <= self.until
            and self.scope.matches(finding)
        )

    def state(self, today: date) -> str:
        if self.revoked:
            return "revoked"
        if today > self.until:
            return "expired"
        return "active" if today >= self.starts else "future"


def finding_day(finding: Mapping[str, Any]) -> date | None:
    """A finding's own date: a window's last day, else its session's day."""
    text = finding.get("window_end") or finding.get("date") or finding.get("day")
    try:
        return date.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


def covering(waivers: Iterable[Waiver], finding: Mapping[str, Any]) -> Waiver | None:
    """The first (oldest) waiver that covers the finding, or None."""
    return next((w for w in waivers if w.covers(finding)), None)


@dataclass(frozen=True, slots=True)
class Review:
    """复核状态: one finding identity's status, the tier it was given at, and who said so."""

    fingerprint: str
    status: str
    tier: str | None
    note: str
    actor: str
    at: datetime
    subject: str = ""
    band: str = ""


def tier_rank(finding: Mapping[str, Any]) -> float:
    """How serious a finding is, to compare with the one a review was given at."""
    kind = finding.get("kind")
    if kind == THRESHOLD and finding.get("tier") in TIER_CODES:
        return float(Tier.parse(str(finding["tier"])))
    return {INTEGRITY: 1.6, INDETERMINATE: 1.3}.get(str(kind), 0.0)


def rank_of(tier: str | None, kind: str | None = THRESHOLD) -> float:
    return tier_rank({"kind": kind, "tier": tier})


def status_of(review: Review | None, finding: Mapping[str, Any]) -> tuple[str, bool]:
    """(status, reopened): a review's status holds while the finding is no more serious
    than when it was reviewed; above that tier the finding is open again."""
    if review is None:
        return OPEN, False
    if tier_rank(finding) > rank_of(review.tier, str(finding.get("kind"))):
        return OPEN, True
    return review.status, False
