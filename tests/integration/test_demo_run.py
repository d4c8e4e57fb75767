"""The demo use case on a SQLite file: seed, simulate, audit, report, as data."""

from __future__ import annotations

from compliance.service_layer.bootstrap import unit_of_work_factory
from compliance.service_layer.demo import run_demo


def test_the_demo_catches_what_it_tampered_with_and_writes_the_report(sqlite_url, tmp_path):
    log = str(tmp_path / "demo.jsonl")
    records = str(tmp_path / "platform")
    shown = run_demo(
        unit_of_work_factory(sqlite_url),
        24,
        2026,
        log,
        tmp_path / "report.html",
        records_path=records,
    )
    assert shown.audit.sessions == 24 and shown.rule_rows > 0
    assert shown.caught == len(shown.tally.found & set(shown.log.anomalies))
    assert shown.report_path.exists() and shown.report_path.read_text(encoding="utf-8")


def test_the_demo_audits_the_platform_records_and_finds_every_injected_duty_breach(
    sqlite_url, tmp_path
):
    records = tmp_path / "platform"
    shown = run_demo(
        unit_of_work_factory(sqlite_url),
        24,
        2026,
        str(tmp_path / "demo.jsonl"),
        tmp_path / "report.html",
        records_path=str(records),
    )
    assert sorted(p.name for p in records.iterdir()) == [
        "accounts.jsonl",
        "config.jsonl",
        "ledger.jsonl",
    ]
    injected = shown.platform.injected
    assert injected and shown.duties_caught == len(injected)
    assert set(injected) <= shown.tally.breaches
    duties = shown.audit.duties
    assert duties is not None and duties.records > 0
    assert shown.tally.duties == duties.found
    assert shown.tally.duties["violation"] > 0
