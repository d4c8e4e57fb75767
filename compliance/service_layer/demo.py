"""演示: the whole job on one store: seed the rules, simulate a log and the platform's
records, audit them, report.

`run_demo` returns what the demo found as data (`DemoSummary`); the CLI lays
it out as the findings table by province and tier, and the duty findings by severity.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

from compliance.domain.encoded import EncodedFinding
from compliance.domain.findings import (
    DutyFinding,
    Finding,
    IndeterminateFinding,
    IntegrityFinding,
    ThresholdFinding,
)
from compliance.games import game_codes
from compliance.reporting.model import ReportQuery
from compliance.service_layer import seeding
from compliance.service_layer.simulate import SimulatedLog, SimulationSpec, write_log
from compliance.service_layer.simulate_platform import FILES, PlatformLog, write_platform
from compliance.service_layer.unit_of_work import UnitOfWorkFactory
from compliance.streams import is_stdin

if TYPE_CHECKING:  # the audit's machinery loads when the demo runs, not for its --help
    from compliance.service_layer.audit_options import AuditSummary

INDETERMINATE = "indeterminate"
DEMO_ANOMALIES = 0.01
ORGANISERS = ("owner", "platform")
DEMO_RECORDS = "demo-platform"
DUTY_COUNTS = ("violation", "signal", "advisory", INDETERMINATE)


@dataclass
class FindingTally:
    """结论统计: players by (jurisdiction, tier or indeterminate), organisers by (kind, tier),
    integrity findings by check, and the (session, round, check) each integrity finding names;
    duty findings by severity (or indeterminate), and the (duty, subject) each breach names."""

    by_place: Counter[tuple[str, str]] = field(default_factory=Counter)
    names: dict[str, str] = field(default_factory=dict)
    organisers: Counter[tuple[str, str]] = field(default_factory=Counter)
    integrity: Counter[str] = field(default_factory=Counter)
    found: set[tuple[str | None, int, str]] = field(default_factory=set)
    duties: Counter[str] = field(default_factory=Counter)
    breaches: set[tuple[str, str]] = field(default_factory=set)

    def see(self, seen: Finding | EncodedFinding) -> None:
        finding = seen.decoded() if isinstance(seen, EncodedFinding) else seen
        where = finding.jurisdiction or "-"
        if isinstance(finding, DutyFinding):
            breached = finding.status == "breached"
            self.duties[finding.severity if breached else finding.status] += 1
            if breached:
                self.breaches.add((finding.duty, finding.subject))
        elif isinstance(finding, ThresholdFinding):
            if finding.session_id is None:
                self.organisers[(finding.subject.split(":")[0], finding.tier)] += 1
            else:
                self.by_place[(where, finding.tier)] += 1
                self.names[where] = finding.jurisdiction_name
        elif isinstance(finding, IndeterminateFinding):
            self.by_place[(where, INDETERMINATE)] += 1
        elif isinstance(finding, IntegrityFinding):
            self.integrity[finding.check] += 1
            self.found.add((finding.session_id, finding.round, finding.check))

    def places(self) -> list[str]:
        """The jurisdictions with a player finding, by code."""
        return sorted({code for code, _ in self.by_place})

    def caught(self, anomalies: list[tuple[str, int, str]]) -> int:
        """How many of the injected anomalies an integrity finding names."""
        return sum(1 for anomaly in anomalies if anomaly in self.found)

    def duties_caught(self, injected: list[tuple[str, str]]) -> int:
        """How many of the injected duty breaches a breached duty finding names."""
        return sum(1 for breach in injected if breach in self.breaches)


@dataclass(frozen=True)
class DemoSummary:
    """What the demo made and found."""

    spec: SimulationSpec
    log_path: str
    log: SimulatedLog
    rule_rows: int
    tally: FindingTally
    audit: AuditSummary
    window_days: int | None
    report_path: Path
    platform: PlatformLog
    records_path: str

    @property
    def caught(self) -> int:
        return self.tally.caught(self.log.anomalies)

    @property
    def duties_caught(self) -> int:
        return self.tally.duties_caught(self.platform.injected)


def run_demo(
    uows: UnitOfWorkFactory,
    sessions: int,
    seed: int,
    log_path: str,
    report_path: str | Path = "report.html",
    stdout: IO[bytes] | None = None,
    records_path: str = DEMO_RECORDS,
) -> DemoSummary:
    """演示: seed the rules, simulate `sessions` sessions of every game with a few tampered
    rounds into `log_path` and the platform's accounts, ledger and configuration with a
    few duty breaches into the folder `records_path`, audit them together, and write the
    run's HTML report to `report_path`. A `log_path` of `-` writes the log to `stdout`;
    the run names it `-`."""
    from compliance.service_layer import audit as audit_cases
    from compliance.service_layer import reports as report_cases
    from compliance.service_layer.duties import DutyInputs

    counts = seeding.seed(uows())
    spec = SimulationSpec(
        games=tuple(game_codes()), sessions=sessions, seed=seed, anomalies=DEMO_ANOMALIES
    )
    tally = FindingTally()
    accounts, ledger, config = (os.path.join(records_path, name) for name in FILES)
    options = audit_cases.AuditOptions(duties=DutyInputs(accounts, ledger, config))
    with ExitStack() as stack:
        written = log_path
        if is_stdin(log_path):
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="compliance-demo-"))
            written = os.path.join(folder, "demo-sessions.jsonl")
        made = write_log(spec, written)
        platform = write_platform(written, records_path, seed, DEMO_ANOMALIES)
        if written != log_path:
            if stdout is None:
                raise ValueError("a demo log written to standard output needs the stream")
            with open(written, "rb") as fh:
                shutil.copyfileobj(fh, stdout, 1 << 20)
            stdout.flush()
        summary = audit_cases.audit(
            uows(), [written], options, tally.see, names={written: log_path}
        )
    report = report_cases.make_report(uows(), ReportQuery(), summary.run_id)
    page = report_cases.write_report(report, "html", report_path).resolve()
    return DemoSummary(
        spec=spec,
        log_path=log_path,
        log=made,
        rule_rows=sum(added + updated for added, updated in counts.values()),
        tally=tally,
        audit=summary,
        window_days=options.window_days,
        report_path=page,
        platform=platform,
        records_path=records_path,
    )
