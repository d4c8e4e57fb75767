"""The command line, as a user meets it: exact output and exit codes."""

from __future__ import annotations

import csv
import io
import json
import re

import click
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.domain.findings import FIELDS
from tests.conftest import SAMPLES

BAD = str(SAMPLES / "bad.jsonl")
DOUNIU = str(SAMPLES / "douniu.jsonl")


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, [*args], input=input, env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


def test_eval_names_the_seeds_first_example_bull_five(run):
    result = run("games", "eval", "douniu", "SA", "H2", "C3", "D4", "S5")
    assert (result.exit_code, result.stdout) == (0, "bull_5 牛五 ×1\n")


def test_eval_as_json_gives_the_rank_of_the_seeds_second_example(run):
    result = run("games", "eval", "douniu", "S10", "HJ", "CQ", "D9", "S8", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "game": "douniu",
        "cards": ["S10", "HJ", "CQ", "D9", "S8"],
        "rank": "bull_7",
        "name_zh": "牛七",
        "multiplier": 1,
    }


def test_eval_reads_a_json_record_from_stdin(run):
    result = run(
        "games",
        "eval",
        "douniu",
        "--format",
        "json",
        input='{"cards": ["SJ", "HJ", "CJ", "DJ", "SQ"]}',
    )
    assert json.loads(result.stdout)["rank"] == "five_face"


def test_eval_of_an_impossible_hand_is_a_one_line_error(run):
    result = run("games", "eval", "douniu", "SA", "SA", "C3", "D4", "S5")
    assert (result.exit_code, result.stderr) == (2, "Error: duplicate card SA\n")


def test_eval_of_an_unknown_game_is_a_one_line_error(run):
    result = run("games", "eval", "zhajinhua", "SA")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: unknown game 'zhajinhua' (known: ")
    assert result.stderr.count("\n") == 1


def test_audit_turns_three_bad_lines_into_three_rejects_and_classifies_the_rest(run, sqlite_url):
    result = run("audit", BAD)
    assert result.exit_code == 0
    assert result.stderr == (
        f"reject: {BAD}:2 session cut-1: malformed JSON: Input data was truncated\n"
        f"reject: {BAD}:3 session dup-card: round 2: duplicate card D5\n"
        f"reject: {BAD}:4 session mystery-game: unknown game 'zhajinhua' (known: {_known_games()})\n"
        "audited 1 session, 3 rejected; findings: threshold 4 (below_threshold 1, administrative 2, "
        f"administrative_very_serious 1), integrity 0, indeterminate 0; run 1 stored in {sqlite_url}\n"
    )
    assert "Traceback" not in result.output


def test_a_cut_off_gzip_log_is_audited_up_to_the_cut_and_the_rest_is_one_stored_reject(
    run, sqlite_url, tmp_path
):
    import gzip

    from sqlalchemy import create_engine, text

    packed = gzip.compress((SAMPLES / "douniu.jsonl").read_bytes() * 50)
    log = tmp_path / "cut.jsonl.gz"
    log.write_bytes(packed[: len(packed) // 2])
    result = run("audit", str(log), "--format", "jsonl", "--window-days", "0")
    assert result.exit_code == 0
    *rejects, summary = result.stderr.splitlines()
    (reject,) = rejects
    line = int(reject.split(":")[2])
    assert reject == (
        f"reject: {log}:{line}: the gzip stream is cut off: nothing from this line on can be read"
    )
    assert summary.startswith(
        f"audited {line - 1} sessions ({line - 1 - 8} repeating an earlier session id of the run: "
        "the later line is kept), 1 rejected; "
    )
    with create_engine(sqlite_url).connect() as conn:
        stored = conn.execute(text("SELECT line, reason FROM rejects")).one()
    assert stored == (line, "the gzip stream is cut off: nothing from this line on can be read")


def test_an_unknown_jurisdiction_on_the_command_line_is_a_one_line_error(run):
    result = run("audit", DOUNIU, "--jurisdiction", "atlantis")
    assert (result.exit_code, result.stderr) == (
        2,
        "Error: --jurisdiction: unknown jurisdiction 'atlantis' "
        "(a code, name or alias: 430000, hunan, 湖南)\n",
    )


def test_an_unexpected_failure_is_one_line_asking_for_a_report(run, monkeypatch):
    from compliance.service_layer import audit as services

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(services, "audit", broken)
    result = run("audit", DOUNIU)
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: internal error (ZeroDivisionError: division by zero); please report it "
        "with the command that gave it (COMPLIANCE_DEBUG=1 shows where)\n",
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_session_id_met_twice_is_counted_and_its_later_line_kept(run, tmp_path, workers):
    first, other = (SAMPLES / "douniu.jsonl").read_text().splitlines()[:2]
    again = json.dumps(dict(json.loads(first), point_value="2"))
    log = tmp_path / "twice.jsonl"
    log.write_text("\n".join([first, other, again]) + "\n")
    result = run("audit", str(log), "--workers", workers, "--window-days", "0")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(
        "audited 3 sessions (1 repeating an earlier session id of the run: the later line is "
        "kept), 0 rejected; "
    )


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "import", "{f}", "--reason", "x"),
        ("rules", "check", "{f}"),
        ("games", "settle", "{f}", "--game", "douniu"),
    ],
    ids=["rules-import", "rules-check", "games-settle"],
)
def test_a_file_that_is_not_utf8_is_a_one_line_error_naming_it(run, tmp_path, args):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("name = 'café'".encode("latin-1"))
    result = run(*(a.format(f=bad) for a in args))
    assert (result.exit_code, result.stderr) == (1, f"Error: {bad}: not UTF-8 text\n")


