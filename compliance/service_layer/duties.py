"""平台义务审计: the platform's duties checked beside a run's sessions.

Runs only when the audit is given an accounts file, a ledger or a platform
configuration; then the duty rows are seeded from data/duties.toml on first use
(in the trail), the records are read with the session reader's bounds and
rejects (stored with the run like a session's), the sessions are seen in the audit's
own pass over them (service_layer/duty_sessions.py), and the findings are stored with
the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from compliance.domain.duties.engine import DutyAudit, DutyOptions, Play
from compliance.domain.duties.partition import shares
from compliance.domain.findings import DutyFinding
from compliance.errors import LogError
from compliance.logs.platform_reader import event_blocks, iter_records
from compliance.logs.platform_records import ACCOUNTS, CONFIG
from compliance.logs.reader import Reject
from compliance.service_layer.duty_sessions import DutySessions, sitting_of
from compliance.service_layer.duty_workers import PartResult, PartSpec, run_parts
from compliance.service_layer.seeding import ensure_duties
from compliance.service_layer.unit_of_work import UnitOfWork, UnitOfWorkFactory
from compliance.streams import is_stream

__all__ = ["DutyInputs", "DutyRun", "DutySummary", "Parallel", "sitting_of"]

BATCH = 1000


@dataclass(frozen=True)
class DutyInputs:
    """What the platform's duties are checked on, and the readings chosen."""

    accounts: str | None = None
    ledger: str | None = None
    config: str | None = None
    per_account: bool = False
    adjusted_closed: bool = False

    @property
    def given(self) -> bool:
        return bool(self.accounts or self.ledger or self.config)

    def record(self) -> dict[str, Any]:
        return {
            "accounts": self.accounts,
            "ledger": self.ledger,
            "platform_config": self.config,
            "per_account": self.per_account,
            "adjusted_closed": self.adjusted_closed,
        }


@dataclass
class DutySummary:
    """What the duties pass saw: records read, rejects, findings by severity and status,
    each check's status (held, breached, indeterminate)."""

    records: int = 0
    rejects: int = 0
    found: Counter = field(default_factory=Counter)
    statuses: dict[str, str] = field(default_factory=dict)
    reject_list: list[Reject] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "rejects": self.rejects,
            "findings": dict(self.found),
            "checks": self.statuses,
        }


class DutyRun:
    """平台义务审计的一次: the duty checks of a run, fed the audit's own pass over the
    sessions (`sessions`, the digests in file order), then the ledger (`finish`).

    Started before the sessions are judged: the duty rows seeded from data/duties.toml
    on first use, the accounts and configuration read (their rejects stored with the
    run; with `strict`, the first one stops the run with LogError, as a session's
    does). With `parallel` workers (or Dask) the ledger is checked in parts, one per
    worker, by person (service_layer/duty_workers.py), and the parts merged: the same
    findings."""

    def __init__(
        self,
        uow: UnitOfWork,
        run_id: int,
        names: dict[str, str],
        inputs: DutyInputs,
        today: date,
        max_line_bytes: int,
        strict: bool = False,
        parallel: Parallel | None = None,
    ):
        self.uow, self.run_id, self.names, self.inputs = uow, run_id, names, inputs
        self.max_line_bytes, self.strict = max_line_bytes, strict
        self.parallel = parallel or Parallel()
        self.book = ensure_duties(uow)
        self.summary = DutySummary()
        self.rejects: list[Reject] = []
        accounts = self._records(inputs.accounts, ACCOUNTS)
        config = self._records(inputs.config, CONFIG)
        self.options = DutyOptions(today, inputs.per_account, inputs.adjusted_closed)
        self.engine = DutyAudit(
            self.book,
            self.options,
            accounts,
            list(config) if config is not None else None,
            ledger_given=inputs.ledger is not None,
        )

    def _records(self, path: str | None, kind: str) -> Iterator[Any] | None:
        if path is None:
            return None
        items = iter_records(path, kind, self.max_line_bytes, name=self.names.get(path))
        return _decoded(self.uow, self.run_id, items, self.summary, self.rejects, self.strict)

    def sessions(self, batch: DutySessions) -> None:
        """A batch of the log's sessions, in file order: who played when (checks 1, 2, 5,
        16), the agents' tables (17), the rounds' fees and points (9, 10)."""
        engine = self.engine
        for d in batch.digests:
            s = d.sitting
            engine.session(s.platform, s.session_id, s.room_id, s.owner, d.players, s.started_at)
            for player in d.players:
                engine.play(Play(s.platform, player, s.session_id, s.started_at, d.ended_at))
            engine.sitting(s)

    def finish(self, on_finding: Callable[[DutyFinding], None]) -> DutySummary:
        """The ledger checked, the findings stored and passed on; the summary."""
        uow, run_id, engine, summary = self.uow, self.run_id, self.engine, self.summary
        parallel, ledger = self.parallel, self.inputs.ledger
        if ledger is not None and parallel.splits(ledger, self.strict, engine):
            _flush(uow, run_id, self.rejects)
            uow.commit()  # so that the workers can write their rejects
            spec = PartSpec(
                self.book,
                self.options,
                self.inputs.accounts,
                self.inputs.config,
                ledger,
                self.names.get(ledger, ledger),
                self.max_line_bytes,
                max(parallel.workers, 1),
                parallel.store,
                run_id,
                engine.signals.agents.sessions,
            )
            held = (
                shares(engine.accounts, spec.workers, self.options.per_account)
                if self.inputs.accounts is not None
                else None
            )
            _absorb(uow, run_id, engine, run_parts(spec, parallel.dask, held), summary)
        elif ledger is not None:
            name = self.names.get(ledger)
            for block in event_blocks(ledger, self.max_line_bytes, name=name):
                if isinstance(block, Reject):
                    _rejected(uow, run_id, block, summary, self.rejects, self.strict)
                else:
                    summary.records += len(block[1])
                    engine.events(*block)
        _flush(uow, run_id, self.rejects)
        engine.room_card_fees(lambda: uow.duties.session_results(run_id))
        engine.mirrored_gains(lambda: uow.duties.session_results(run_id))
        findings = engine.finish()
        uow.duties.store_findings(run_id, findings)
        uow.commit()
        for finding in findings:
            summary.found[finding.severity if finding.status == "breached" else finding.status] += 1
            on_finding(finding)
        summary.statuses = engine.statuses()
        return summary


