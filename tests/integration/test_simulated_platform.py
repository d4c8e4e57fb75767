"""The simulator's platform records (issue 23): every injected duty breach is found, and
the clean part gives no violation, on SQLite and PostgreSQL; with `--guests`, the 2019
guest rules (check 2) on guest sessions of 2020 too."""

from __future__ import annotations

import json

from click.testing import CliRunner

from compliance.cli import cli
from compliance.service_layer.simulate_mirrors import is_look_alike
from compliance.service_layer.simulate_platform import write_platform
from tests.platform_runs import audit_platform, simulate_platform

CLEAN_GUESTS = {f"account:guest-0{n}" for n in range(1, 5)} | {"device:dev-guest-01"}


def audited(runner, sessions, records, url, *more):
    result = audit_platform(runner, sessions, records, url, *more)
    assert result.exit_code == 0, result.stderr
    return [d for d in map(json.loads, result.stdout.splitlines()) if d["kind"] == "duty"]


def test_every_injected_breach_is_found_and_the_clean_part_has_no_violation(any_db_url, tmp_path):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    runner = CliRunner()
    made = simulate_platform(
        runner, sessions, records, "--sessions", "80", "--seed", "5", "--anomalies", "0.05",
        "--guests",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    logged = sessions.read_text()
    assert all(f'"id":"{p}"' in logged for p in ("friend-1", "lucky-1", "shark-1", "mule-g01-2"))
    assert made.stdout.splitlines()[2] == (
        f"wrote 119 accounts, 4274 ledger events and the configuration to {records}, "
        f"7 guest sessions (2020) to {records / 'guests.jsonl'}, 99 duty breaches injected"
    )
    again = write_platform(str(sessions), tmp_path / "again", 5, 0.05, guests=True)
    injected = set(again.injected)
    for name in ("ledger.jsonl", "guests.jsonl"):
        assert (records / name).read_bytes() == (tmp_path / "again" / name).read_bytes()
    assert {i for i in injected if i[0].startswith("guest-")} == {
        ("guest-hour-2019", "account:guest-long-1"),
        ("guest-hour-2019", "account:guest-long-2"),
        ("guest-device-2019", "device:dev-guest-02"),
        ("guest-payment-2019", "account:guest-pay-1"),
    }
    duties = audited(runner, sessions, records, any_db_url, str(records / "guests.jsonl"))
    found = {(d["duty"], d["subject"]) for d in duties if d["status"] == "breached"}
    assert injected <= found
    violations = {
        (d["duty"], d["subject"])
        for d in duties
        if d["status"] == "breached" and d["severity"] == "violation"
    }
    assert violations <= injected
    assert not {subject for _, subject in found} & CLEAN_GUESTS
    hours = {d["subject"]: d["value"] for d in duties if d["duty"] == "guest-hour-2019"}
    assert hours == {"account:guest-long-1": 62.0, "account:guest-long-2": 62.0}
    # Guests have no birth date: whether one is a minor cannot be told, and is said.
    assert sorted((d["check"], d["missing"]) for d in duties if d["status"] == "indeterminate") == [
        ("draw_frequencies", "draws"),
        ("minor_hours", "birth_date"),
        ("minor_payments", "birth_date"),
    ]
    found_rows = {d for d, _ in found}
    assert {
        "fee-share-2007",
        "fee-cards-winners-2007",
        "point-cap-round-sessions-2007",
    } <= found_rows
    assert "point-cap-day-sessions-2007" in found_rows
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
    [few] = [
        d for d in duties if d["status"] == "indeterminate" and d["check"] == "draw_frequencies"
    ]
    assert few["check"] == "draw_frequencies" and few["reason"].startswith("pool few-box: 40")
    checks = {d["check"] for d in duties}
    assert checks >= {
        "unverified_play",
        "guest_rules",
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
    result = audit_platform(runner, sessions, records, sqlite_url, "--fail-on", "duty")
    assert result.exit_code == 0, result.stderr
    duties = [d for d in map(json.loads, result.stdout.splitlines()) if d["kind"] == "duty"]
    assert {d["severity"] for d in duties} <= {"signal", "advisory"}


def test_clean_guests_of_2020_breach_no_guest_rule(any_db_url, tmp_path):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    runner = CliRunner()
    made = runner.invoke(
        cli,
        ["simulate", "--sessions", "30", "-o", str(sessions), "--platform-records", str(records)]
        + ["--guests"],
    )
    assert made.exit_code == 0, made.output
    guests = [json.loads(line) for line in (records / "guests.jsonl").read_text().splitlines()]
    assert [(g["started_at"][:10], len(g["rounds"])) for g in guests] == [
        ("2020-03-02", 15),
        ("2020-03-03", 15),
        ("2020-03-17", 10),
    ]
    duties = audited(runner, sessions, records, any_db_url, str(records / "guests.jsonl"))
    assert [d for d in duties if d["check"] == "guest_rules"] == []
    assert {d["severity"] for d in duties if d["status"] == "breached"} <= {"signal", "advisory"}


def test_guests_need_the_records_folder(tmp_path):
    result = CliRunner().invoke(cli, ["simulate", "-o", str(tmp_path / "s.jsonl"), "--guests"])
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2,
        "Error: --guests writes into the --platform-records folder: give it",
    )
