"""Reports of a simulated, audited run: filters, escaping, exports, offline HTML."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date

import pytest
from sqlalchemy import select

from compliance.db.models import FindingRow, WindowFindingRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.reporting.csv_report import render_csv
from compliance.reporting.html import render_html
from compliance.reporting.json_report import render_json
from compliance.reporting.model import ReportQuery
from compliance.service_layer import reports as report_service
from tests.builders_report import FORMULA_NAME, HOSTILE_NAME, HOSTILE_ROOM, audited_database

CHARTS = ("by_place", "distribution", "near_misses", "exposure", "over_time", "mismatches")
SERIOUS = {
    "administrative",
    "administrative_serious",
    "administrative_very_serious",
    "criminal",
    "criminal_serious",
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    engine = audited_database(tmp_path_factory.mktemp("reports"), sessions=40, hostile=True)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def full_report(engine):
    return report_service.make_report(SqlUnitOfWork(engine), ReportQuery())


@pytest.fixture(scope="module")
def html(full_report) -> str:
    return render_html(full_report, "zh")


def _key(f: dict) -> tuple:
    return (
        f["session_id"] or "",
        f["subject"],
        f["kind"],
        f.get("tier") or f.get("check") or "",
        str(f.get("round") or ""),
    )


def test_a_hostile_player_name_and_room_show_as_text(html):
    assert HOSTILE_NAME not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    assert "<script" not in html


def test_the_html_fetches_nothing(html):
    assert not re.search(r'\b(?:src|href)\s*=\s*"(?!#|data:)', html)
    assert "default-src 'none'" in html


def test_every_chart_is_inline_svg(html):
    for name in CHARTS:
        assert f'<svg class="chart" data-chart="{name}"' in html


def test_the_report_says_it_is_not_legal_advice_in_both_languages(html):
    assert "本报告仅供参考，不构成法律意见。" in html
    assert "This report informs; it is not legal advice." in html


def test_without_a_cjk_font_the_report_says_so_and_still_draws(full_report):
    page = render_html(full_report, "en", cjk_family=None)
    assert "No CJK font found: chart labels are in English only." in page
    assert page.count('<svg class="chart"') == len(CHARTS)


def test_csv_neutralises_a_formula_in_a_player_name(full_report):
    rows = list(csv.DictReader(io.StringIO(render_csv(full_report))))
    names = {row["name"] for row in rows}
    assert "'" + FORMULA_NAME in names
    assert not any(
        cell.startswith(("=", "+", "@"))
        for row in rows
        for cell in row.values()
        if cell and not _is_number(cell)
    )


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_filtered_csv_and_json_hold_exactly_the_filtered_findings(engine):
    query = ReportQuery(jurisdiction="hunan", tiers=("administrative", "integrity"))
    report = report_service.make_report(SqlUnitOfWork(engine), query)
    with engine.connect() as conn:
        stored = [r.payload for r in conn.execute(select(FindingRow.payload))]
        stored += [r.payload for r in conn.execute(select(WindowFindingRow.payload))]
    expected = {
        _key(f)
        for f in stored
        if f["jurisdiction"] == "430000" and (f["kind"] == "integrity" or f.get("tier") in SERIOUS)
    }
    from_csv = {_key(row) for row in csv.DictReader(io.StringIO(render_csv(report)))}
    from_json = {_key(f) for f in json.loads(render_json(report))["findings"]}
    assert expected
    assert from_csv == expected
    assert from_json == expected


def test_a_date_range_reads_sessions_of_every_run(engine, full_report):
    days = sorted(f["day"] for f in full_report.findings if f["session_id"])
    since, until = days[len(days) // 3], days[2 * len(days) // 3]
    query = ReportQuery(since=date.fromisoformat(since), until=date.fromisoformat(until))
    report = report_service.make_report(SqlUnitOfWork(engine), query, run=None)
    assert report.findings
    assert all(since <= f["day"] <= until for f in report.findings if f["session_id"])
    assert all(since <= f["day"] <= until for f in report.findings if not f["session_id"])
    assert report.query.run is None
    assert [r.id for r in report.runs] == [1]


def test_the_room_filter_of_json_keeps_the_summary_consistent(engine):
    report = report_service.make_report(SqlUnitOfWork(engine), ReportQuery(game="douniu"))
    data = json.loads(render_json(report))
    assert {f["game"] for f in data["findings"]} == {"douniu"}
    assert sum(data["summary"]["findings"].values()) == len(data["findings"])
    assert data["threshold_lines"]
    assert data["top_rooms"][0]["capital"] >= data["top_rooms"][-1]["capital"]


def test_room_owners_judged_over_a_window_are_in_the_report(full_report):
    owners = [f for f in full_report.findings if f["subject"].startswith("owner:")]
    assert owners
    assert all(f["session_id"] is None and f["window_start"] for f in owners)
    assert sum(full_report.kinds.values()) == len(full_report.findings)


def test_hostile_room_stays_text_in_json(full_report):
    data = json.loads(render_json(full_report))
    assert HOSTILE_ROOM in {f.get("room_id") for f in data["findings"]}


@pytest.mark.postgres
def test_a_filtered_report_reads_the_same_on_postgresql(pg_url, tmp_path, engine):
    pg = audited_database(tmp_path, sessions=40, hostile=True, url=pg_url)
    query = ReportQuery(jurisdiction="湖南", tiers=("administrative",), game="douniu")
    try:
        on_pg = report_service.make_report(SqlUnitOfWork(pg), query)
        exported = [_key(f) for f in on_pg.export()]
    finally:
        pg.dispose()
    on_sqlite = report_service.make_report(SqlUnitOfWork(engine), query)
    assert on_pg.findings
    assert [_key(f) for f in on_pg.findings] == [_key(f) for f in on_sqlite.findings]
    assert exported == [_key(f) for f in on_sqlite.export()]
    assert len(exported) == on_pg.total
    assert (on_pg.sessions, on_pg.players, len(on_pg.lines)) == (
        on_sqlite.sessions,
        on_sqlite.players,
        len(on_sqlite.lines),
    )


def test_a_run_stopped_part_way_keeps_what_it_stored_and_every_report_says_so(tmp_path):
    from compliance.db.engine import make_engine
    from compliance.db.migrate import upgrade
    from compliance.db.unit_of_work import SqlUnitOfWork
    from compliance.reporting.markdown import render_markdown
    from compliance.service_layer import audit as services
    from compliance.service_layer.simulate import SimulationSpec, write_log

    log = tmp_path / "sessions.jsonl"
    write_log(SimulationSpec(games=("douniu",), sessions=30, seed=3), str(log))
    engine = make_engine(f"sqlite:///{tmp_path / 'compliance.db'}")
    upgrade(engine)
    seen = []

    def stop_in_the_third_batch(finding):
        seen.append(finding.session_id)
        if len(set(seen)) > 25:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        services.audit(
            SqlUnitOfWork(engine),
            [str(log)],
            services.AuditOptions(batch_size=10),
            stop_in_the_third_batch,
        )
    report = report_service.make_report(SqlUnitOfWork(engine), ReportQuery())
    assert (report.sessions, report.unfinished) == (20, "#1")
    assert "> 批次 #1 未完成（中断或出错）: 只含停止前已存的场次。" in render_markdown(report, "zh")
    assert 'id="unfinished"' in render_html(report, "en", cjk_family=None)
    assert [r["finished"] for r in json.loads(render_json(report))["runs"]] == [False]
    engine.dispose()


def test_a_date_range_leaves_out_window_findings_dated_outside_it(any_db_url, tmp_path):
    engine = audited_database(tmp_path, sessions=40, url=any_db_url)
    try:
        everything = report_service.make_report(SqlUnitOfWork(engine), ReportQuery())
        ends = sorted({f["window_end"] for f in everything.export() if not f["session_id"]})
        since, until = date.fromisoformat(ends[0]), date.fromisoformat(ends[len(ends) // 2])
        query = ReportQuery(since=since, until=until)
        report = report_service.make_report(SqlUnitOfWork(engine), query, run=None)
        windows = [f for f in report.export() if not f["session_id"]]
    finally:
        engine.dispose()
    assert len(ends) > 2
    assert windows
    assert all(since.isoformat() <= f["window_end"] <= until.isoformat() for f in windows)
    assert all(since.isoformat() <= f["day"] <= until.isoformat() for f in report.findings)


def test_an_older_runs_report_keeps_what_it_found_after_a_re_audit(any_db_url, tmp_path):
    from compliance.service_layer import audit as services

    engine = audited_database(tmp_path, sessions=30, url=any_db_url)
    try:
        first = report_service.make_report(SqlUnitOfWork(engine), ReportQuery(), run=1)
        before = json.loads(render_json(first))
        log = tmp_path / "sessions.jsonl"
        lines = log.read_text(encoding="utf-8").splitlines()
        (tmp_path / "again.jsonl").write_text("\n".join(lines[:10]) + "\n", encoding="utf-8")
        services.audit(
            SqlUnitOfWork(engine), [str(tmp_path / "again.jsonl")], services.AuditOptions()
        )
        again = report_service.make_report(SqlUnitOfWork(engine), ReportQuery(), run=1)
        after = json.loads(render_json(again))
        second = report_service.make_report(SqlUnitOfWork(engine), ReportQuery(), run=2)
        current = report_service.make_report(
            SqlUnitOfWork(engine), ReportQuery(since=date(2000, 1, 1)), run=None
        )
        html_again = render_html(again, cjk_family=None)
    finally:
        engine.dispose()
    session_findings = [_key(f) for f in before["findings"] if f["session_id"]]
    assert session_findings
    assert [_key(f) for f in after["findings"] if f["session_id"]] == session_findings
    assert after["summary"] == before["summary"]
    assert (again.sessions, again.players) == (first.sessions, first.players)
    assert again.reaudited == {2: 10}
    assert after["reaudited"] == {"2": 10}
    assert 'id="reaudited"' in html_again and "#2 (10)" in html_again
    assert second.sessions == 10
    assert {f["session_id"] for f in second.findings if f["session_id"]} <= {
        json.loads(line)["session_id"] for line in lines[:10]
    }
    assert current.sessions == 30  # the current state counts each session once
    stored = current.total - sum(1 for f in current.export() if not f["session_id"])
    assert stored == sum(1 for f in before["findings"] if f["session_id"])


def test_a_runs_time_in_json_names_its_zone_on_sqlite_too(full_report, engine):
    assert engine.dialect.name == "sqlite"
    (run,) = json.loads(render_json(full_report))["runs"]
    assert run["started_at"].endswith("+00:00")
