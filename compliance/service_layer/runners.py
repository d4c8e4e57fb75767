"""分区并行: the runners that judge a run's input, serially, on a process pool, or on Dask.

Every runner yields judged sessions and rejects in file order and notes the
players met, so a parallel run prints and stores what a serial run would. A parallel runner cuts the input into byte ranges (starting and ending
on line boundaries) judged by one function, `audit_partition`; given a
unit-of-work factory, each worker stores its own sessions and sends back only
their findings, as JSON.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import date
from itertools import islice, pairwise
from typing import Any, Protocol

from compliance.domain.audited import AuditedSession, Players, add_players, merge_players
from compliance.domain.encoded import EncodedFinding
from compliance.errors import ConfigError
from compliance.logs.lines import is_whole
from compliance.logs.reader import Reject
from compliance.service_layer.duty_sessions import DutySessions
from compliance.service_layer.judging import Auditor, few_collections
from compliance.service_layer.unit_of_work import UnitOfWork, UnitOfWorkFactory

PARTITION_BYTES = 16 << 20
TAIL_BYTES = 2 << 20
REJECTS_BACK = 100
"""Rejects per partition a storing worker sends back to be shown; the rest only counted."""
AHEAD = 2
"""Partitions per worker submitted ahead of the one being stored: what waits is bounded."""
PR_SET_PDEATHSIG = 1
PARENT_POLL_SECONDS = 0.5


class Runner(Protocol):
    """执行器: judges the files of a run, in file order, noting its `players` as it goes."""

    def judge(
        self,
        auditor: Auditor,
        files: list[str],
        players: Players,
        run_id: int | None = None,
        with_findings: bool = True,
    ) -> Iterator[AuditedSession | StoredSession | Reject | DutySessions]: ...

    def close(self) -> None:
        """Wait for what the runner left ending in the background (its workers' exit)."""


class SerialRunner:
    """In this process, one session after another."""

    def judge(self, auditor, files, players, run_id=None, with_findings=True):
        for path in files:
            for item in auditor.audit_file(path):
                if isinstance(item, AuditedSession):
                    add_players(players, item)
                yield item

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class PoolRunner:
    """On a pool of `workers` forked processes; with `store`, each stores what it judged.

    At most AHEAD partitions per worker are in flight, so results waiting for
    the driver take bounded memory however long the input.
    """

    workers: int
    store: UnitOfWorkFactory | None = None
    ending: list[ProcessPoolExecutor] = field(default_factory=list, compare=False, repr=False)

    def judge(self, auditor, files, players, run_id=None, with_findings=True):
        tasks = _tasks(files, self.workers, run_id, with_findings)
        context = multiprocessing.get_context("fork")
        pool = ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=_start_worker,
            initargs=(auditor, self.store, os.getpid(), context.Lock()),
        )
        try:
            waiting = iter(tasks)
            ahead = deque(
                pool.submit(_audit_partition, t) for t in islice(waiting, AHEAD * self.workers)
            )
            while ahead:
                items, partial = ahead.popleft().result()
                for task in islice(waiting, 1):
                    ahead.append(pool.submit(_audit_partition, task))
                if not ahead:  # the workers end while the driver takes the last items
                    pool.shutdown(wait=False)
                    self.ending.append(pool)
                merge_players(players, partial)
                yield from items
        finally:
            if pool not in self.ending:
                pool.shutdown(wait=True)

    def close(self) -> None:
        """The workers reaped (they end while the driver judges the windows)."""
        while self.ending:
            self.ending.pop().shutdown(wait=True)


