"""工作单元: the one abstract unit of work, and the repositories it holds.

Use cases take a unit of work (or a factory of them, where a worker process
opens its own); `compliance.db.unit_of_work` implements it on SQL, tests on
lists in memory (tests/fakes.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from types import TracebackType
from typing import Any, Protocol

from compliance.db.trail import Verdict
from compliance.domain.audited import AuditedSession
from compliance.domain.ledger import Ledger
from compliance.domain.rules import RuleBook
from compliance.domain.windows import WindowFigures, WindowFinding
from compliance.logs.reader import Reject
from compliance.reporting.facts import ReportQuery, ReportSource

StoredRow = dict[str, Any]


class RulesRepository(Protocol):
    """规则库: the rule book in force, with who changed it and why."""

    def has_any(self) -> bool: ...
    def load(self) -> RuleBook: ...
    def hold_lock(self) -> None: ...
    def save(
        self, book: RuleBook, actor: str | None, reason: str
    ) -> dict[str, tuple[int, int]]: ...


class RunsRepository(Protocol):
    """审计运行: runs, the sessions and rejects they store, and the stored sessions."""

    def start(self, files: list[str], as_of: date | None, options: dict[str, Any]) -> int: ...
    def finish(self, run_id: int, sessions: int, rejects: int, summary: dict) -> None: ...
    def store_sessions(self, run_id: int, batch: list[AuditedSession]) -> None: ...
    def store_rejects(self, run_id: int, rejects: Iterable[Reject]) -> None: ...
    def count_stored(self, run_id: int) -> int: ...
    def count_repeated(self, run_id: int) -> int: ...
    def refresh_statistics(self) -> None: ...
    def stored_sessions(self) -> Iterable[tuple[StoredRow, list[StoredRow]]]: ...
    def count_sessions(self) -> int: ...


class WindowsRepository(Protocol):
    """累计: sums over the stored sessions of a window, and the findings made of them."""

    def figures(
        self, platforms: set[str], start: date, end: date, run_id: int | None = None
    ) -> list[WindowFigures]: ...
    def ledgers(
        self,
        platforms: set[str],
        end: date | None,
        read_from: date | None = None,
        run_id: int | None = None,
    ) -> Iterable[Ledger]: ...
    def sessions_behind(self, figures: WindowFigures) -> list[str]: ...
    def store_findings(self, run_id: int, findings: list[WindowFinding]) -> None: ...
    def scope(self) -> tuple[set[str], date | None]: ...


class TrailRepository(Protocol):
    """变更记录: the hash-chained trail of the rule tables."""

    def verify(self) -> Verdict: ...
    def entries(self, limit: int | None = None) -> list[dict[str, Any]]: ...


class ReportsRepository(Protocol):
    """报告查询: the stored rows a report selects."""

    def latest_run(self) -> int: ...
    def descendants(self, code: str) -> tuple[str, ...]: ...
    def fetch(self, query: ReportQuery) -> ReportSource: ...


class UnitOfWork(Protocol):
    """工作单元: one transaction's worth of storage; `commit()` ends it and starts another.

    Leaving the block without a commit rolls back what is pending.
    """

    @property
    def rules(self) -> RulesRepository: ...
    @property
    def runs(self) -> RunsRepository: ...
    @property
    def windows(self) -> WindowsRepository: ...
    @property
    def trail(self) -> TrailRepository: ...
    @property
    def reports(self) -> ReportsRepository: ...

    def __enter__(self) -> UnitOfWork: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
        /,
    ) -> None: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def worker_factory(self) -> UnitOfWorkFactory | None:
        """A picklable factory of units of work on this same store for worker processes,
        or None where they cannot reach it (an in-memory database, a fake)."""
        ...


UnitOfWorkFactory = Callable[[], UnitOfWork]


class Store(Protocol):
    """A unit-of-work factory that can say where it keeps the data, for messages."""

    def __call__(self) -> UnitOfWork: ...
    def where(self) -> str: ...
