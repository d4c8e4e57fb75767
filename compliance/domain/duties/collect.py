"""汇总: breaches and indeterminates gathered per duty, subject and month, in bounded memory.

A breach keeps a count, a value (the largest or the running sum) and the first
events behind it (at most `SAMPLE`, each with its place in the ledger so that the
breaches of one subject found by several workers merge in ledger order), never
every event. Its detail may be a template filled in when the finding is made, so
that a breach seen a million times formats its text once.
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


def ledger_event(e: Any) -> DutyEvent:
    """A ledger event as a finding names it."""
    return DutyEvent(id=e.id, at=e.at.isoformat(), type=e.type, yuan=e.yuan, units=e.units)


@dataclass(slots=True)
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
    accounts: list[str] | None = None  # a signal's other accounts, made when first named
    rooms: list[str] | None = None
    form: tuple[str, dict[str, Any]] | None = None  # a detail template, filled in at the end
    seqs: list[int] = field(default_factory=list)  # each sampled event's place in the ledger
    seq: int = 0  # the place of the event being seen (Collector.seq)
    combine: str = "max"  # how its values combine: max, min or sum

    def others(self) -> list[str]:
        """The signal's other accounts, made on first use (most breaches name none)."""
        if self.accounts is None:
            self.accounts = []
        return self.accounts

    def room_list(self) -> list[str]:
        if self.rooms is None:
            self.rooms = []
        return self.rooms

    def see(self, value: Decimal | None, ev: DutyEvent | None, combine: str = "max") -> None:
        self._count(value, combine)
        if ev is not None and len(self.events) < SAMPLE:
            self.events.append(ev)
            self.seqs.append(self.seq)

    def take(self, value: Decimal | None, e: Any, combine: str = "max") -> None:
        """`see` a ledger event, made into a finding's event only if it is sampled."""
        self.count += 1
        self.combine = combine
        if value is not None:
            held = self.value
            if held is None:
                self.value = value
            elif combine == "sum":
                self.value = held + value
            elif combine == "min":
                self.value = min(held, value)
            else:
                self.value = max(held, value)
        if len(self.events) < SAMPLE:
            self.events.append(ledger_event(e))
            self.seqs.append(self.seq)

    def take_max(self, values: list[Any], events: list[Any], seqs: list[int]) -> None:
        """`take(value, e, "max")` of each event in turn, at once (values not None): the
        first of equal largest values kept, as the one-at-a-time fold keeps it."""
        self.count += len(events)
        self.combine = "max"
        held = self.value
        self.value = max(values) if held is None else max(held, max(values))
        room = SAMPLE - len(self.events)
        if room > 0:
            self.events.extend(map(ledger_event, events[:room]))
            self.seqs.extend(seqs[:room])
        self.seq = seqs[-1]

    def _count(self, value: Decimal | None, combine: str) -> None:
        self.count += 1
        self.combine = combine
        if value is not None:
            if self.value is None:
                self.value = value
            elif combine == "sum":
                self.value += value
            elif combine == "min":
                self.value = min(self.value, value)
            else:
                self.value = max(self.value, value)

    def merge(self, other: Breach) -> None:
        """Another worker's part of the same breach: counts and values combined, the
        first events in ledger order kept."""
        count = self.count
        if other.value is not None:
            self._count(other.value, other.combine)
        self.count = count + other.count
        pairs = sorted(
            zip(self.seqs + other.seqs, self.events + other.events, strict=True),
            key=lambda pair: pair[0],
        )[:SAMPLE]
        self.seqs = [s for s, _ in pairs]
        self.events = [ev for _, ev in pairs]

    def text(self) -> str:
        if self.form is not None:
            template, more = self.form
            return template.format(count=self.count, value=self.value, **more)
        return self.detail or f"{self.count} × {self.metric}"

    def finding(self) -> DutyFinding:
        d = self.duty
        return DutyFinding(
            session_id=None,
            platform=self.platform,
            subject=self.subject,
            jurisdiction=None,
            **duty_fields(d),
            duty=d.id,
            status=BREACHED,
            date=self.date,
            account=self.account,
            person=self.person,
            metric=self.metric,
            value=self.value,
            cap=self.cap,
            boundary=self.boundary,
            detail=self.text(),
            events=self.events,
            event_count=self.count,
            accounts=sorted(self.accounts) if self.accounts else [],
            rooms=sorted(self.rooms) if self.rooms else [],
        )


class Collector:
    """Breaches by (duty, platform, subject, period), and what could not be decided."""

    def __init__(self) -> None:
        self.breaches: dict[tuple[str, str, str, str], Breach] = {}
        self.unknown: dict[tuple[str, str, str], int] = {}
        self.reasons: dict[tuple[str, str, str], str] = {}
        self.checked: set[tuple[str, str]] = set()  # (check, platform) with inputs to judge
        self.seq = 0  # the place in the ledger of the event being checked

    def breach(self, duty: Duty, platform: str, subject: str, period: str, **fields) -> Breach:
        key = (duty.id, platform, subject, period)
        found = self.breaches.get(key)
        if found is None:
            found = self.breaches[key] = Breach(duty, platform, subject, period, **fields)
        found.seq = self.seq
        return found

    def new(
        self,
        duty: Duty,
        platform: str,
        subject: str,
        period: str,
        metric: str,
        boundary: str,
        cap: Decimal | None,
        account: str | None = None,
        person: str | None = None,
    ) -> Breach:
        """`breach` where `found` has just told that there is none under these."""
        made = self.breaches[(duty.id, platform, subject, period)] = Breach(
            duty, platform, subject, period, metric, boundary, cap, account, person
        )
        made.seq = self.seq
        return made

    def found(self, duty: Duty, platform: str, subject: str, period: str) -> Breach | None:
        """The breach gathered so far under these, if any (no fields built to look)."""
        found = self.breaches.get((duty.id, platform, subject, period))
        if found is not None:
            found.seq = self.seq
        return found

    def absorb(self, other: Collector) -> None:
        """Another worker's collector: breaches of one key merged, cases that could not be
        decided summed."""
        for key, b in other.breaches.items():
            mine = self.breaches.get(key)
            if mine is None:
                self.breaches[key] = b
            else:
                mine.merge(b)
        for case, n in other.unknown.items():
            self.unknown[case] = self.unknown.get(case, 0) + n
        self.reasons.update(other.reasons)
        self.checked |= other.checked

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


_FIELDS: dict[int, tuple[Duty, dict[str, Any]]] = {}


def duty_fields(duty: Duty) -> dict[str, Any]:
    """`of_duty`, made once per row (a run makes a finding per breach, of a few rows)."""
    held = _FIELDS.get(id(duty))
    if held is None or held[0] is not duty:
        if len(_FIELDS) > 4096:
            _FIELDS.clear()
        held = _FIELDS[id(duty)] = (duty, of_duty(duty))
    return held[1]


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
