"""Checks 4, 17, 18 (coin traders) and 20 on simulated platforms (issue 24): every
injected pattern is found, no honest look-alike is flagged, on SQLite and PostgreSQL;
`--fail-on duty-signal` gates them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from compliance.cli import cli
from compliance.service_layer.simulate_platform import write_platform
from tests.platform_runs import audit_platform as _audit

SIGNALS = {
    "account-resale-signal",
    "agent-own-table-signal",
    "coin-trader-signal",
    "fraud-reverify-signal",
}


def _signals(result) -> set[tuple[str, str]]:
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    found = set()
    for d in rows:
        if d["kind"] == "duty" and d["duty"] in SIGNALS and d["status"] == "breached":
            assert d["severity"] == "signal" and "signal, not a violation" in d["detail"]
            assert d["events"] and d["account"]
            found.add((d["duty"], d["subject"]))
    return found


def test_every_injected_signal_is_found_and_no_look_alike(any_db_url, tmp_path):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    runner = CliRunner()
    made = runner.invoke(
        cli,
        ["simulate", "--sessions", "150", "--seed", "7", "--anomalies", "0.05"]
        + ["-o", str(sessions), "--platform-records", str(records)],
    )
    assert made.exit_code == 0, made.output
    log = write_platform(str(sessions), tmp_path / "again", 7, 0.05)
    injected = {i for i in log.injected if i[0] in SIGNALS}
    assert {duty for duty, _ in injected} == SIGNALS
    lines = sessions.read_text().splitlines()
    players = {p["id"] for line in lines for p in json.loads(line)["players"]}
    assert len(injected) == 4 * max(1, round(0.05 * len(players)))
    result = _audit(runner, sessions, records, any_db_url)
    assert result.exit_code == 0, result.stderr
    assert _signals(result) == injected


def test_the_clean_platform_raises_none_of_these_signals_and_the_gate(tmp_path, sqlite_url):
    sessions, records = tmp_path / "s.jsonl", tmp_path / "platform"
    runner = CliRunner()
    runner.invoke(
        cli,
        ["simulate", "--sessions", "150", "--seed", "8", "-o", str(sessions)]
        + ["--platform-records", str(records)],
    )
    ledger = (records / "ledger.jsonl").read_text()
    assert '"login"' in ledger and '"room_card_use"' in ledger and '"fraud_flag"' in ledger
    clean = _audit(runner, sessions, records, sqlite_url)
    assert _signals(clean) == set()
    flag = {"format": "ledger/1", "platform": "sim", "id": "flag-1", "account": "u00001"}
    flag |= {"type": "fraud_flag", "at": "2025-10-02T10:00:00+08:00"}
    with open(records / "ledger.jsonl", "a") as out:
        out.write(json.dumps(flag) + "\n")
    gated = _audit(runner, sessions, records, sqlite_url, "--fail-on", "duty-signal")
    assert gated.exit_code == 3, gated.stderr
    assert _signals(gated) == {("fraud-reverify-signal", "account:u00001")}
    ungated = _audit(runner, sessions, records, sqlite_url, "--fail-on", "duty")
    assert ungated.exit_code == 0, ungated.stderr


def test_a_log_too_small_for_an_agent_at_two_tables_injects_the_rest(tmp_path):
    sessions = tmp_path / "s.jsonl"
    made = CliRunner().invoke(cli, ["simulate", "--sessions", "1", "-o", str(sessions)])
    assert made.exit_code == 0, made.output
    log = write_platform(str(sessions), tmp_path / "platform", 3, 0.05)  # as the demo does
    injected = {duty for duty, _ in log.injected}
    assert "agent-own-table-signal" not in injected
    assert {"account-resale-signal", "coin-trader-signal", "fraud-reverify-signal"} <= injected
