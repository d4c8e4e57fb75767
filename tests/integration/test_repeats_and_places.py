"""Repeats counted by the store for its own run; places stored as resolved codes."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from datetime import date

from sqlalchemy import select, text

from compliance.db import migrate
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import PlayerMetricsRow, SessionRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer.seeding import seed
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.conftest import SAMPLES
from tests.integration.test_windows import room, write

GOOD = json.loads((SAMPLES / "douniu.jsonl").read_text().splitlines()[0])


def test_two_concurrent_audits_of_one_log_under_two_names_count_no_repeats(any_db_url, tmp_path):
    first = tmp_path / "first.jsonl"
    write_log(SimulationSpec(sessions=300, seed=5), str(first))
    second = tmp_path / "second.jsonl"
    shutil.copy(first, second)
    ensure_schema(make_engine(any_db_url))
    seed(SqlUnitOfWork(make_engine(any_db_url)))

    def run(path):
        options = services.AuditOptions(batch_size=10, window_days=0)
        engine = make_engine(any_db_url)
        try:
            return services.audit(SqlUnitOfWork(engine), [str(path)], options)
        finally:
            engine.dispose()

    with ThreadPoolExecutor(2) as pool:
        summaries = list(pool.map(run, [first, second]))
    assert [(s.sessions, s.repeated) for s in summaries] == [(300, 0), (300, 0)]


def test_the_store_counts_the_ids_its_own_run_met_twice_not_those_another_run_took(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    seed(SqlUnitOfWork(engine))
    with SqlUnitOfWork(engine) as uow:
        book = uow.rules.load()
    log = SAMPLES / "douniu.jsonl"
    judged = list(services.make_auditor(book, services.AuditOptions()).audit_file(str(log)))
    with SqlUnitOfWork(engine) as uow:
        mine, other = (uow.runs.start([str(log)], None, {}) for _ in range(2))
        uow.runs.store_sessions(mine, judged[:4])
        uow.runs.store_sessions(other, judged)
        uow.runs.store_sessions(mine, judged[4:])
        uow.runs.store_sessions(mine, [judged[5], judged[5]])
        uow.commit()
        assert (uow.runs.count_repeated(mine), uow.runs.count_repeated(other)) == (2, 0)
    engine.dispose()


def test_a_place_written_as_a_name_is_stored_as_its_code_with_what_was_written(
    any_db_url, tmp_path
):
    sessions = [
        room(0, "boss", "2026-01-10", where="湖北"),
        room(1, "boss", "2026-01-11", where="420000"),
        room(2, "boss", "2026-01-12", where="hubei"),
        room(3, "boss", "2026-01-13", where="无名之地"),
    ]
    sessions[1]["players"][0]["jurisdiction"] = "湖南"
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    services.audit(
        SqlUnitOfWork(engine), [write(tmp_path / "a.jsonl", sessions)], services.AuditOptions()
    )
    with engine.connect() as conn:
        stored = conn.execute(
            select(
                SessionRow.session_id,
                SessionRow.jurisdiction,
                SessionRow.jurisdiction_written,
                SessionRow.jurisdictions,
            ).order_by(SessionRow.session_id)
        ).all()
        player = conn.execute(
            select(PlayerMetricsRow.jurisdiction, PlayerMetricsRow.jurisdiction_written).where(
                PlayerMetricsRow.player_id == sessions[1]["players"][0]["id"]
            )
        ).one()
    assert [tuple(r) for r in stored] == [
        ("boss-000", "420000", "湖北", ["420000"]),
        ("boss-001", "420000", "420000", ["420000", "430000"]),
        ("boss-002", "420000", "hubei", ["420000"]),
        ("boss-003", "无名之地", "无名之地", ["无名之地"]),
    ]
    assert tuple(player) == ("430000", "湖南")
    with SqlUnitOfWork(engine) as uow:
        figures = uow.windows.figures({"p1"}, date(2026, 1, 1), date(2026, 1, 31))
    owner = next(f for f in figures if f.kind == "owner")
    assert owner.places == {"420000": 3, "无名之地": 1}
    engine.dispose()


BEFORE = "2e38da211e8e"


def test_the_migration_resolves_the_places_already_stored(any_db_url):
    engine = make_engine(any_db_url)
    migrate.upgrade(engine, BEFORE)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO audit_runs (id, started_at, options, files, sessions, rejects, summary)"
                " VALUES (1, '2026-01-01 00:00:00+00:00', '{}', '[]', 3, 0, '{}')"
            )
        )
        for sid, place, players in (
            ("a", "湖北", ["湖南", "湖北"]),
            ("b", "420000", ["420000"]),
            ("c", "无名之地", ["CN-HN"]),
        ):
            conn.execute(
                text(
                    "INSERT INTO sessions (platform, session_id, run_id, game, started_at, day,"
                    " jurisdiction, jurisdictions, venue, headcount, rounds, source_file,"
                    " source_line) VALUES ('p', :sid, 1, 'douniu', '2026-01-01 00:00:00+00:00',"
                    " '2026-01-01', :place, :places, 'online', 2, 1, 'f', 1)"
                ),
                {"sid": sid, "place": place, "places": json.dumps(sorted(set(players)))},
            )
            for i, where in enumerate(players):
                conn.execute(
                    text(
                        "INSERT INTO player_metrics (platform, session_id, player_id, name,"
                        " jurisdiction, rounds, banker_rounds) VALUES ('p', :sid, :pid, '',"
                        " :where, 1, 0)"
                    ),
                    {"sid": sid, "pid": f"u{i}", "where": where},
                )
    migrate.upgrade(engine)
    with engine.connect() as conn:
        sessions = conn.execute(
            select(
                SessionRow.session_id,
                SessionRow.jurisdiction,
                SessionRow.jurisdiction_written,
                SessionRow.jurisdictions,
            ).order_by(SessionRow.session_id)
        ).all()
        players = conn.execute(
            select(
                PlayerMetricsRow.session_id,
                PlayerMetricsRow.jurisdiction,
                PlayerMetricsRow.jurisdiction_written,
            ).order_by(PlayerMetricsRow.session_id, PlayerMetricsRow.player_id)
        ).all()
    assert [tuple(r) for r in sessions] == [
        ("a", "420000", "湖北", ["420000", "430000"]),
        ("b", "420000", "420000", ["420000"]),
        ("c", "无名之地", "无名之地", ["430000"]),
    ]
    assert [tuple(r) for r in players] == [
        ("a", "430000", "湖南"),
        ("a", "420000", "湖北"),
        ("b", "420000", "420000"),
        ("c", "430000", "CN-HN"),
    ]
    migrate.check(engine)
    engine.dispose()


def test_a_report_on_a_province_counts_its_sessions_however_the_logs_named_it(any_db_url, tmp_path):
    from compliance.reporting.model import ReportQuery
    from compliance.service_layer import reports as report_service

    names = ["湖北", "420000", "hubei", "湖南"]
    sessions = [room(n, "boss", f"2026-01-1{n}", where=where) for n, where in enumerate(names)]
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    services.audit(
        SqlUnitOfWork(engine), [write(tmp_path / "a.jsonl", sessions)], services.AuditOptions()
    )
    report = report_service.make_report(SqlUnitOfWork(engine), ReportQuery(jurisdiction="湖北"))
    assert (report.sessions, report.players) == (3, 12)
    engine.dispose()
