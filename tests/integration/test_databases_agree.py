"""同一结论: the same audit gives byte for byte the same JSON Lines on SQLite with one
process and on PostgreSQL with two workers, every game, windows, duties and signals
included, the planner's statistics made (an order the plan chose, a time one database kept
without its offset, both showed only there); and the same reports."""

from __future__ import annotations

import json

from click.testing import CliRunner

from compliance.cli import cli
from tests.platform_runs import audit_platform, simulate_platform


def test_sqlite_and_postgresql_agree(pg_url, sqlite_url, tmp_path):
    runner = CliRunner()
    sessions, records = tmp_path / "s.jsonl", tmp_path / "p"
    made = simulate_platform(
        runner, sessions, records, "--game", "all", "--sessions", "300", "--seed", "3",
        "--anomalies", "0.05",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert runner.invoke(cli, ["db", "upgrade", "--db", pg_url]).exit_code == 0
    outputs, reports = [], []
    for url, workers in ((sqlite_url, "1"), (pg_url, "2")):
        result = audit_platform(runner, sessions, records, url, "--workers", workers)
        assert result.exit_code in (0, 1), result.stderr
        outputs.append(result.stdout)
        reports.append([_report(runner, url, f) for f in ("csv", "md", "json")])
    assert outputs[0].count("\n") > 2000
    assert outputs[0] == outputs[1]
    assert reports[0] == reports[1]


def _report(runner: CliRunner, url: str, form: str) -> str:
    """The run's report in a format; the times of the making and of the run, and the number
    of workers the run was given, left out (two runs, made at two moments)."""
    made = runner.invoke(cli, ["report", "latest", "--format", form, "-o", "-", "--db", url])
    assert made.exit_code == 0, made.stderr
    if form == "md":  # the run's options name its workers
        return "".join(line for line in made.stdout.splitlines(True) if "`options:" not in line)
    if form != "json":
        return made.stdout
    data = json.loads(made.stdout)
    data.pop("generated_at")
    for run in data["runs"]:
        run.pop("started_at")
        run["manifest"]["options"].pop("workers")
    return json.dumps(data, ensure_ascii=False)
