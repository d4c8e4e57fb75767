"""Integer arguments beyond what a column or a date holds (issue #16): one-line errors."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.conftest import SAMPLES

TOO_BIG = "9223372036854775808"
DOUNIU = str(SAMPLES / "douniu.jsonl")


@pytest.fixture
def run(any_db_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args], env={"COMPLIANCE_DB_URL": any_db_url})

    return invoke


@pytest.mark.parametrize("number", [TOO_BIG, "2147483648", "99"])
def test_a_run_number_beyond_any_stored_run_is_no_such_run(run, number):
    assert run("audit", DOUNIU).exit_code == 0
    result = run("report", number, "-o", "-")
    assert (result.exit_code, result.stderr) == (1, f"Error: no audit run {number} is stored\n")


def test_a_run_number_in_other_digits_is_a_usage_error(run):
    result = run("report", "²", "-o", "-")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: Invalid value for '[RUN]': '²' is neither a run number nor 'latest'\n"
    )


def test_a_history_limit_beyond_any_count_shows_every_entry(run):
    assert run("db", "seed").exit_code == 0
    few = run("rules", "history", "--limit", "1000000")
    result = run("rules", "history", "--limit", TOO_BIG)
    assert (result.exit_code, result.stdout) == (0, few.stdout)


@pytest.mark.parametrize("command", [("audit", DOUNIU), ("whatif",)])
def test_window_days_beyond_a_century_is_a_usage_error(run, command):
    result = run(*command, "--window-days", "999999999")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: Invalid value for '--window-days': 999999999 is not in the range 0<=x<=36600.\n"
    )


def test_a_century_of_window_days_is_judged(run):
    result = run("audit", DOUNIU, "--window-days", "36600")
    assert result.exit_code == 0
    assert "internal error" not in result.stderr


def test_workers_beyond_what_a_machine_runs_is_a_usage_error(run):
    result = run("audit", DOUNIU, "--workers", "100000")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: Invalid value for '--workers': 100000 is not in the range 1<=x<=256.\n"
    )
