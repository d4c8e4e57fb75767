"""Issue 24's signals gate the run by severity and reach the reports: mirrored gains on a
platform with no violation trip `--fail-on duty-signal`, not `--fail-on duty`."""

from __future__ import annotations

import json

from click.testing import CliRunner

from compliance.cli import cli
from compliance.service_layer.simulate_mirrors import append_signal_sessions
from compliance.service_layer.simulate_platform import write_platform


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


def test_signals_gate_at_their_severity_and_show_in_the_reports(tmp_path, sqlite_url):
    log, records = tmp_path / "s.jsonl", tmp_path / "platform"
    made = invoke(
        "simulate",
        "--sessions",
        "30",
        "--seed",
        "2",
        "-o",
        str(log),
        "--platform-records",
        str(records),
    )  # with records, the rooms take no rake (check 9 holds)
    assert made.exit_code == 0
    groups = append_signal_sessions(str(log), 2, 0.01).groups
    write_platform(str(log), records, 2, 0.0)  # no breach injected in the records
    inputs = [
        "--accounts",
        str(records / "accounts.jsonl"),
        "--ledger",
        str(records / "ledger.jsonl"),
        "--platform-config",
        str(records / "config.jsonl"),
        "--db",
        sqlite_url,
        "--format",
        "jsonl",
    ]
    held = invoke("audit", str(log), *inputs, "--fail-on", "duty")
    assert held.exit_code == 0, held.stderr
    duties = [d for d in map(json.loads, held.stdout.splitlines()) if d["kind"] == "duty"]
    assert {d["severity"] for d in duties if d["status"] == "breached"} <= {"signal", "advisory"}
    mirrored = {d["subject"] for d in duties if d["check"] == "mirrored_gains"}
    assert mirrored == {"accounts:" + "+".join(g) for g in groups}
    tripped = invoke("audit", str(log), *inputs, "--fail-on", "duty-signal")
    assert tripped.exit_code == 3
    report = json.loads(invoke("report", "--format", "json", "-o", "-", "--db", sqlite_url).stdout)
    [line] = [x for x in report["platform_duties"] if x["check"] == "mirrored_gains"]
    assert line["status"] == "breached" and line["by_severity"] == {"signal": len(groups)}
    markdown = invoke("report", "--format", "md", "-o", "-", "--db", sqlite_url).stdout
    assert "18. 对冲输赢" in markdown
