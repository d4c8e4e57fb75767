"""复核与豁免 on SQLite and PostgreSQL, as a user meets them: waive, audit, review, report,
and the one trail that catches an edit behind the tool's back."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select, text

from compliance.cli import cli
from compliance.db.engine import make_engine
from compliance.db.review_models import WaivedFindingRow
from tests.conftest import SAMPLES

DOUNIU = str(SAMPLES / "douniu.jsonl")
SUMMARY = (
    "audited 8 sessions, 0 rejected; findings: threshold 32 (exempt 4, below_threshold 9, "
    "administrative 7, administrative_serious 1, administrative_very_serious 11), "
    "integrity 1, indeterminate 4; run {run} stored in {where}"
)


@pytest.fixture
def run(any_db_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(
            cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": any_db_url, "USER": "li"}
        )

    return invoke


def last_line(result) -> str:
    return result.stderr.strip().splitlines()[-1]


def where(any_db_url) -> str:
    return make_engine(any_db_url).url.render_as_string(hide_password=True)


def report_rows(run, *args: str) -> list[dict[str, str]]:
    result = run("report", *args, "--format", "csv", "-o", "-")
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_a_waiver_lets_its_findings_by_fail_on_and_the_run_stores_them_marked(run, any_db_url):
    assert run("audit", DOUNIU, "--fail-on", "administrative").exit_code == 3
    made = run(
        "waive",
        "--platform",
        "demo-platform",
        "--reason",
        "a test platform",
        "--until",
        "2030-01-01",
    )
    assert (made.exit_code, made.stdout) == (
        0,
        "waiver 1: platform=demo-platform, any day to 2030-01-01\n",
    )
    waived = run("audit", DOUNIU, "--fail-on", "administrative")
    assert waived.exit_code == 0
    assert last_line(waived) == SUMMARY.format(run=2, where=where(any_db_url)) + (
        "; 37 findings waived (still stored), by waiver #1 (37)"
    )
    with make_engine(any_db_url).connect() as conn:
        stored = select(func.count()).select_from(WaivedFindingRow.__table__)
        assert conn.execute(stored.where(WaivedFindingRow.run_id == 2)).scalar_one() == 37
    assert run("audit", DOUNIU, "--fail-on", "administrative", "--include-waived").exit_code == 3
    rows = report_rows(run)
    assert len(rows) == 37 and {r["waiver"] for r in rows} == {"1"}
    revoked = run("waivers", "revoke", "1", "--reason", "not a test platform after all")
    assert revoked.stdout == "waiver 1 revoked by li: not a test platform after all\n"
    again = run("audit", DOUNIU, "--fail-on", "administrative")
    assert (again.exit_code, last_line(again)) == (
        3,
        SUMMARY.format(run=4, where=where(any_db_url)),
    )
    assert {r["waiver"] for r in report_rows(run)} == {""}


def test_a_waiver_dated_before_or_after_the_sessions_covers_nothing(run):
    run("waive", "--player", "hn1", "--reason", "old", "--until", "2025-12-30")
    run(
        "waive",
        "--player",
        "hn1",
        "--reason",
        "to come",
        "--from",
        "2026-04-01",
        "--until",
        "2026-12-31",
    )
    result = run("audit", DOUNIU)
    assert "waived" not in last_line(result)
    listed = run("waivers", "list", "--all")
    assert listed.stdout.splitlines()[0].split() == [
        "id",
        "state",
        "scope",
        "covers",
        "actor",
        "reason",
    ]
    states = [line.split()[:2] for line in listed.stdout.splitlines()[1:]]
    today = datetime.now(UTC).date()
    assert states == [["1", "expired"], ["2", "active" if today >= date(2026, 4, 1) else "future"]]
    assert run("waivers", "list").stdout.splitlines()[1].split()[:2] == states[1]


def test_a_review_status_holds_in_the_next_run_and_report_status_filters(run):
    run("audit", DOUNIU)
    rows = report_rows(run)
    assert {r["review_status"] for r in rows} == {"open"}
    target = next(r for r in rows if r["tier"] == "administrative_very_serious")
    fp = target["fingerprint"]
    refused = run("review", "set", fp[:8], "dismissed")
    assert refused.exit_code == 2
    assert "a finding dismissed needs a note (--note) saying why" in refused.stderr
    done = run("review", "set", fp[:8], "dismissed", "--note", "a cousins' table, verified")
    assert done.exit_code == 0 and done.stdout.startswith(f"{fp}: 已驳回 dismissed (")
    run("audit", DOUNIU)
    later = {r["fingerprint"]: r["review_status"] for r in report_rows(run)}
    assert later[fp] == "dismissed"
    assert fp not in {r["fingerprint"] for r in report_rows(run, "--status", "open")}
    assert [r["fingerprint"] for r in report_rows(run, "--status", "dismissed")] == [fp]
    run("review", "set", fp, "escalated", "--note", "sent to the police")
    shown = run("review", "show", fp[:10])
    lines = shown.stdout.splitlines()
    assert lines[0] == f"{fp}: 已上报 escalated"
    assert [line.split("  ")[2:] for line in lines[1:]] == [
        ["li", "dismissed", "a cousins' table, verified"],
        ["li", "escalated", "sent to the police"],
    ]


def test_the_trail_catches_a_waiver_or_review_edited_or_deleted_behind_the_tools_back(
    run, any_db_url
):
    run("audit", DOUNIU)
    fp = report_rows(run)[0]["fingerprint"]
    run("review", "set", fp, "confirmed")
    run("waive", "--room", "r1", "--reason", "checked", "--until", "2030-01-01")
    intact = run("trail", "verify")
    assert intact.exit_code == 0 and intact.stdout.endswith(": intact\n")
    assert run("rules", "verify").stdout == intact.stdout
    engine = make_engine(any_db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE reviews SET status = 'dismissed'"))
        conn.execute(text("DELETE FROM waivers"))
    broken = run("trail", "verify")
    assert broken.exit_code == 3
    assert broken.stdout.splitlines()[:2] == [
        "waivers 1: deleted outside the tool",
        f"reviews {fp}: changed outside the tool (status: trail 'confirmed', database 'dismissed')",
    ]


def test_a_waiver_shown_whole_and_listed_as_json(run):
    run(
        "waive",
        "--owner",
        "o9",
        "--band",
        "integrity/payout",
        "--reason",
        "known glitch",
        "--from",
        "2026-01-01",
        "--until",
        "2026-06-30",
    )
    shown = run("waivers", "show", "1")
    lines = shown.stdout.splitlines()
    assert lines[:4] == [
        "waiver 1 (expired)",  # its last day is behind us: it still covers findings dated so
        "  scope    owner=o9, band=integrity/payout",
        "  covers   findings dated 2026-01-01 to 2026-06-30",
        "  reason   known glitch",
    ]
    assert lines[4].startswith("  by       li, ")
    listed = json.loads(run("waivers", "list", "--all", "--format", "json").stdout)
    assert [(w["id"], w["scope"], w["from"], w["until"]) for w in listed] == [
        (1, {"owner": "o9", "band": "integrity/payout"}, "2026-01-01", "2026-06-30")
    ]
    missing = run("waivers", "show", "7")
    assert missing.exit_code == 2 and "no waiver 7 is stored" in missing.stderr
    again = run("waivers", "revoke", "1", "--reason", "x")
    twice = run("waivers", "revoke", "1", "--reason", "x")
    assert again.exit_code == 0 and twice.exit_code == 2
    assert "waiver 1 was revoked on " in twice.stderr
