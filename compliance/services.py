"""Use cases: audit logs, seed the rules. Each takes a unit of work.

The CLI parses options and calls one function here; tests call them with a
fake unit of work.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Protocol

from compliance import ruledata
from compliance.domain.audited import AuditedSession, Totals, add_session
from compliance.domain.classifier import Classifier, ClassifierOptions
from compliance.domain.findings import Finding
from compliance.domain.rules import RuleBook
from compliance.domain.ruleset import Resolver
from compliance.domain.windows import judge_window
from compliance.errors import ConfigError, JurisdictionError, LogError
from compliance.logs.reader import Reject
from compliance.partitions import StoredSession, judge_in_parallel, judge_on_dask
from compliance.pipeline import Auditor, few_collections


class UnitOfWork(Protocol):
    def __enter__(self) -> UnitOfWork: ...
    def __exit__(self, *exc) -> None: ...
    def commit(self) -> None: ...
    def load_rules(self) -> RuleBook: ...
    def has_rules(self) -> bool: ...
    def save_rules(self, book: RuleBook) -> dict[str, tuple[int, int]]: ...
    def start_run(self, files: list[str], as_of: date | None, options: dict[str, Any]) -> int: ...
    def finish_run(self, run_id: int, sessions: int, rejects: int, summary: dict) -> None: ...
    def store_sessions(self, run_id: int, batch: list[AuditedSession]) -> None: ...
    def stored_of_run(self, run_id: int) -> int: ...
    def refresh_statistics(self) -> None: ...
    def store_rejects(self, run_id: int, rejects: Iterable[Reject]) -> None: ...
    def window_figures(
        self, platforms: set[str], start: date, end: date, run_id: int | None = None
    ) -> list: ...
    def sessions_behind(self, figures) -> list[str]: ...
    def store_window_findings(self, run_id: int, findings: list) -> None: ...


def seed_rules(uow: UnitOfWork, root: Path = ruledata.DATA_DIR) -> dict[str, tuple[int, int]]:
    """Load data/ into the database; idempotent (rows are upserted by id)."""
    book = ruledata.load_book(root)
    with uow:
        counts = uow.save_rules(book)
        uow.commit()
    return counts


@dataclass(frozen=True)
class AuditOptions:
    jurisdiction: str | None = None
    as_of: date | None = None
    strict: bool = False
    batch_size: int = 1000
    workers: int = 1
    dask: str | None = None
    window_days: int = 180
    priors: dict[tuple[str, str], tuple[date, ...]] = field(default_factory=dict)
    classifier: ClassifierOptions = field(default_factory=ClassifierOptions)


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
    totals: Totals = field(default_factory=dict)
    platforms: set[str] = field(default_factory=set)
    last_day: date | None = None
    windows: int = 0
    repeated: int = 0

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
            "players": len(self.totals),
            "windows": self.windows,
            "findings": dict(self.kinds),
            "tiers": dict(self.tiers),
            "integrity": dict(self.checks),
            "repeated_sessions": self.repeated,
        }


def make_auditor(book: RuleBook, options: AuditOptions) -> Auditor:
    for group, chosen in options.classifier.versions.items():
        members = sorted(i.id for i in book.instruments.values() if i.version_group == group)
        if chosen not in members:
            raise ConfigError(
                f"--rule-version {group}={chosen}: "
                + (f"choose one of {', '.join(members)}" if members else "no such version group")
            )
    resolver = Resolver(book, options.classifier.versions)
    if options.jurisdiction:
        try:
            resolver.lookup(options.jurisdiction)
        except JurisdictionError as exc:
            raise ConfigError(
                f"--jurisdiction: {exc} (a code, name or alias: 430000, hunan, 湖南)"
            ) from None
    return Auditor(
        classifier=Classifier(resolver, options.classifier),
        game_classes={code: g.game_class for code, g in book.game_types.items()},
        default_jurisdiction=options.jurisdiction,
        as_of=options.as_of,
        priors=options.priors,
    )


def ensure_rules(uow: UnitOfWork, root: Path = ruledata.DATA_DIR) -> RuleBook:
    """The stored rule book, seeded from data/ first if the database has none."""
    if not uow.has_rules():
        uow.save_rules(ruledata.load_book(root))
        uow.commit()
    return uow.load_rules()


def _ignore(_finding) -> None:
    pass


def audit(
    uow: UnitOfWork,
    files: list[str],
    options: AuditOptions,
    on_finding: Callable[[Finding], None] = _ignore,
    on_session: Callable[[AuditedSession | Reject], None] = lambda s: None,
) -> AuditSummary:
    """Audit log files: judge every session, store results in batches, count.

    With `workers` > 1 the files are split into byte ranges audited on a
    process pool; results come back in file order, so the run stores and
    prints exactly what a serial run would. With `strict`, the first reject
    stops the run with LogError and nothing of the run is kept.
    """
    summary = AuditSummary()
    with uow, few_collections():
        book = ensure_rules(uow)
        run_id = uow.start_run(files, options.as_of, _options_record(options))
        summary.run_id = run_id
        batch: list[AuditedSession] = []
        rejects: list[Reject] = []
        parallel_store = (options.workers > 1 or bool(options.dask)) and not options.strict
        store_url = getattr(uow, "worker_url", lambda: None)() if parallel_store else None
        if store_url:
            uow.commit()
        with_findings = on_finding is not _ignore
        for item in _judged(book, files, options, summary.totals, run_id, store_url, with_findings):
            on_session(item)
            if isinstance(item, Reject):
                if options.strict:
                    raise LogError(item.describe())
                summary.rejects += 1
                if len(summary.reject_list) < 100:
                    summary.reject_list.append(item)
                rejects.append(item)
                continue
            summary.count(item)
            if on_finding is not _ignore:
                for finding in item.findings:
                    on_finding(finding)
            if isinstance(item, StoredSession):
                continue
            batch.append(item)
            if len(batch) >= options.batch_size:
                _flush(uow, run_id, batch, rejects)
        _flush(uow, run_id, batch, rejects)
        uow.refresh_statistics()
        summary.repeated = summary.sessions - uow.stored_of_run(run_id)
        for finding in judge_windows(uow, book, options, summary):
            summary.count_finding(finding)
            on_finding(finding)
        uow.finish_run(run_id, summary.sessions, summary.rejects, summary.as_dict())
        uow.commit()
    return summary


def _judged(
    book: RuleBook,
    files: list[str],
    options: AuditOptions,
    totals: Totals,
    run_id: int | None = None,
    store_url: str | None = None,
    with_findings: bool = True,
):
    """Judged sessions and rejects in file order, serially or from a process pool
    (compliance.partitions); per-player totals are summed as they are judged."""
    auditor = make_auditor(book, options)
    if options.dask:
        yield from judge_on_dask(
            options.dask,
            auditor,
            files,
            options.workers,
            totals,
            run_id,
            store_url,
            with_findings,
        )
        return
    if options.workers > 1:
        yield from judge_in_parallel(
            auditor, files, options.workers, totals, run_id, store_url, with_findings
        )
        return
    for path in files:
        for item in auditor.audit_file(path):
            if not isinstance(item, Reject):
                add_session(totals, item)
            yield item


def judge_windows(uow: UnitOfWork, book: RuleBook, options: AuditOptions, summary: AuditSummary):
    """Window findings from the stored sessions, for the run's room owners, platforms and
    players: those it did not meet keep the findings of the runs that did."""
    end = options.as_of or summary.last_day
    if end is None or not summary.platforms or options.window_days <= 0:
        return []
    start = end - timedelta(days=options.window_days - 1)
    classifier = make_auditor(book, options).classifier
    findings = []
    for figures in uow.window_figures(summary.platforms, start, end, summary.run_id):
        finding = judge_window(classifier, figures)
        if finding is None:
            continue
        if finding.rule is not None:
            finding.sessions = uow.sessions_behind(figures)
        findings.append(finding)
    uow.store_window_findings(summary.run_id, findings)
    summary.windows = len(findings)
    return findings


def _flush(uow: UnitOfWork, run_id: int, batch: list, rejects: list) -> None:
    uow.store_sessions(run_id, batch)
    uow.store_rejects(run_id, rejects)
    uow.commit()
    batch.clear()
    rejects.clear()


def _options_record(options: AuditOptions) -> dict[str, Any]:
    return {
        "jurisdiction": options.jurisdiction,
        "as_of": options.as_of.isoformat() if options.as_of else None,
        "strict": options.strict,
        "win_loss_scope": options.classifier.win_loss_scope,
        "versions": options.classifier.versions,
        "window_days": options.window_days,
    }
