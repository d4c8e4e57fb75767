"""进度: progress bars on a terminal's stderr, and not a byte more anywhere else."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from compliance.cli import cli, progress
from tests.builders_report import audited_database

ETA = re.compile(r"\d\d:\d\d<\d\d:\d\d")  # elapsed<left


@pytest.fixture(scope="module")
def audited_url(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("progress")
    audited_database(folder, sessions=12).dispose()
    return f"sqlite:///{folder / 'compliance.db'}"


@pytest.fixture
def terminal(monkeypatch):
    """stderr (and stdout) claim to be a terminal; every update is drawn."""
    monkeypatch.setattr(progress, "_isatty", lambda stream: True)
    monkeypatch.setattr(progress, "MININTERVAL", 0)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env)


def drawn(stderr: str, label: str, total: int) -> str:
    """The last frame of the bar named `label` that shows all `total` done."""
    frames = [f for f in re.split(r"[\r\n]", stderr) if f.startswith(f"{label}:")]
    full = [f for f in frames if f" {total}/{total} " in f]
    assert full, frames
    return full[-1]


def test_simulate_draws_a_bar_with_total_rate_and_time_left(terminal, tmp_path):
    out = tmp_path / "s.jsonl"
    result = run("simulate", "--sessions", "30", "-o", str(out))
    assert result.exit_code == 0
    frame = drawn(result.stderr, "simulate", 30)
    assert "100%" in frame and ETA.search(frame) and re.search(r"[\d.]+session/s", frame)
    assert result.stdout.startswith("wrote 30 sessions, ")


def test_audit_counts_the_lines_of_its_files_as_the_total(terminal, tmp_path):
    log = tmp_path / "s.jsonl"
    assert run("simulate", "--sessions", "20", "-o", str(log)).exit_code == 0
    result = run("audit", str(log), "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert result.exit_code == 0, result.output
    frame = drawn(result.stderr, "audit", 20)
    assert ETA.search(frame) and "session/s" in frame
    assert result.stderr.endswith("\n") and "20 sessions" in result.stderr.splitlines()[-1]


def test_report_bar_counts_the_selected_sessions(terminal, audited_url, tmp_path):
    result = run("report", "-o", str(tmp_path / "r.json"), "--format", "json", "--db", audited_url)
    assert result.exit_code == 0, result.output
    frame = drawn(result.stderr, "report", 12)
    assert ETA.search(frame) and "session/s" in frame


def test_whatif_bar_counts_the_stored_sessions(terminal, audited_url):
    move = "hn-2015-general-stake.single_stake.max=100"
    result = run("whatif", "--set", move, "--db", audited_url)
    assert result.exit_code == 0, result.output
    frame = drawn(result.stderr, "whatif", 12)
    assert ETA.search(frame) and "session/s" in frame


@pytest.mark.parametrize(
    "env", [{"CI": "true"}, {"TERM": "dumb"}], ids=["under-CI", "on-a-dumb-terminal"]
)
def test_no_bar_in_non_interactive_use_even_on_a_terminal(terminal, tmp_path, env):
    result = run("simulate", "--sessions", "5", "-o", str(tmp_path / "s.jsonl"), env=env)
    assert (result.exit_code, result.stderr) == (0, "")


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    out = tmp_path / "s.jsonl"
    result = run("simulate", "--sessions", "5", "-o", str(out))
    assert (result.exit_code, result.stderr) == (0, "")
    assert (
        result.stdout == f"wrote 5 sessions, {result.stdout.split(', ')[1]}, 0 anomalies to {out}\n"
    )
