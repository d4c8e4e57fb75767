"""汇总: breaches and indeterminates gathered per duty, subject and month, in bounded memory.

A breach keeps a count, a value (the largest or the running sum) and the first
events behind it (at most `SAMPLE`), never every event.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from compliance.domain.duties.rows import CHECKS, Duty
from compliance.domain.findings import DutyEvent, DutyFinding

SAMPLE = 10
BREACHED = "breached"
INDETERMINATE = "indeterminate"


def event(id: str, at: datetime, type: str, yuan: Decimal | None = None, units: int | None = None):
    return DutyEvent(id=id, at=at.isoformat(), type=type, yuan=yuan, units=units)


@dataclass
class Breach:
    duty: Duty
    platform: str
    subject: str
    date: str
    metric: str
    boundary: str
    cap: Decimal | None
    account: str | None = None
    person: str | None = None
    value: Decimal | None = None
    count: int = 0
    events: list[DutyEvent] = field(default_factory=list)
    detail: str = ""
    accounts: list[str] = field(default_factory=list)  # a signal's other accounts
    rooms: list[str] = field(default_factory=list)

    def see(self, value: Decimal | None, ev: DutyEvent | None, combine: str = "max") -> None:
        self.count += 1
        if value is not None:
            if self.value is None:
                self.value = value
            elif combine == "sum":
                self.value += value
            elif combine == "min":
                self.value = min(self.value, value)
            else:
                self.value = max(self.value, value)
        if ev is not None and len(self.events) < SAMPLE:
            self.events.append(ev)

    def finding(self) -> DutyFinding:
        d = self.duty
        return DutyFinding(
            session_id=None,
            platform=self.platform,
            subject=self.subject,
            jurisdiction=None,
            **of_duty(d),
            duty=d.id,
            status=BREACHED,
            date=self.date,
            account=self.account,
            person=self.person,
            metric=self.metric,
            value=self.value,
            cap=self.cap,
            boundary=self.boundary,
            detail=self.detail or f"{self.count} × {self.metric}",
            events=self.events,
            event_count=self.count,
            accounts=sorted(self.accounts),
            rooms=sorted(self.rooms),
        )


class Collector:
    """Breaches by (duty, platform, subject, period), and what could not be decided."""

    def __init__(self) -> None:
        self.breaches: dict[tuple[str, str, str, str], Breach] = {}
        self.unknown: dict[tuple[str, str, str], int] = {}
        self.reasons: dict[tuple[str, str, str], str] = {}
        self.checked: set[tuple[str, str]] = set()  # (check, platform) with inputs to judge

    def breach(self, duty: Duty, platform: str, subject: str, period: str, **fields) -> Breach:
        key = (duty.id, platform, subject, period)
        found = self.breaches.get(key)
        if found is None:
            found = self.breaches[key] = Breach(duty, platform, subject, period, **fields)
        return found

    def cannot(self, check: str, platform: str, missing: str, reason: str, n: int = 1) -> None:
        """One more case of `check` on `platform` that `missing` keeps from being decided."""
        key = (check, platform, missing)
        self.unknown[key] = self.unknown.get(key, 0) + n
        self.reasons[key] = reason

    def findings(self, duties: dict[str, Duty]) -> Iterator[DutyFinding]:
        for key in sorted(self.breaches):
            yield self.breaches[key].finding()
        for (check, platform, missing), n in sorted(self.unknown.items()):
            yield indeterminate(
                duties[check], platform, missing, self.reasons[(check, platform, missing)], n
            )

    def statuses(self) -> dict[str, str]:
        """Each check's status over the run: breached, indeterminate, or held."""
        out: dict[str, str] = {}
        for b in self.breaches.values():
            out[b.duty.check] = BREACHED
        for check, _, _ in self.unknown:
            out.setdefault(check, INDETERMINATE)
        for check, _ in self.checked:
            out.setdefault(check, "held")
        return {c: out[c] for c in CHECKS if c in out}


def indeterminate(duty: Duty, platform: str, missing: str, reason: str, n: int) -> DutyFinding:
    """未能判定: `n` cases of a check that `missing` keeps from being decided; `duty` names
    the check, and the instrument is that of the check's first row."""
    return DutyFinding(
        session_id=None,
        platform=platform,
        subject=f"platform:{platform}",
        jurisdiction=None,
        **of_duty(duty),
        duty=duty.check,
        status=INDETERMINATE,
        missing=missing,
        reason=reason,
        event_count=n,
    )


def of_duty(duty: Duty) -> dict[str, Any]:
    """What every finding of a duty row says of the row: its check, severity, instrument."""
    return {
        "check": duty.check,
        "check_no": duty.number,
        "severity": duty.severity,
        "instrument": duty.instrument,
        "article": duty.article,
        "citation": duty.citation,
        "confidence": duty.confidence,
    }
