"""The simulator's platform records (issue 23): every injected duty breach is found, and
the clean part gives no violation, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from click.testing import CliRunner

from compliance.cli import cli
from compliance.service_layer.simulate_platform import write_platform
from compliance.service_layer.simulate_signals import is_look_alike


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
    logged = sessions.read_text()
    assert all(f'"id":"{p}"' in logged for p in ("friend-1", "lucky-1", "shark-1", "mule-g01-2"))
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
    signals = {
        (d["duty"], d["subject"])
        for d in duties
        if d["status"] == "breached" and d["check"] in ("mirrored_gains", "draw_frequencies")
    }
    assert signals == {
        i for i in injected if i[0] in ("mirrored-gains-2007", "draw-frequencies-2016")
    }
    assert len([s for s in signals if s[0] == "mirrored-gains-2007"]) >= 2  # a pair and a group
    assert not any(is_look_alike(subject) for _, subject in signals)
    assert ("draw-frequencies-2016", "pool:fair-box") not in signals
    [few] = [d for d in duties if d["status"] == "indeterminate"]
    assert few["check"] == "draw_frequencies" and few["reason"].startswith("pool few-box: 40")
    checks = {d["check"] for d in duties}
    assert checks >= {
        "unverified_play",
        "minor_hours",
        "minor_payments",
        "minor_trades",
        "cash_out",
        "point_caps",
        "transfers",
        "unbought_currency",
        "paid_draws",
        "recharge_cap",
        "retention",
        "mirrored_gains",
        "draw_frequencies",
    }
    assert all(d["severity"] == "signal" for d in duties if d["check"] == "mirrored_gains")


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
