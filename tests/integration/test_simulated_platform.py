"""The simulator's platform records (issue 23): every injected duty breach is found, and
the clean part gives no violation, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from click.testing import CliRunner

from compliance.cli import cli
from compliance.service_layer.simulate_platform import write_platform


def test_every_injected_breach_is_found_and_the_clean_part_has_no_violation(any_db_url, tmp_path):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    runner = CliRunner()
    made = runner.invoke(
        cli,
        [
            "simulate",
            "--sessions",
            "80",
            "--seed",
            "5",
            "--anomalies",
            "0.05",
            "-o",
            str(sessions),
            "--platform-records",
            str(records),
        ],
    )
    assert made.exit_code == 0, made.output
    injected = set(write_platform(str(sessions), tmp_path / "again", 5, 0.05).injected)
    assert (records / "ledger.jsonl").read_bytes() == (
        tmp_path / "again" / "ledger.jsonl"
    ).read_bytes()
    result = runner.invoke(
        cli,
        [
            "audit",
            str(sessions),
            "--accounts",
            str(records / "accounts.jsonl"),
            "--ledger",
            str(records / "ledger.jsonl"),
            "--platform-config",
            str(records / "config.jsonl"),
            "--format",
            "jsonl",
            "--db",
            any_db_url,
        ],
    )
    duties = [d for d in map(json.loads, result.stdout.splitlines()) if d["kind"] == "duty"]
    found = {(d["duty"], d["subject"]) for d in duties if d["status"] == "breached"}
    assert injected <= found
    violations = {
        (d["duty"], d["subject"])
        for d in duties
        if d["status"] == "breached" and d["severity"] == "violation"
    }
    assert violations <= injected
    assert [d for d in duties if d["status"] == "indeterminate"] == []
    found_rows = {d for d, _ in found}
    assert {"fee-share-2007", "point-cap-round-sessions-2007"} <= found_rows
    assert "point-cap-day-sessions-2007" in found_rows
    checks = {d["check"] for d in duties}
    assert checks >= {
        "unverified_play",
        "minor_hours",
        "minor_payments",
        "minor_trades",
        "cash_out",
        "outcome_fees",
        "point_caps",
        "transfers",
        "unbought_currency",
        "paid_draws",
        "recharge_cap",
        "retention",
    }


def test_without_anomalies_the_simulated_platform_breaches_nothing(tmp_path, sqlite_url):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    runner = CliRunner()
    runner.invoke(
        cli,
        ["simulate", "--sessions", "40", "-o", str(sessions), "--platform-records", str(records)],
    )
    result = runner.invoke(
        cli,
        [
            "audit",
            str(sessions),
            "--accounts",
            str(records / "accounts.jsonl"),
            "--ledger",
            str(records / "ledger.jsonl"),
            "--platform-config",
            str(records / "config.jsonl"),
            "--format",
            "jsonl",
            "--db",
            sqlite_url,
            "--fail-on",
            "duty",
        ],
    )
    assert result.exit_code == 0, result.stderr
    duties = [d for d in map(json.loads, result.stdout.splitlines()) if d["kind"] == "duty"]
    assert {d["severity"] for d in duties} <= {"signal", "advisory"}
