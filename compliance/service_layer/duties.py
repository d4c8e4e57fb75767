"""平台义务审计: the platform's duties checked beside a run's sessions.

Runs only when the audit is given an accounts file, a ledger or a platform
configuration; then the duty rows are seeded from data/duties.toml on first use
(in the trail), the records are read with the session reader's bounds and
rejects (stored with the run like a session's), the run's session files are read
once more for who played when, and the findings are stored with the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from compliance.domain.duties.engine import DutyAudit, DutyOptions, Play, Sitting
from compliance.domain.duties.rows import DutyBook
from compliance.domain.findings import DutyFinding
from compliance.dutydata import duties_path, load_duties
from compliance.errors import LogError
from compliance.logs.platform_reader import Record, event_blocks, read_records
from compliance.logs.platform_records import ACCOUNTS, CONFIG
from compliance.logs.reader import Located, Reject, read_sessions
from compliance.logs.records import Session
from compliance.logs.round_money import round_money
from compliance.service_layer.duty_workers import PartResult, PartSpec, run_parts
from compliance.service_layer.unit_of_work import UnitOfWork, UnitOfWorkFactory
from compliance.streams import is_stream

FIRST_USE = "first use: seeded from data/duties.toml"
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


def ensure_duties(uow: UnitOfWork, actor: str | None = None) -> DutyBook:
    """The stored duty rows, seeded from data/duties.toml first if the store has none."""
    if not uow.duties.has_any():
        uow.duties.save(load_duties(duties_path()), actor, FIRST_USE)
        uow.commit()
    return uow.duties.load()


def audit_duties(
    uow: UnitOfWork,
    run_id: int,
    session_files: list[str],
    names: dict[str, str],
    inputs: DutyInputs,
    today: date,
    max_line_bytes: int,
    on_finding: Callable[[DutyFinding], None],
    strict: bool = False,
    parallel: Parallel | None = None,
) -> DutySummary:
    """Check the duties on the inputs and the run's sessions; store and pass on the
    findings; the rejects of the records are stored with the run (with `strict`, the
    first one stops the run with LogError, as a session's does). With `parallel`
    workers (or Dask) the ledger is checked in parts, one per worker, by person
    (service_layer/duty_workers.py), and the parts merged: the same findings."""
    parallel = parallel or Parallel()
    book = ensure_duties(uow)
    summary = DutySummary()
    rejects: list[Reject] = []

    def records(path: str | None, kind: str) -> Iterator[Record[Any]] | None:
        if path is None:
            return None
        items = read_records(path, kind, max_line_bytes, name=names.get(path))
        return _decoded(uow, run_id, items, summary, rejects, strict)

    accounts = records(inputs.accounts, ACCOUNTS)
    config = records(inputs.config, CONFIG)
    options = DutyOptions(today, inputs.per_account, inputs.adjusted_closed)
    engine = DutyAudit(
        book,
        options,
        (r.record for r in accounts) if accounts is not None else None,
        [r.record for r in config] if config is not None else None,
        ledger_given=inputs.ledger is not None,
    )
    for path in session_files:
        for item in read_sessions(path, max_line_bytes=max_line_bytes, name=names.get(path)):
            if isinstance(item, Located):
                s = item.session
                ids = tuple(p.id for p in s.players)
                owner = s.owner.id if s.owner is not None else None
                engine.session(s.platform, s.session_id, s.room_id, owner, ids, s.started_at)
                for player in s.players:
                    engine.play(Play(s.platform, player.id, s.session_id, s.started_at, s.ended_at))
                engine.sitting(sitting_of(s))
    ledger = inputs.ledger
    if ledger is not None and parallel.splits(ledger, strict, engine):
        _flush(uow, run_id, rejects)
        uow.commit()  # so that the workers can write their rejects
        spec = PartSpec(
            book,
            options,
            inputs.accounts,
            inputs.config,
            ledger,
            names.get(ledger, ledger),
            max_line_bytes,
            max(parallel.workers, 1),
            parallel.store,
            run_id,
            engine.signals.agents.sessions,
        )
        _absorb(uow, run_id, engine, run_parts(spec, parallel.dask), summary)
    elif ledger is not None:
        for block in event_blocks(ledger, max_line_bytes, name=names.get(ledger)):
            if isinstance(block, Reject):
                _rejected(uow, run_id, block, summary, rejects, strict)
            else:
                summary.records += len(block[1])
                engine.events(*block)
    _flush(uow, run_id, rejects)
    engine.mirrored_gains(lambda: uow.duties.session_results(run_id))
    findings = engine.finish()
    uow.duties.store_findings(run_id, findings)
    uow.commit()
    for finding in findings:
        summary.found[finding.severity if finding.status == "breached" else finding.status] += 1
        on_finding(finding)
    summary.statuses = engine.statuses()
    return summary


def sitting_of(s: Session) -> Sitting:
    """The session as checks 9 and 10 read it: room, owner and fee, the rounds' money."""
    owner = s.owner
    return Sitting(
        platform=s.platform,
        session_id=s.session_id,
        game=s.game,
        started_at=s.started_at,
        rounds=round_money(s.rounds),
        room_id=s.room_id,
        owner=owner.id if owner is not None else None,
        room_fee=owner.room_fee if owner is not None else 0,
        fee_basis=owner.fee_basis if owner is not None else "fixed",
        preset=s.variant.preset,
    )


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
    items: Iterator[Record[Any] | Reject],
    summary: DutySummary,
    rejects: list[Reject],
    strict: bool,
) -> Iterator[Record[Any]]:
    for item in items:
        if isinstance(item, Reject):
            _rejected(uow, run_id, item, summary, rejects, strict)
            continue
        summary.records += 1
        yield item


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
