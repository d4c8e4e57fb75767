"""Real pipes and FIFOs into `compliance audit`, and a reader that goes away (issue #19, §1),
run as a user runs them: a separate process, on SQLite and on PostgreSQL."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from compliance.games import game_codes
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.conftest import SAMPLES

BAD = SAMPLES / "bad.jsonl"
DOUNIU = SAMPLES / "douniu.jsonl"
COMPLIANCE = [sys.executable, "-m", "compliance"]
SPOOL_NOTE = (
    "spooling {name} to a temporary file so that the workers can split it (a stream cannot "
    "be read by offsets); it is removed after the run\n"
)


def count(url: str, sql: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = conn.execute(text(sql)).scalar_one()
    engine.dispose()
    return found


def rejects_of_bad(name: str) -> str:
    return (
        f"reject: {name}:2 session cut-1: malformed JSON: Input data was truncated\n"
        f"reject: {name}:3 session dup-card: round 2: duplicate card D5\n"
        f"reject: {name}:4 session mystery-game: unknown game 'zhajinhua' "
        f"(known: {', '.join(game_codes())})\n"
    )


def feed(path: Path, data: bytes) -> threading.Thread:
    """Write `data` into the FIFO at `path` from a thread, as another program would."""

    def write() -> None:
        with open(path, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def test_zcat_into_audit_dash_works_and_gates(any_db_url):
    done = subprocess.run(
        [*COMPLIANCE, "audit", "-", "--fail-on", "administrative", "--db", any_db_url],
        input=gzip.compress(DOUNIU.read_bytes()),
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 3, done.stderr.decode()
    assert done.stderr.decode().startswith("audited 8 sessions, 0 rejected; ")
    assert count(any_db_url, "select count(*) from sessions where source_file = '-'") == 8


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_fifo_is_read_whole_and_with_workers_spooled(any_db_url, tmp_path, workers):
    fifo = tmp_path / "logs.fifo"
    os.mkfifo(fifo)
    writer = feed(fifo, BAD.read_bytes())
    done = subprocess.run(
        [*COMPLIANCE, "audit", str(fifo), "--workers", workers, "--db", any_db_url],
        capture_output=True,
        text=True,
        timeout=300,
    )
    writer.join(timeout=10)
    note = SPOOL_NOTE.format(name=fifo) if workers == "2" else ""
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(note + rejects_of_bad(str(fifo)) + "audited 1 session, ")
    assert count(any_db_url, "select count(*) from rejects") == 3
    assert count(any_db_url, f"select count(*) from sessions where source_file = '{fifo}'") == 1


@pytest.mark.skipif(shutil.which("bash") is None, reason="process substitution needs bash")
def test_dev_stdin_and_process_substitution_are_read(sqlite_url):
    script = (
        '"$0" -m compliance audit /dev/stdin --db "$1" < <(gzip -c "$2") && '
        '"$0" -m compliance audit <(cat "$2") --db "$1"'
    )
    done = subprocess.run(
        ["bash", "-c", script, sys.executable, sqlite_url, str(DOUNIU)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Illegal seek" not in done.stderr
    assert count(sqlite_url, "select count(*) from sessions") == 8
    assert count(sqlite_url, "select count(*) from audit_runs where finished_at is not null") == 2


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pipes") / "big.jsonl"
    write_log(SimulationSpec(games=("douniu",), sessions=200, seed=8, anomalies=0.0), str(path))
    return path


def test_head_one_cuts_the_output_and_the_whole_run_is_stored(any_db_url, big_log):
    audit = subprocess.Popen(
        [*COMPLIANCE, "audit", str(big_log), "--format", "jsonl", "--db", any_db_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    head = subprocess.run(["head", "-1"], stdin=audit.stdout, capture_output=True, timeout=300)
    assert audit.stdout is not None and audit.stderr is not None
    audit.stdout.close()
    stderr = audit.stderr.read().decode()
    assert audit.wait(timeout=300) == 0, stderr
    assert head.stdout.count(b"\n") == 1 and head.stdout.startswith(
        b'{"format":"compliance-finding/2","kind":'
    )
    assert stderr.startswith("audited 200 sessions, 0 rejected; ")
    assert stderr.endswith("; output cut: its reader closed it, the audit went on to the end\n")
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert count(any_db_url, "select count(*) from sessions") == 200
    assert count(any_db_url, "select count(*) from audit_runs where finished_at is not null") == 1