def _known_games() -> str:
    from compliance.games import game_codes

    return ", ".join(game_codes())


def test_strict_audit_stops_at_the_first_reject(run):
    result = run("audit", BAD, "--strict")
    assert result.exit_code == 1
    assert (
        result.stderr == f"Error: {BAD}:2 session cut-1: malformed JSON: Input data was truncated\n"
    )


def test_audit_table_lists_what_needs_attention(run):
    result = run("audit", DOUNIU, "--format", "table")
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "KIND",
        "SESSION",
        "SUBJECT",
        "WHERE",
        "RESULT",
        "MARGIN",
        "CONF",
        "DETAIL",
    ]
    assert lines[-1] == "(13 below-threshold or exempt results not shown; --all shows them)"
    integrity = [line for line in lines if line.startswith("integrity")]
    assert len(integrity) == 1
    assert integrity[0].startswith(
        "integrity     hn-tampered     session          430000 结算不符 settlement_mismatch"
        "         - -    round 3: hn1 claimed -65, rules give -35;"
    )


def test_audit_jsonl_findings_carry_the_fields_machines_need(run):
    result = run("audit", DOUNIU, "--format", "jsonl")
    findings = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(findings) == 37
    assert sorted(f["subject"] for f in findings if f["session_id"] is None) == [
        "owner:owner-1",
        "owner:owner-2",
        "platform:demo-platform",
    ]
    for f in findings:
        assert {"kind", "session_id", "subject", "jurisdiction"} <= f.keys()
        if f["kind"] == "threshold" and f["rule"]:
            assert {"tier", "rule", "metric", "value", "boundary", "citation"} <= f.keys()


def test_audit_csv_has_a_header_and_a_row_per_finding(run):
    result = run("audit", DOUNIU, "--format", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout, newline="")))
    assert rows[0] == list(FIELDS)
    assert len(rows) == 38


@pytest.mark.parametrize(
    ("fail_on", "code"),
    [
        ((), 0),
        (("administrative_very_serious",), 3),
        (("criminal",), 0),
        (("integrity",), 3),
        (("indeterminate",), 3),
        (("criminal", "integrity"), 3),
    ],
    ids=["no-gate", "very-serious", "criminal-none", "integrity", "indeterminate", "either"],
)
def test_fail_on_sets_exit_code_three(run, fail_on, code):
    args = [a for tier in fail_on for a in ("--fail-on", tier)]
    assert run("audit", DOUNIU, *args).exit_code == code


def test_an_unknown_fail_on_value_is_a_usage_error(run):
    assert run("audit", DOUNIU, "--fail-on", "jail").exit_code == 2


def test_a_missing_file_is_a_usage_error(run):
    assert run("audit", "no-such-file.jsonl").exit_code == 2


def test_db_current_after_upgrade_says_up_to_date(run):
    assert run("db", "upgrade").exit_code == 0
    result = run("db", "current")
    assert result.exit_code == 0
    assert result.stdout.endswith(": up to date\n")


def test_db_seed_is_idempotent(run):
    first = run("db", "seed")
    again = run("db", "seed")
    assert first.exit_code == again.exit_code == 0
    assert again.stdout.startswith("seeded: 0 rows added, ")