@dataclass(frozen=True)
class Parallel:
    """How the ledger may be split: `workers` processes, or Dask at `dask`; `store` how a
    worker reaches the run's database (None: it sends its rejects back)."""

    workers: int = 1
    dask: str | None = None
    store: UnitOfWorkFactory | None = None

    def splits(self, ledger: str, strict: bool, engine: DutyAudit) -> bool:
        """Whether to: more than one worker or Dask, a file every worker can read (not a
        stream), not `strict` (its first reject stops the run), checks that merge."""
        wanted = self.workers > 1 or bool(self.dask)
        return wanted and not strict and not is_stream(ledger) and engine.partitionable


def _absorb(
    uow: UnitOfWork,
    run_id: int,
    engine: DutyAudit,
    results: list[PartResult],
    summary: DutySummary,
) -> None:
    """The workers' parts merged into the driver's checks; their counts and rejects."""
    shown: list[Reject] = []
    for result in results:
        engine.absorb(result.part)
        summary.records += result.records
        summary.rejects += result.rejects
        shown.extend(result.shown)
        for start in range(0, len(result.unstored), BATCH):
            uow.runs.store_rejects(run_id, result.unstored[start : start + BATCH])
    shown.sort(key=lambda r: r.line)
    summary.reject_list.extend(shown[: max(0, 100 - len(summary.reject_list))])


def _decoded(
    uow: UnitOfWork,
    run_id: int,
    items: Iterator[tuple[int, Any] | Reject],
    summary: DutySummary,
    rejects: list[Reject],
    strict: bool,
) -> Iterator[Any]:
    """The records of (line number, record) pairs, each reject stored and counted."""
    for item in items:
        if isinstance(item, Reject):
            _rejected(uow, run_id, item, summary, rejects, strict)
            continue
        summary.records += 1
        yield item[1]


def _rejected(
    uow: UnitOfWork,
    run_id: int,
    item: Reject,
    summary: DutySummary,
    rejects: list[Reject],
    strict: bool,
) -> None:
    if strict:
        raise LogError(item.describe())
    summary.rejects += 1
    if len(summary.reject_list) < 100:
        summary.reject_list.append(item)
    rejects.append(item)
    if len(rejects) >= BATCH:
        _flush(uow, run_id, rejects)


def _flush(uow: UnitOfWork, run_id: int, rejects: list[Reject]) -> None:
    uow.runs.store_rejects(run_id, rejects)
    rejects.clear()
