"""The duties over workers (issue 23, "Speed and scale"): `--workers 2` and Dask store the
duty findings, rejects and check statuses that one process does, on SQLite and PostgreSQL,
with the shipped book (the signals' rows included)."""

from __future__ import annotations

import json

import msgspec
import pytest
from click.testing import CliRunner
from sqlalchemy import select

from compliance.cli import cli
from compliance.db.engine import make_engine
from compliance.db.models import AuditRunRow, RejectRow, table_of
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import duties, judging
from compliance.service_layer.duty_workers import run_parts

RUNS, REJECTS = table_of(AuditRunRow), table_of(RejectRow)
SIGNALS = {
    "account-resale-signal",
    "fraud-reverify-signal",
    "agent-own-table-signal",
    "coin-trader-signal",
    "draw-frequencies-2016",
}
SESSION_SIDE = (  # checks 1, 2, 5, 9, 10, 16 and 17's sessions: read in the audit's pass
    "unverified_play",
    "minor_hours",
    "outcome_fees",
    "point_caps",
    "service_gaps",
    "agent_tables",
)


def simulated(tmp_path):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    made = CliRunner().invoke(
        cli,
        [
            *("simulate", "--sessions", "120", "--seed", "9", "--anomalies", "0.1"),
            *("-o", str(sessions), "--platform-records", str(records)),
        ],
    )
    assert made.exit_code == 0, made.output
    ledger = records / "ledger.jsonl"
    with ledger.open("a") as out:  # lines no worker may check twice or drop
        out.write('{"format": "ledger/1", "id": "broken"\n')
        out.write('{"format": "ledger/1", "platform": "x", "id": "e", "account": "a"}\n')
        out.write(json.dumps({"format": "ledger/1", "platform": "p"}) + "\n")
    return sessions, records


def audit(url, sessions, records, *more):
    result = CliRunner().invoke(
        cli,
        [
            *("audit", str(sessions), "--db", url, "--format", "jsonl"),
            *("--accounts", str(records / "accounts.jsonl")),
            *("--ledger", str(records / "ledger.jsonl")),
            *("--platform-config", str(records / "config.jsonl")),
            *more,
        ],
    )
    assert result.exit_code in (0, 1), result.stderr
    return result


def stored(url):
    """Each run's duty findings as stored, its checks' statuses and its ledger's rejects."""
    engine = make_engine(url)
    runs = []
    with SqlUnitOfWork(engine) as uow:
        run_ids = uow.conn.execute(select(RUNS.c.id).order_by(RUNS.c.id)).scalars().all()
        for run_id in run_ids:
            rejects = select(REJECTS.c.line, REJECTS.c.reason).where(
                REJECTS.c.run_id == run_id, REJECTS.c.file.like("%ledger%")
            )
            runs.append(
                (
                    [msgspec.json.encode(f) for f in uow.duties.findings(run_id)],
                    uow.duties.statuses(run_id),
                    sorted(uow.conn.execute(rejects).all()),
                )
            )
    engine.dispose()
    return runs


@pytest.mark.parametrize("spread", [("--workers", "2"), ("--workers", "2", "--dask", "local")])
def test_workers_store_the_duty_findings_of_one_process(any_db_url, tmp_path, spread, monkeypatch):
    sessions, records = simulated(tmp_path)
    one = audit(any_db_url, sessions, records)
    parts = []

    def counted(spec, dask, held=None):
        assert held is not None  # the driver hands each worker its accounts
        parts.extend(found := run_parts(spec, dask, held))
        return found

    monkeypatch.setattr(duties, "run_parts", counted)
    seen, made = [], []
    feed, digest = duties.DutyRun.sessions, judging.digest_of

    def fed(self, batch):
        seen.extend(d.sitting.session_id for d in batch.digests)
        return feed(self, batch)

    def digested(s):
        made.append(s.session_id)  # in this process only: a worker counts in its own copy
        return digest(s)

    monkeypatch.setattr(duties.DutyRun, "sessions", fed)
    monkeypatch.setattr(judging, "digest_of", digested)
    two = audit(any_db_url, sessions, records, *spread)
    # the driver was given every session once, in file order, digested in the workers
    order = [json.loads(line)["session_id"] for line in sessions.read_text().splitlines()]
    assert seen == order and made == []
    assert len(parts) == 2 and all(p.records > 0 for p in parts)
    runs = stored(any_db_url)
    assert len(runs) == 2
    (serial, statuses, rejects), (pooled, pooled_statuses, pooled_rejects) = runs
    assert pooled == serial and len(serial) > 20
    found = {json.loads(f)["duty"] for f in serial}
    assert found >= SIGNALS, SIGNALS - found
    assert pooled_statuses == statuses and statuses["minor_payments"] == "breached"
    assert all(statuses.get(check) for check in SESSION_SIDE), statuses
    session_side = [f for f in serial if json.loads(f)["check"] in SESSION_SIDE]
    assert len({json.loads(f)["check"] for f in session_side}) >= 4, session_side
    assert pooled_rejects == rejects and len(rejects) == 3
    duty = [d for d in map(json.loads, two.stdout.splitlines()) if d["kind"] == "duty"]
    assert duty == [d for d in map(json.loads, one.stdout.splitlines()) if d["kind"] == "duty"]
