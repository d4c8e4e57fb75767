"""Simulated logs: reproducible, clean when asked, every anomaly found; workers agree."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.games import game_codes
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.fakes import FakeUnitOfWork


def simulate(tmp_path, name="sim.jsonl", **spec):
    path = str(tmp_path / name)
    return path, write_log(SimulationSpec(**spec), path)


def audited(book, path, **options):
    uow = FakeUnitOfWork(book)
    findings = []
    summary = services.audit(uow, [path], services.AuditOptions(**options), findings.append)
    return summary, findings, uow


def test_the_same_seed_gives_byte_identical_logs(tmp_path):
    runner = CliRunner()
    for name in ("a.jsonl", "b.jsonl"):
        result = runner.invoke(
            cli,
            [
                "simulate",
                "--game",
                "all",
                "--sessions",
                "40",
                "--seed",
                "9",
                "--anomalies",
                "0.05",
                "-o",
                str(tmp_path / name),
            ],
        )
        assert result.exit_code == 0, result.output
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    other = runner.invoke(
        cli, ["simulate", "--sessions", "40", "--seed", "10", "-o", str(tmp_path / "c.jsonl")]
    )
    assert other.exit_code == 0
    assert (tmp_path / "c.jsonl").read_bytes() != (tmp_path / "a.jsonl").read_bytes()


def simulated_in_a_process(path, game: str, hash_seed: str) -> bytes:
    """One `compliance simulate` in a process of its own, under the given PYTHONHASHSEED."""
    args = ["simulate", "--game", game, "--sessions", "12", "--seed", "9"]
    args += ["--anomalies", "0.1", "-o", str(path)]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "compliance", *args], env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return path.read_bytes()


@pytest.mark.parametrize("game", [*game_codes(), "all"])
def test_the_same_seed_gives_the_same_bytes_in_processes_with_other_hash_seeds(tmp_path, game):
    one = simulated_in_a_process(tmp_path / "one.jsonl", game, "1")
    two = simulated_in_a_process(tmp_path / "two.jsonl", game, "2")
    assert one == two


@pytest.mark.parametrize("game", game_codes())
def test_a_clean_simulated_log_audits_without_integrity_findings_or_rejects(
    tmp_path, rule_book, game
):
    path, log = simulate(tmp_path, games=(game,), sessions=12, seed=4, rounds=(3, 8))
    summary, findings, _ = audited(rule_book, path)
    assert (summary.sessions, summary.rejects) == (12, 0)
    assert [f for f in findings if f.kind == "integrity"] == []
    assert log.anomalies == []


@pytest.mark.parametrize("game", game_codes())
def test_every_injected_anomaly_is_found(tmp_path, rule_book, game):
    path, log = simulate(
        tmp_path, games=(game,), sessions=15, seed=6, rounds=(4, 10), anomalies=0.2
    )
    summary, findings, _ = audited(rule_book, path)
    assert summary.rejects == 0
    found = {(f.session_id, f.round, f.check) for f in findings if f.kind == "integrity"}
    assert log.anomalies
    assert set(log.anomalies) <= found


def test_two_workers_give_the_same_findings_and_players_as_one(tmp_path, rule_book):
    path, _ = simulate(tmp_path, sessions=120, seed=8, anomalies=0.02)
    one, serial, uow1 = audited(rule_book, path)
    two, parallel, uow2 = audited(rule_book, path, workers=2)
    assert [f.to_json() for f in parallel] == [f.to_json() for f in serial]
    assert two.players == one.players and two.as_dict() == one.as_dict()
    assert list(uow2.runs.sessions) == list(uow1.runs.sessions)
    assert stored_players(uow2) == stored_players(uow1)


def stored_players(uow) -> list:
    """Each stored session's players and their figures, in the order stored."""
    return [(key, [(p.id, p.metrics) for p in s.players]) for key, s in uow.runs.sessions.items()]


def test_demo_in_an_empty_folder_ends_with_a_summary_and_a_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPLIANCE_DB_URL", raising=False)
    result = CliRunner().invoke(cli, ["demo", "--sessions", "40"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "compliance.db").exists()
    assert (tmp_path / "demo-sessions.jsonl").exists()
    assert (tmp_path / "demo-platform" / "accounts.jsonl").exists()
    assert "Findings by province and tier" in result.stdout
    assert "audited 40 sessions, 0 rejected" in result.stdout
    assert result.stdout.rstrip().endswith("不构成法律意见。")


def test_workers_that_store_their_own_sessions_leave_the_same_database(tmp_path, any_db_url):
    from sqlalchemy import func, select

    from compliance.db.engine import ensure_schema, make_engine
    from compliance.db.models import FindingRow, PlayerMetricsRow, SessionRow
    from compliance.db.unit_of_work import SqlUnitOfWork

    path, _ = simulate(tmp_path, sessions=150, seed=12, anomalies=0.02)
    stored, printed = [], []
    for workers, url in ((1, f"sqlite:///{tmp_path}/serial.db"), (2, any_db_url)):
        engine = make_engine(url)
        ensure_schema(engine)
        seen = []
        services.audit(
            SqlUnitOfWork(engine), [path], services.AuditOptions(workers=workers), seen.append
        )
        printed.append([f.to_json() for f in seen])
        with engine.connect() as conn:
            stored.append(
                (
                    conn.execute(select(func.count(), func.sum(PlayerMetricsRow.capital))).one(),
                    sorted(
                        conn.execute(
                            select(FindingRow.session_id, FindingRow.subject, FindingRow.tier)
                        ).all(),
                        key=str,
                    ),
                    conn.execute(select(func.count()).select_from(SessionRow)).scalar_one(),
                )
            )
        engine.dispose()
    assert printed[0] == printed[1]
    assert stored[0][0][0] == stored[1][0][0]
    assert float(stored[0][0][1]) == float(stored[1][0][1])
    assert stored[0][1:] == stored[1][1:]


def test_workers_not_asked_for_findings_still_count_them_as_one_process_does(tmp_path):
    from compliance.db.engine import ensure_schema, make_engine
    from compliance.db.unit_of_work import SqlUnitOfWork

    path, _ = simulate(tmp_path, sessions=120, seed=13, anomalies=0.02)
    summaries = []
    for workers in (1, 2):
        engine = make_engine(f"sqlite:///{tmp_path}/w{workers}.db")
        ensure_schema(engine)
        summary = services.audit(
            SqlUnitOfWork(engine), [path], services.AuditOptions(workers=workers)
        )
        summaries.append(summary.as_dict())
        engine.dispose()
    assert summaries[0] == summaries[1]
    assert summaries[0]["findings"]["integrity"] > 0


def test_a_dask_cluster_runs_the_same_partitions_with_the_same_results(tmp_path):
    from compliance.db.engine import ensure_schema, make_engine
    from compliance.db.unit_of_work import SqlUnitOfWork

    path, _ = simulate(tmp_path, sessions=80, seed=14, anomalies=0.02)
    printed = []
    for name, options in (("serial", {}), ("dask", {"workers": 2, "dask": "local"})):
        engine = make_engine(f"sqlite:///{tmp_path}/{name}.db")
        ensure_schema(engine)
        seen = []
        summary = services.audit(
            SqlUnitOfWork(engine), [path], services.AuditOptions(**options), seen.append
        )
        assert summary.sessions == 80
        printed.append([f.to_json() for f in seen])
        engine.dispose()
    assert printed[0] == printed[1]
