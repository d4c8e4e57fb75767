"""`audit --venue`: where a session that names no venue was played (issue 18)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.integration.test_windows import room, write


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


@pytest.fixture
def jiangsu_log(tmp_path) -> str:
    session = room(1, "o", "2026-03-01", where="320000")
    session["point_value"] = "1.2"  # each player's 赌资 between 100 and 200 yuan
    return write(tmp_path / "js.jsonl", [session])


def player_rules(stdout: str) -> list[tuple[str, str, str | None]]:
    rows = [json.loads(line) for line in stdout.splitlines()]
    return [(r["subject"], r["tier"], r["rule"]) for r in rows if r["subject"].startswith("player")]


def test_a_session_naming_no_venue_is_online_and_judged_on_jiangsus_track_a(run, jiangsu_log):
    result = run("audit", jiangsu_log, "--format", "jsonl")
    assert result.exit_code == 0
    assert player_rules(result.stdout) == [
        (f"player:o-u1-{i}", "administrative", "js-2010-a-fine") for i in range(4)
    ]


def test_venue_private_home_judges_it_on_track_b(run, jiangsu_log):
    result = run("audit", jiangsu_log, "--format", "jsonl", "--venue", "private_home")
    assert result.exit_code == 0
    assert player_rules(result.stdout) == [
        (f"player:o-u1-{i}", "below_threshold", None) for i in range(4)
    ]


def test_an_unknown_venue_is_a_usage_error(run, jiangsu_log):
    result = run("audit", jiangsu_log, "--venue", "moon")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--venue': 'moon' is not one of 'online', 'private_home', "
        "'public_place', 'workplace', 'vehicle'."
    )
