"""同一结论: the same audit gives byte for byte the same JSON Lines on SQLite and on
PostgreSQL, every game, windows, duties and signals included, the planner's statistics
made (an order the plan chose, a time one database kept without its offset, both showed
only there)."""

from __future__ import annotations

from click.testing import CliRunner

from compliance.cli import cli
from tests.platform_runs import audit_platform


def test_sqlite_and_postgresql_agree(pg_url, sqlite_url, tmp_path):
    runner = CliRunner()
    sessions, records = tmp_path / "s.jsonl", tmp_path / "p"
    made = runner.invoke(
        cli,
        [
            "simulate",
            "--game",
            "all",
            "--sessions",
            "300",
            "--seed",
            "3",
            "--anomalies",
            "0.05",
            "-o",
            str(sessions),
            "--platform-records",
            str(records),
        ],
    )
    assert made.exit_code == 0, made.output
    assert runner.invoke(cli, ["db", "upgrade", "--db", pg_url]).exit_code == 0
    outputs = []
    for url in (sqlite_url, pg_url):
        result = audit_platform(runner, sessions, records, url)
        assert result.exit_code in (0, 1), result.stderr
        outputs.append(result.stdout)
    assert outputs[0].count("\n") > 2000
    assert outputs[0] == outputs[1]