@dataclass(frozen=True)
class DaskRunner:
    """The same partitions on a Dask cluster: `address` of its scheduler, or `local`.

    The input files and the database must be reachable from every worker.
    """

    address: str
    workers: int
    store: UnitOfWorkFactory | None = None

    def judge(self, auditor, files, players, run_id=None, with_findings=True):
        try:
            from dask.distributed import Client
        except ImportError:
            raise ConfigError("--dask needs Dask: pip install -e '.[dask]'") from None

        tasks = _tasks(files, max(self.workers, 1), run_id, with_findings)
        cluster = local_cluster(self.workers) if self.address == "local" else None
        try:
            with Client(cluster or self.address) as client:
                shared = client.scatter(auditor, broadcast=True)
                futures = client.map(
                    audit_partition,
                    [shared] * len(tasks),
                    [self.store] * len(tasks),
                    tasks,
                    pure=False,
                )
                for future in futures:
                    items, partial = future.result()
                    merge_players(players, partial)
                    yield from items
        finally:
            if cluster is not None:
                cluster.close()

    def close(self) -> None:
        pass


def local_cluster(workers: int):
    """A Dask cluster of `workers` processes here, forked from this one as the pool's are:
    they start with the modules imported, where spawned ones import them again (0.7 s of
    CPU each, in the first partition they judge)."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}):
        return LocalCluster(
            n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None
        )


def runner_for(workers: int, dask: str | None, store: UnitOfWorkFactory | None) -> Runner:
    """Dask where an address is given, a process pool for more than one worker, else serial."""
    if dask:
        return DaskRunner(dask, workers, store)
    if workers > 1:
        return PoolRunner(workers, store)
    return SerialRunner()


@dataclass(frozen=True, slots=True)
class StoredReject(Reject):
    """A reject its worker stored: the driver counts and shows it, and stores it no more."""


@dataclass(frozen=True, slots=True)
class RejectsStored:
    """Rejects of a partition its worker stored and did not send back: how many."""

    count: int


@dataclass(slots=True)
class StoredSession:
    """A session a worker judged and stored; its findings come back as JSON."""

    platform: str
    session_id: str
    day: date
    encoded: list[bytes]
    meta: list[tuple[str, str | None, str | None]]
    _findings: list[EncodedFinding] | None = None
    source: tuple[str, int] | None = None  # the file and line it was read from

    @property
    def key(self) -> tuple[str, str]:
        return (self.platform, self.session_id)

    @property
    def findings(self) -> list[EncodedFinding]:
        """Each decoded only if more than its kind, tier or check is read."""
        if self._findings is None:
            self._findings = [
                EncodedFinding(text, *meta)
                for text, meta in zip(self.encoded, self.meta, strict=True)
            ]
        return self._findings


def partition_ranges(path: str, workers: int) -> list[tuple[int, int | None]]:
    """Byte ranges in falling sizes (guided scheduling): each a 2×workers-th of what is
    left, at most PARTITION_BYTES so memory stays flat, at least an 8×workers-th of
    the file or TAIL_BYTES, whichever is smaller.

    The first ranges differ in size, so the workers' first writes do not collide
    on the database; the last are short, so the workers finish together (a
    timeline of equal ranges showed one worker idle 0.15 s at the end).
    """
    if is_whole(path):
        return [(0, None)]
    size = os.path.getsize(path)
    smallest = max(1, min(size // (8 * workers), TAIL_BYTES))
    bounds = [0]
    while bounds[-1] < size:
        step = min(PARTITION_BYTES, max(smallest, (size - bounds[-1]) // (2 * workers)))
        bounds.append(min(size, bounds[-1] + step))
    return list(pairwise(bounds)) or [(0, None)]


Task = tuple[str, int, int | None, int | None, bool]


def _tasks(files: list[str], workers: int, run_id: int | None, with_findings: bool) -> list[Task]:
    return [
        (path, start, end, run_id, with_findings)
        for path in files
        for start, end in partition_ranges(path, workers)
    ]


_worker_auditor: Auditor | None = None
_worker_store: UnitOfWorkFactory | None = None
_write_turn: Any = nullcontext()
_stores: dict[Any, UnitOfWork] = {}


def _store(factory: UnitOfWorkFactory | None) -> UnitOfWork | None:
    """This process's unit of work on the run's database, opened once."""
    if factory is None:
        return None
    if factory not in _stores:
        _stores[factory] = factory()
    return _stores[factory]


def _start_worker(
    auditor: Auditor, store: UnitOfWorkFactory | None, parent: int, turn: Any = None
) -> None:
    """A pool worker's state; `turn`, a lock its siblings share, is taken for each write:
    the one waiting wakes as the other commits, where SQLite's busy handler sleeps and
    polls (5–45 ms late)."""
    global _worker_auditor, _worker_store, _write_turn
    die_with_parent(parent)
    _worker_auditor = auditor
    _worker_store = store
    _write_turn = turn if turn is not None else nullcontext()


def die_with_parent(parent: int) -> None:
    """随父退出: this worker ends when `parent` does, `kill -9` included.

    Linux kills it the moment the parent dies (PR_SET_PDEATHSIG); elsewhere,
    and as a second net, a thread sees the parent change and ends the process.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _audit_partition(task: Task) -> tuple[list, Players]:
    if _worker_auditor is None:
        raise RuntimeError("a pool worker audits only after _start_worker gave it the auditor")
    return audit_partition(_worker_auditor, _worker_store, task)