def test_an_unreachable_database_is_a_one_line_error(run):
    result = CliRunner().invoke(
        cli, ["audit", DOUNIU, "--db", "postgresql://nobody@127.0.0.1:1/none"]
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot reach the database: ")
    assert result.stderr.count("\n") == 1


def _commands(group: click.Group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


@pytest.mark.parametrize(
    "path", [" ".join(p) for p, _ in _commands(cli)], ids=lambda p: p.replace(" ", "-")
)
def test_every_command_has_help_with_an_example(path):
    command = cli
    for name in path.split():
        command = command.commands[name]
    assert command.help, f"{path} has no help"
    if not isinstance(command, click.Group):
        assert re.search(r"Example:\n +compliance ", command.help), f"{path} help has no example"


def test_settle_prints_each_rounds_settlement(run):
    result = run("games", "settle", DOUNIU)
    lines = result.stdout.splitlines()
    assert result.exit_code == 0
    assert lines[0] == "session hn-2026-03-01 (douniu, 6 rounds)"
    assert lines[1] == "  round 1 banker hn1: hn2 +60 hn3 -40 hn4 +40 hn1 -60"


def test_settle_a_single_round_record_names_the_mismatch(run, tmp_path):
    with open(DOUNIU, encoding="utf-8") as fh:
        record = json.loads(fh.readline())["rounds"][0]
    record["seats"][1]["claimed"] += 5
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record))
    result = run("games", "settle", str(path), "--game", "douniu")
    assert result.stdout.splitlines() == [
        "session (records) (douniu, 1 round)",
        "  round 1 banker hn1: hn2 +60 hn3 -40 hn4 +40 hn1 -60",
        "    settlement_mismatch: hn2 claimed 65, rules give 60",
    ]


def test_settle_a_round_record_without_a_game_is_a_usage_error(run, tmp_path):
    path = tmp_path / "round.json"
    path.write_text("{}")
    assert run("games", "settle", str(path)).exit_code == 2


def test_logs_schema_prints_the_json_schema(run):
    result = run("logs", "schema")
    schema = json.loads(result.stdout)
    assert schema["title"] == "stakelog/1 session"
    assert "DouniuRound" in schema["$defs"]


def test_a_prior_penalty_within_a_year_is_an_aggravation_under_the_2025_law(run, tmp_path):
    priors = tmp_path / "priors.csv"
    priors.write_text("platform,player_id,date\ndemo-platform,hn2,2025-06-01\n")
    result = run("audit", DOUNIU, "--format", "jsonl", "--priors", str(priors))
    hn2 = [
        json.loads(line)
        for line in result.stdout.splitlines()
        if '"subject":"player:hn2"' in line and '"hn-2026-03-01"' in line
    ][0]
    assert hn2["aggravations"] == [
        "zhian-2025-repeat: 一年以内曾受过治安管理处罚的，从重处罚 (prior 2025-06-01; 第二十二条（四）)"
    ]


def test_priors_without_the_needed_columns_are_a_one_line_error(run, tmp_path):
    priors = tmp_path / "priors.csv"
    priors.write_text("who,when\n")
    result = run("audit", DOUNIU, "--priors", str(priors))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {priors}: needs columns platform, player_id, date")


def test_priors_saved_by_a_spreadsheet_with_a_byte_order_mark_are_read(run, tmp_path):
    priors = tmp_path / "priors.csv"
    priors.write_bytes(
        "platform,player_id,date\r\ndemo-platform,hn2,2025-06-01\r\n".encode("utf-8-sig")
    )
    result = run("audit", DOUNIU, "--format", "jsonl", "--priors", str(priors))
    assert result.exit_code == 0
    assert "(prior 2025-06-01; 第二十二条（四）)" in result.stdout


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"platform,player_id,date\nsim,u1\n", ":2: bad date ''"),
        (b"platform,player_id,date\nsim,u1,\xff\xfe\n", ": not UTF-8 text (save it as UTF-8 CSV)"),
    ],
    ids=["short-row", "not-utf8"],
)
def test_unreadable_priors_are_a_one_line_error_naming_the_file(run, tmp_path, content, error):
    priors = tmp_path / "priors.csv"
    priors.write_bytes(content)
    result = run("audit", DOUNIU, "--priors", str(priors))
    assert (result.exit_code, result.stderr) == (1, f"Error: {priors}{error}\n")


def test_an_unknown_rule_version_is_a_one_line_error(run):
    result = run("audit", DOUNIU, "--rule-version", "sh-discretion=nope")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --rule-version sh-discretion=nope: choose one of sh-discretion-200, sh-discretion-trial\n"
    )


def test_strict_with_workers_keeps_nothing_of_the_run(run, sqlite_url):
    import sqlite3

    result = run("audit", BAD, "--strict", "--workers", "2")
    assert result.exit_code == 1
    database = sqlite_url.removeprefix("sqlite:///")
    with sqlite3.connect(database) as conn:
        assert conn.execute("select count(*) from sessions").fetchone() == (0,)
