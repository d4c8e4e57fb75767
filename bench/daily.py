"""日常审计: a daily audit of new sessions into stores of a given size, CPU time.

Each store holds six-player 斗牛 sessions over 180 days, audited once and kept
under the temporary directory (built again only when the migrations change), and
is copied afresh for each timed run. The new sessions are of the day after,
on the same platform, by the same owners and players, so every window reaches
back into the store. Issue 22's target: on a 64,000-session store at most
1.25× the CPU of the same audit on an empty one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from bench.timing import Timing, median_timing, timed
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer import seeding
from compliance.service_layer.simulate import SimulationSpec, write_log

TARGET_DAILY_RATIO = 1.25
STORE_DAYS = 180
MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"


def store_spec(sessions: int) -> SimulationSpec:
    return SimulationSpec(sessions=sessions, seed=21, players=(6, 6), days=STORE_DAYS)


def daily_spec(sessions: int) -> SimulationSpec:
    start = store_spec(1).start + timedelta(days=STORE_DAYS)
    return SimulationSpec(sessions=sessions, seed=22, players=(6, 6), start=start, days=1)


def cache_dir() -> Path:
    """Where built stores are kept: named by the migrations, so a new schema builds anew."""
    names = sorted(p.name for p in MIGRATIONS.rglob("*.py"))
    key = hashlib.sha256("\n".join(names).encode()).hexdigest()[:12]
    path = Path(tempfile.gettempdir()) / "compliance-bench-stores" / key
    path.mkdir(parents=True, exist_ok=True)
    return path


def built_store(sessions: int, workers: int = 2) -> Path:
    """The cached SQLite file holding `sessions` audited sessions, built if missing."""
    path = cache_dir() / f"douniu-{sessions}.db"
    if path.exists():
        return path
    partial = path.with_suffix(".partial")
    for leftover in partial.parent.glob(partial.name + "*"):
        leftover.unlink()
    engine = make_engine(f"sqlite:///{partial}")
    ensure_schema(engine)
    seeding.seed(SqlUnitOfWork(engine))
    if sessions:
        log = partial.with_suffix(".jsonl")
        write_log(store_spec(sessions), str(log))
        options = services.AuditOptions(workers=workers)
        services.audit(SqlUnitOfWork(engine), [str(log)], options)
        log.unlink()
    engine.dispose()
    with sqlite3.connect(partial) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")
    os.replace(partial, path)
    return path


def audit_into_copy(store: Path, log: str, tmp: str) -> Timing:
    """The timing of auditing `log` (one process) into a fresh copy of `store`."""
    copy = os.path.join(tmp, "daily.db")
    shutil.copyfile(store, copy)
    written = os.open(copy, os.O_RDONLY)
    try:  # the copy's pages written out now: the audit's first sync would pay for them
        os.fsync(written)
    finally:
        os.close(written)
    engine = make_engine(f"sqlite:///{copy}")
    options = services.AuditOptions()
    timing, _ = timed(lambda: services.audit(SqlUnitOfWork(engine), [log], options))
    engine.dispose()
    for name in os.listdir(tmp):
        if name.startswith("daily.db"):
            os.unlink(os.path.join(tmp, name))
    return timing


@dataclass(frozen=True)
class DailyRun:
    """A daily audit's timing on a store of `stored` sessions."""

    stored: int
    timing: Timing


def daily_audits(sizes: list[int], new: int, runs: int) -> list[DailyRun]:
    """Median timings of auditing `new` sessions into each store size, runs interleaved."""
    stores = {n: built_store(n) for n in sizes}
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "day.jsonl")
        write_log(daily_spec(new), log)
        timings: dict[int, list[Timing]] = {n: [] for n in sizes}
        for _ in range(runs):
            for n in sizes:
                timings[n].append(audit_into_copy(stores[n], log, tmp))
    return [DailyRun(n, median_timing(timings[n])) for n in sizes]


def print_daily(runs: list[DailyRun], new: int) -> None:
    print(f"daily audit of {new:,} new sessions, one process (target ≤ {TARGET_DAILY_RATIO}×)")
    base = next((r.timing.cpu for r in runs if r.stored == 0), None)
    for r in runs:
        ratio = f", {r.timing.cpu / base:.2f}× the empty store" if base and r.stored else ""
        verdict = ""
        if base and r.stored:
            verdict = "  met" if r.timing.cpu / base <= TARGET_DAILY_RATIO else "  NOT met"
        print(f"  store of {r.stored:>6,} sessions: {r.timing.describe()}{ratio}{verdict}")
