"""Hostile text in logs (issue #16): inert in CSV and Markdown, escaped on a terminal."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.reporting.cells import printable, safe_cell
from compliance.reporting.csv_report import COLUMNS as REPORT_COLUMNS
from compliance.reporting.stream import CSV_COLUMNS
from tests.conftest import SAMPLES

ROW_BREAKER = "Li\r@SUM(1+1)*cmd|' /C calc'!A0"
ESCAPES = "s\x1b[2J\x1b]0;pwn\x07\u202e中"


@pytest.fixture
def hostile_log(tmp_path):
    """The first 斗牛 sample with a row-breaking player id and name, and a session id full of
    terminal escapes."""
    line = (SAMPLES / "douniu.jsonl").read_text(encoding="utf-8").splitlines()[0]
    line = line.replace('"hn2"', json.dumps(ROW_BREAKER))
    line = line.replace('"湖南玩家3"', json.dumps(ROW_BREAKER))
    line = line.replace('"hn-2026-03-01"', json.dumps(ESCAPES))
    path = tmp_path / "hostile.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("  @SUM(A1)", "'  @SUM(A1)"),
        ("＝1+1", "'＝1+1"),
        ("＋1", "'＋1"),
        ("－1", "'－1"),
        ("＠x", "'＠x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-12.5", "-12.5"),
        ("+3", "+3"),
        (-12.5, -12.5),
        ("湖南玩家1", "湖南玩家1"),
    ],
)
def test_a_cell_is_neutralised_only_where_a_spreadsheet_would_run_it(value, cell):
    assert safe_cell(value) == cell


def test_audit_csv_quotes_a_lone_carriage_return_so_no_row_starts_with_a_formula(run, hostile_log):
    result = run("audit", hostile_log, "--format", "csv")
    assert result.exit_code == 0
    rows = _rows(result.stdout)
    assert {len(r) for r in rows} == {len(CSV_COLUMNS)}
    assert f"player:{ROW_BREAKER}" in {r[3] for r in rows}
    assert f'"player:{ROW_BREAKER}"' in result.stdout


def test_report_csv_quotes_a_lone_carriage_return_in_a_name(run, hostile_log):
    assert run("audit", hostile_log).exit_code == 0
    result = run("report", "1", "--format", "csv", "-o", "-")
    assert result.exit_code == 0
    rows = _rows(result.stdout)
    assert {len(r) for r in rows} == {len(REPORT_COLUMNS)}
    assert ROW_BREAKER in {r[REPORT_COLUMNS.index("name")] for r in rows}


def test_markdown_report_keeps_a_carriage_return_from_breaking_its_table(run, hostile_log):
    assert run("audit", hostile_log).exit_code == 0
    result = run("report", "1", "--format", "md", "-o", "-")
    assert result.exit_code == 0
    assert "\r" not in result.stdout
    assert "Li @SUM(1+1)\\*cmd\\|' /C calc'!A0" in result.stdout


def test_audit_table_shows_escapes_and_bidi_overrides_as_text(run, hostile_log):
    result = run("audit", hostile_log)
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\u202e" not in result.stdout and "\r" not in result.stdout
    assert "s\\x1b[2J\\x1b]0;pwn\\x07\\u202e中" in result.stdout
    assert "player:Li\\x0d@SUM(1+1)*cmd|' /C calc'!A0" in result.stdout


def test_reject_lines_on_stderr_show_escapes_as_text(run, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "stakelog/1", "session_id": "x\\u001b[2J\\u202e"}\n')
    result = run("audit", str(path))
    assert result.exit_code == 1  # no session could be read
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"reject: {path}:1 session x\\x1b[2J\\u202e: ")
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr


def test_strict_stop_shows_escapes_as_text(run, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "stakelog/1", "session_id": "x\\u001b[2J"}\n')
    result = run("audit", str(path), "--strict")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {path}:1 session x\\x1b[2J: ")
    assert "\x1b" not in result.stderr


def test_jsonl_output_escapes_controls_as_json_does(run, hostile_log):
    result = run("audit", hostile_log, "--format", "jsonl")
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\r" not in result.stdout
    assert '"session_id":"s\\u001b[2J\\u001b]0;pwn\\u0007\u202e中"' in result.stdout
    assert json.loads(result.stdout.splitlines()[0])["session_id"] == ESCAPES


def test_printable_leaves_chinese_and_plain_text_alone():
    assert printable("湖南玩家1 hn-2026") == "湖南玩家1 hn-2026"
    assert printable("a\nb\x9b") == "a\\x0ab\\x9b"
    assert printable("a\nb\x1b", keep_newlines=True) == "a\nb\\x1b"
