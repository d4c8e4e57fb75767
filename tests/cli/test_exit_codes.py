"""Exit codes that cannot lie (issue 19): rejects gate, usage errors exit 2, filters say
when they match nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.conftest import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
BAD = str(SAMPLES / "bad.jsonl")
DOUNIU = str(SAMPLES / "douniu.jsonl")


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


def test_an_input_of_nothing_but_rejects_exits_one(run, sqlite_url):
    readme = str(ROOT / "README.md")
    lines = sum(1 for line in (ROOT / "README.md").read_bytes().splitlines() if line.strip())
    result = run("audit", readme, "--fail-on", "administrative")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2:] == [
        f"audited 0 sessions, {lines} rejected; findings: threshold 0, integrity 0, "
        f"indeterminate 0; run 1 stored in {sqlite_url}",
        f"Error: no session could be read: {lines} rejects",
    ]


def test_an_input_without_lines_exits_zero_with_a_warning(run, sqlite_url, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    result = run("audit", str(empty), "--fail-on", "administrative")
    assert (result.exit_code, result.stdout) == (0, "no findings\n")
    assert result.stderr == (
        "audited 0 sessions, 0 rejected; findings: threshold 0, integrity 0, indeterminate 0; "
        f"run 1 stored in {sqlite_url}\n"
        "warning: the input has no lines; nothing was audited\n"
    )


def test_fail_on_administrative_gates_a_file_with_administrative_findings(run):
    assert run("audit", DOUNIU, "--fail-on", "administrative").exit_code == 3


@pytest.mark.parametrize(
    ("args", "code", "last"),
    [
        pytest.param((), 0, None, id="no-gate"),
        pytest.param(("--fail-on", "reject"), 3, None, id="fail-on-reject"),
        pytest.param(("--max-reject-rate", "0.8"), 0, None, id="rate-under"),
        pytest.param(("--max-reject-rate", "0.75"), 0, None, id="rate-equal"),
        pytest.param(
            ("--max-reject-rate", "0.5"),
            3,
            "3 of 4 lines rejected (75.0%), more than --max-reject-rate 0.5",
            id="rate-over",
        ),
    ],
)
def test_rejects_gate_the_run_when_asked(run, args, code, last):
    result = run("audit", BAD, *args)
    assert result.exit_code == code
    tail = result.stderr.splitlines()[-1]
    if last is None:
        assert tail.startswith("audited 1 session, 3 rejected;")
    else:
        assert tail == last


def test_a_clean_log_passes_the_reject_gates(run):
    assert run("audit", DOUNIU, "--fail-on", "reject", "--max-reject-rate", "0").exit_code == 0


@pytest.mark.parametrize(
    ("args", "error"),
    [
        pytest.param(
            ("rules", "show", "hunnan"),
            "unknown jurisdiction 'hunnan' (did you mean 'hunan'?)",
            id="rules-show",
        ),
        pytest.param(
            ("audit", DOUNIU, "--jurisdiction", "hunnan"),
            "--jurisdiction: unknown jurisdiction 'hunnan' (did you mean 'hunan'?) "
            "(a code, name or alias: 430000, hunan, 湖南)",
            id="audit-jurisdiction",
        ),
        pytest.param(
            ("whatif", "--set", "x.single_stake.maxx=1"),
            "bad setting 'x.single_stake.maxx=1': expected BAND.METRIC.BOUND=VALUE, BOUND one "
            "of min, max, above, below (e.g. hn-2015-general-stake.single_stake.max=100); "
            "unknown bound 'maxx' (did you mean 'max'?)",
            id="whatif-bound",
        ),
        pytest.param(
            ("whatif", "--set", "hn-2015-general-stake.single_stake.max=abc"),
            "bad setting 'hn-2015-general-stake.single_stake.max=abc': 'abc' is not a number",
            id="whatif-value",
        ),
        pytest.param(
            ("whatif", "--set", "hn-2015-general-stak.single_stake.max=1"),
            "unknown band 'hn-2015-general-stak' (did you mean 'hn-2015-general-stake'?)",
            id="whatif-band",
        ),
        pytest.param(
            ("audit", DOUNIU, "--rule-version", "sh-discretion=sh-discretion-20"),
            "--rule-version sh-discretion=sh-discretion-20: choose one of sh-discretion-200, "
            "sh-discretion-trial (did you mean 'sh-discretion-200'?)",
            id="rule-version",
        ),
        pytest.param(
            ("audit", DOUNIU, "--rule-version", "sh-discretio=x"),
            "--rule-version sh-discretio=x: no such version group (did you mean 'sh-discretion'?)",
            id="rule-version-group",
        ),
        pytest.param(
            ("games", "eval", "douniu", "SA", "H2", "C3", "D4"),
            "a 斗牛 hand has 5 cards, not 4",
            id="eval-four-cards",
        ),
        pytest.param(
            ("games", "eval", "douniuu", "SA", "H2", "C3", "D4", "S5"),
            "unknown game 'douniuu' (did you mean 'douniu'?) (known: bianselong, chexuan, "
            "chihuoguo, douniu, guandan, paigow, shengji, yuhuan)",
            id="eval-game",
        ),
        pytest.param(
            ("report", "--game", "nosuch"),
            "--game: unknown game 'nosuch' (known: bianselong, chexuan, chihuoguo, douniu, "
            "guandan, paigow, shengji, yuhuan)",
            id="report-game",
        ),
        pytest.param(
            ("simulate", "--jurisdictions", "narnia", "-o", "never.jsonl"),
            "unknown jurisdiction 'narnia'",
            id="simulate-place",
        ),
        pytest.param(
            ("simulate", "--jurisdictions", "430000,hubeii", "-o", "never.jsonl"),
            "unknown jurisdiction 'hubeii' (did you mean 'hubei'?)",
            id="simulate-close-place",
        ),
    ],
)
def test_a_bad_value_is_a_one_line_usage_error(run, args, error, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if args[0] == "whatif":
        run("audit", DOUNIU)
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"Error: {error}\n")
    assert not (tmp_path / "never.jsonl").exists()


def test_eval_takes_a_games_chinese_name(run):
    result = run("games", "eval", "斗牛", "SA", "H2", "C3", "D4", "S5")
    assert (result.exit_code, result.stdout) == (0, "bull_5 牛五 ×1\n")


def _report(run, *args):
    result = run("report", *args, "--format", "json", "-o", "-")
    return result, json.loads(result.stdout)


def test_report_takes_a_games_chinese_name(run):
    run("audit", DOUNIU)
    result, by_name = _report(run, "--game", "斗牛")
    _, by_code = _report(run, "--game", "douniu")
    assert (result.exit_code, result.stderr) == (0, "")
    assert by_name["summary"] == by_code["summary"]
    assert by_name["summary"]["sessions"] == 8
    assert by_name["filters"]["game"] == "douniu"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(("--platform", "dem0"), "--platform dem0", id="platform"),
        pytest.param(("--game", "chexuan"), "--game chexuan", id="game"),
        pytest.param(
            ("--game", "扯旋", "--platform", "x"), "--game chexuan --platform x", id="both"
        ),
    ],
)
def test_a_filter_that_matches_nothing_says_so(run, args, said):
    run("audit", DOUNIU)
    result, report = _report(run, *args)
    assert result.exit_code == 0
    assert result.stderr == f"warning: no stored session matches {said}; the report is empty\n"
    assert report["summary"]["sessions"] == 0


def test_a_place_written_three_ways_is_one_province_everywhere(run, tmp_path):
    log = tmp_path / "sim.jsonl"
    assert (
        run("simulate", "--sessions", "3", "--jurisdictions", "420000", "-o", str(log)).exit_code
        == 0
    )
    sessions = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for session, written in zip(sessions, ("420000", "湖北", "hubei"), strict=True):
        session["jurisdiction"] = written
        session["owner"]["id"] = "owner-1"
        for player in session["players"]:
            player["jurisdiction"] = written
    log.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sessions), "utf-8")
    audited = run("audit", str(log), "--format", "jsonl")
    assert audited.exit_code == 0
    findings = [json.loads(line) for line in audited.stdout.splitlines()]
    assert {f["jurisdiction"] for f in findings} == {"420000"}
    owner = next(f for f in findings if f["subject"] == "owner:owner-1")
    assert owner["session_count"] == 3
    for name in ("hubei", "湖北", "420000"):
        result, report = _report(run, "--jurisdiction", name)
        assert (result.exit_code, result.stderr) == (0, "")
        assert report["summary"]["sessions"] == 3
        assert list(report["by_jurisdiction"]) == ["420000"]
