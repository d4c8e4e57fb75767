"""Rounds that crashed an engine (issue #16) are rejects naming the field."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from compliance.cli import cli


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


def _simulated(run, tmp_path, game: str) -> dict:
    path = tmp_path / f"{game}.jsonl"
    assert run("simulate", "--game", game, "--sessions", "1", "-o", str(path)).exit_code == 0
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def _reject_of(run, tmp_path, session: dict) -> str:
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(session) + "\n", encoding="utf-8")
    result = run("audit", str(path))
    assert result.exit_code == 1  # its one line rejected: no session could be read
    assert result.stderr.endswith("Error: no session could be read: 1 reject\n")
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"reject: {path}:1 session {session['session_id']}: ")
    return first.split(": ", 2)[2]


@pytest.mark.parametrize("seat", [1, 3])
def test_a_yuhuan_hand_of_an_empty_player_is_a_stranger_at_the_table(run, tmp_path, seat):
    session = _simulated(run, tmp_path, "yuhuan")
    session["rounds"][0]["hands"][seat]["player"] = ""
    assert _reject_of(run, tmp_path, session) == "round 1: player '' is not in the session"


def test_a_huge_chihuoguo_ante_is_a_reject_naming_the_antes(run, tmp_path):
    session = _simulated(run, tmp_path, "chihuoguo")
    first = session["rounds"][0]
    player = next(iter(first["antes"]))
    first["antes"] = dict.fromkeys(first["antes"], 10**13)
    assert _reject_of(run, tmp_path, session) == (
        f"round 1: antes: {player}'s ante {10**13} is beyond any table's "
        "(at most 1,000,000,000,000 points)"
    )


def test_an_ante_past_the_decoders_bound_is_a_reject_naming_the_field(run, tmp_path):
    session = _simulated(run, tmp_path, "chihuoguo")
    first = session["rounds"][0]
    first["antes"] = dict.fromkeys(first["antes"], 10**30)
    assert _reject_of(run, tmp_path, session) == (
        "invalid round: Expected `int` <= 1000000000000000 - at `$[0].antes[...]`"
    )


def test_an_ante_at_the_limit_is_judged(run, tmp_path):
    session = _simulated(run, tmp_path, "chihuoguo")
    first = session["rounds"][0]
    first["antes"] = dict.fromkeys(first["antes"], 10**12)
    path = tmp_path / "limit.jsonl"
    path.write_text(json.dumps(session) + "\n", encoding="utf-8")
    result = run("audit", str(path))
    assert "internal error" not in result.stderr