def audit_partition(
    auditor: Auditor, store: UnitOfWorkFactory | None, task: Task
) -> tuple[list, Players]:
    """The one function per partition: a byte range of a file, judged, with its players.

    With a store, the sessions are written here and only their findings go
    back, as JSON, when the driver wants them (`task[4]`); else just what
    they count as.
    """
    with few_collections():
        return _audit_partition_of(auditor, store, task)


def _audit_partition_of(auditor: Auditor, store: UnitOfWorkFactory | None, task: Task):
    path, start, end, run_id, with_findings = task
    uow = _store(store)
    if uow is not None and run_id is None:
        raise ValueError("a worker stores sessions only for a started run (task without run id)")
    items: list[AuditedSession | Reject | DutySessions] = []
    rejects = RejectSink(uow, run_id) if uow is not None else None
    for item in auditor.audit_file(path, start, end):
        if rejects is not None and isinstance(item, Reject):
            shown = rejects.take(item)
            if shown is not None:
                items.append(shown)
            continue
        items.append(item)
    players: Players = {}
    sessions = [item for item in items if isinstance(item, AuditedSession)]
    for item in sessions:
        add_players(players, item)
        if with_findings:
            item.encode_findings()
    if uow is None or rejects is None or run_id is None:
        return items, players
    with uow:
        prepared = uow.runs.prepare_sessions(run_id, sessions) if sessions else None
        with _write_turn:
            if prepared is not None:
                uow.runs.write_prepared(prepared)
            uow.commit()
    rejects.flush()
    back: list[StoredSession | Reject | RejectsStored | DutySessions] = [
        _stored(item, with_findings) if isinstance(item, AuditedSession) else item for item in items
    ]
    if rejects.unsent:
        back.append(RejectsStored(rejects.unsent))
    return back, players


class RejectSink:
    """A storing worker's rejects: stored a thousand at a time as they come, the first
    REJECTS_BACK of its partition sent back to be shown, the others only counted."""

    def __init__(self, uow: UnitOfWork, run_id: int | None):
        self.uow, self.run_id = uow, run_id
        self.waiting: list[Reject] = []
        self.sent = self.unsent = 0

    def take(self, reject: Reject) -> StoredReject | None:
        self.waiting.append(reject)
        if len(self.waiting) >= 1000:
            self.flush()
        if self.sent < REJECTS_BACK:
            self.sent += 1
            return StoredReject(reject.file, reject.line, reject.session_id, reject.reason)
        self.unsent += 1
        return None

    def flush(self) -> None:
        if self.waiting and self.run_id is not None:
            with self.uow:
                self.uow.runs.store_rejects(self.run_id, self.waiting)
                self.uow.commit()
        self.waiting.clear()


def _stored(item: AuditedSession, with_findings: bool) -> StoredSession:
    return StoredSession(
        item.platform,
        item.session_id,
        item.day,
        (item.encoded or []) if with_findings else [],
        [(f.kind, getattr(f, "tier", None), getattr(f, "check", None)) for f in item.findings],
        source=(item.source_file, item.source_line),
    )
