"""审计选项与摘要: what a run is asked (`AuditOptions`) and what it saw (`AuditSummary`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from compliance.domain.audited import Players, count_players
from compliance.domain.classifier import ClassifierOptions
from compliance.domain.findings import DUTY, Finding
from compliance.logs.reader import MAX_LINE_BYTES, Reject
from compliance.service_layer.duties import DutyInputs, DutySummary


@dataclass(frozen=True)
class AuditOptions:
    jurisdiction: str | None = None
    as_of: date | None = None
    strict: bool = False
    batch_size: int = 1000
    reject_batch_size: int = 1000
    workers: int = 1
    dask: str | None = None
    window_days: int | None = None  # how far back windows read; None: every stored session
    cumulative_years: int | None = None  # 累计's period; None: the offence's limitation period
    priors: dict[tuple[str, str], tuple[date, ...]] = field(default_factory=dict)
    classifier: ClassifierOptions = field(default_factory=ClassifierOptions)
    max_line_bytes: int = MAX_LINE_BYTES
    latest_day: date | None = None  # None: a day after the run starts
    store_names: bool = True
    keep_lines: bool = False
    duties: DutyInputs | None = None  # the platform's own duties, when their inputs are given


@dataclass
class AuditSummary:
    """What a run saw: counts by kind and tier, and where it is stored."""

    run_id: int | None = None
    sessions: int = 0
    rejects: int = 0
    kinds: Counter = field(default_factory=Counter)
    tiers: Counter = field(default_factory=Counter)
    checks: Counter = field(default_factory=Counter)
    reject_list: list[Reject] = field(default_factory=list)
    players: Players = field(default_factory=dict)
    platforms: set[str] = field(default_factory=set)
    last_day: date | None = None
    windows: int = 0
    repeated: int = 0
    stored: int = 0  # sessions committed so far (by this process or reported by a worker)
    stored_rejects: int = 0
    duties: DutySummary | None = None  # None: no duty input was given, none was checked

    def count(self, session) -> None:
        self.sessions += 1
        self.platforms.add(session.platform)
        if self.last_day is None or session.day > self.last_day:
            self.last_day = session.day
        meta = getattr(session, "meta", None)
        if meta is None:
            meta = [
                (f.kind, getattr(f, "tier", None), getattr(f, "check", None))
                for f in session.findings
            ]
        for kind, tier, check in meta:
            self.tally(kind, tier, check)

    def count_finding(self, f: Finding) -> None:
        if f.kind == DUTY:
            self.kinds[DUTY] += 1
            return
        self.tally(f.kind, getattr(f, "tier", None), getattr(f, "check", None))

    def tally(self, kind: str, tier: str | None, check: str | None) -> None:
        self.kinds[kind] += 1
        if tier:
            self.tiers[tier] += 1
        if check:
            self.checks[check] += 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "rejects": self.rejects,
            "players": count_players(self.players),
            "windows": self.windows,
            "findings": dict(self.kinds),
            "tiers": dict(self.tiers),
            "integrity": dict(self.checks),
            "repeated_sessions": self.repeated,
        } | ({"duties": self.duties.as_dict()} if self.duties is not None else {})
