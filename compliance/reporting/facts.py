"""报告事实: what a report reads (the query and plain rows of the store) and the order
in which it shows findings. No SQLAlchemy here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from compliance.domain.review import Review, Waiver
from compliance.domain.rules import RuleBook
from compliance.domain.tiers import TIER_CODES, Tier

KINDS = ("integrity", "indeterminate")


@dataclass(frozen=True)
class ReportQuery:
    """What to report on: one run (None with dates: every run) and the filters."""

    run: int | None = None
    jurisdiction: str | None = None
    jurisdictions: tuple[str, ...] = ()
    game: str | None = None
    platform: str | None = None
    tiers: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None
    statuses: tuple[str, ...] = ()  # review statuses to keep; () keeps every finding

    @property
    def min_tier(self) -> str | None:
        ranked = [Tier.parse(t) for t in self.tiers if t in TIER_CODES]
        return min(ranked).code if ranked else None

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(t for t in self.tiers if t in KINDS)

    def describe(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "jurisdiction": self.jurisdiction,
            "game": self.game,
            "platform": self.platform,
            "tier": list(self.tiers),
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
            "status": list(self.statuses),
        }


@dataclass(frozen=True)
class RunInfo:
    id: int
    started_at: datetime | None
    files: tuple[str, ...]
    sessions: int
    rejects: int
    finished: bool = True
    manifest: dict[str, Any] | None = None  # what the run read and under what (manifest.py)


@dataclass(frozen=True)
class SessionFact:
    platform: str
    session_id: str
    game: str
    room_id: str | None
    owner_id: str | None
    day: date
    jurisdiction: str | None
    headcount: int
    scene_capital: float | None
    per_capita_capital: float | None
    replaced_by: int | None = None  # the later run that re-audited this session


@dataclass(frozen=True)
class PlayerFact:
    platform: str
    session_id: str
    player_id: str
    name: str
    jurisdiction: str | None
    single_stake: float | None
    capital: float | None


@dataclass(frozen=True)
class FindingFact:
    """A stored finding (its whole JSON) and where its session was played."""

    payload: dict[str, Any]
    day: date
    game: str
    room_id: str | None
    owner_id: str | None
    name: str = ""


@dataclass
class ReportSource:
    """What a report reads. `sessions`, `players` and `findings` are iterated once
    each, so they may stream from a database; `ordered` reads every finding
    again, most severe first, for the exports (without it `findings` must be
    a list, which is sorted)."""

    runs: list[RunInfo]
    sessions: Iterable[SessionFact]
    players: Iterable[PlayerFact]
    findings: Iterable[FindingFact]
    rejects: int
    book: RuleBook | None = None
    ordered: Callable[[], Iterator[FindingFact]] | None = None
    session_total: int | None = None  # how many `sessions` yields, where known (progress)
    waivers: list[Waiver] = field(default_factory=list)
    reviews: dict[str, Review] = field(default_factory=dict)


def severity(finding: dict[str, Any]) -> float:
    """Threshold tiers by rank; integrity and indeterminate between 赌资较大 and below."""
    kind = finding.get("kind")
    if kind == "integrity":
        return 1.6
    if kind == "indeterminate":
        return 1.3
    return float(Tier.parse(finding["tier"]))


def order_key(finding: dict[str, Any]) -> tuple[float, float, bool]:
    """Most severe first, then the larger figure, then windows (organisers) before
    sessions; otherwise by platform and session id, then in the order audited."""
    return (
        -severity(finding),
        -float(finding.get("value") or 0),
        finding.get("session_id") is not None,
    )


def enrich(fact: FindingFact) -> dict[str, Any]:
    """A finding's JSON with where and when its session was played, and the player's name."""
    return dict(
        fact.payload,
        day=fact.day.isoformat(),
        room_id=fact.room_id,
        owner_id=fact.owner_id,
        name=fact.name,
    )
