"""A run that never reaches its end still shows, unfinished (issue #16)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import psutil
import pytest
from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import AuditRunRow, RejectRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.errors import LogError
from compliance.logs.reader import Reject
from compliance.service_layer import audit as services
from compliance.service_layer import runners
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.conftest import SAMPLES


def _stop(_item):
    raise KeyboardInterrupt


def test_a_run_stopped_before_its_first_batch_is_stored_unfinished(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    with pytest.raises(KeyboardInterrupt):
        services.audit(
            SqlUnitOfWork(engine),
            [str(SAMPLES / "douniu.jsonl")],
            services.AuditOptions(),
            on_session=_stop,
        )
    with engine.connect() as conn:
        runs = conn.execute(select(AuditRunRow.id, AuditRunRow.finished_at)).all()
    assert [tuple(r) for r in runs] == [(1, None)]
    engine.dispose()


def test_rejects_stored_in_their_own_batches_stay_when_the_run_stops(any_db_url, tmp_path):
    path = tmp_path / "rejects.jsonl"
    path.write_text("{not json\n" * 5)
    seen = []

    def stop_at_the_fifth(item):
        seen.append(item)
        if len(seen) == 5:
            raise KeyboardInterrupt

    engine = make_engine(any_db_url)
    ensure_schema(engine)
    with pytest.raises(KeyboardInterrupt):
        services.audit(
            SqlUnitOfWork(engine),
            [str(path)],
            services.AuditOptions(reject_batch_size=2),
            on_session=stop_at_the_fifth,
        )
    with engine.connect() as conn:
        lines = conn.execute(select(RejectRow.line).order_by(RejectRow.line)).scalars().all()
        finished = conn.execute(select(AuditRunRow.finished_at)).scalar_one()
    assert (lines, finished) == ([1, 2, 3, 4], None)
    engine.dispose()


def test_a_strict_run_that_stops_keeps_nothing_not_even_its_run(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    with pytest.raises(LogError):
        services.audit(
            SqlUnitOfWork(engine), [str(SAMPLES / "bad.jsonl")], services.AuditOptions(strict=True)
        )
    with engine.connect() as conn:
        assert conn.execute(select(AuditRunRow.id)).all() == []
    engine.dispose()


def _children(pid: int) -> list[int]:
    return [p.pid for p in psutil.Process(pid).children()]


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="FIFOs and /proc")
def test_pool_workers_end_when_their_parent_is_killed(tmp_path, sqlite_url):
    """Once the workers start, the test takes the database's write lock, so the run cannot
    end: only its parent's death ends a worker. (FIFOs, which did this before issue #19,
    are now spooled by the parent before any worker starts.)"""
    log = tmp_path / "big.jsonl"
    write_log(SimulationSpec(games=("douniu",), sessions=3000, seed=3), str(log))
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from compliance.cli import main; main()",
            "audit",
            str(log),
            "--workers",
            "2",
        ],
        env={**os.environ, "COMPLIANCE_DB_URL": sqlite_url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    lock = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=60)
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(parent.pid)) < 2:
            assert time.monotonic() < deadline, "the pool's workers never started"
            time.sleep(0.1)
        lock.execute("BEGIN IMMEDIATE")
        assert parent.poll() is None, "the run ended before its parent could be killed"
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        lock.close()
        parent.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_storing_workers_store_their_rejects_and_send_back_a_few(any_db_url, tmp_path):
    path = tmp_path / "rejects.jsonl"
    path.write_text("{not json\n" * 3000)
    seen = []
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    summary = services.audit(
        SqlUnitOfWork(engine), [str(path)], services.AuditOptions(workers=2), on_session=seen.append
    )
    with engine.connect() as conn:
        lines = conn.execute(select(RejectRow.line).order_by(RejectRow.line)).scalars().all()
    assert lines == list(range(1, 3001))
    assert summary.rejects == 3000
    assert [r.line for r in summary.reject_list] == list(range(1, 101))
    partitions = len(runners.partition_ranges(str(path), 2))
    back = sum(isinstance(item, Reject) for item in seen)
    assert back <= runners.REJECTS_BACK * partitions < 3000
    assert back + sum(i.count for i in seen if isinstance(i, runners.RejectsStored)) == 3000
    engine.dispose()


WATCHED_CHILD = """
import os, signal, sys, time
from compliance.service_layer import runners
from compliance.service_layer.simulate import SimulationSpec, write_log

parent = os.getpid()
if os.fork() == 0:
    sys.platform = "darwin"  # no prctl: only the watching thread can end it
    runners.die_with_parent(parent)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    time.sleep(60)
    os._exit(0)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.05)
os.kill(parent, signal.SIGKILL)
"""


def test_where_there_is_no_prctl_a_thread_ends_the_worker_with_its_parent(tmp_path):
    pid_file = tmp_path / "child.pid"
    done = subprocess.run([sys.executable, "-c", WATCHED_CHILD, str(pid_file)], timeout=60)
    assert done.returncode == -signal.SIGKILL
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(child)
    if alive:
        os.kill(child, signal.SIGKILL)
    assert not alive
