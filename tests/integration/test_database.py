"""Migrations, seeding and run storage, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

from sqlalchemy import func, select

from compliance.db import migrate
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import BandRow, FindingRow, PlayerMetricsRow, RejectRow, SessionRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer import seeding
from tests.conftest import SAMPLES


def count(engine, model) -> int:
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(model)).scalar_one()


def test_upgrade_head_leaves_no_drift_between_models_and_migrations(any_db_url):
    engine = make_engine(any_db_url)
    migrate.upgrade(engine)
    assert migrate.current(engine) == migrate.head()
    migrate.check(engine)


def test_a_new_database_is_migrated_on_first_use(any_db_url):
    engine = make_engine(any_db_url)
    assert migrate.current(engine) is None
    ensure_schema(engine)
    assert migrate.current(engine) == migrate.head()


def test_seeding_twice_changes_nothing_the_second_time(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    first = seeding.seed(SqlUnitOfWork(engine))
    bands = count(engine, BandRow)
    second = seeding.seed(SqlUnitOfWork(engine))
    assert bands > 20
    assert count(engine, BandRow) == bands
    assert sum(added for added, _ in first.values()) > 0
    assert sum(added for added, _ in second.values()) == 0


def test_the_stored_rule_book_equals_the_files(any_db_url, rule_book):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    seeding.seed(SqlUnitOfWork(engine))
    with SqlUnitOfWork(engine) as uow:
        stored = uow.rules.load()
    assert {b.id: b for b in stored.bands} == {b.id: b for b in rule_book.bands}
    assert stored.instruments == rule_book.instruments
    assert stored.jurisdictions == rule_book.jurisdictions
    assert sorted(stored.penalties, key=lambda p: p.id) == sorted(
        rule_book.penalties, key=lambda p: p.id
    )
    assert sorted(stored.aggravations, key=lambda a: a.id) == sorted(
        rule_book.aggravations, key=lambda a: a.id
    )


def test_auditing_the_same_file_twice_keeps_one_result_per_session(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    sample = str(SAMPLES / "douniu.jsonl")
    first = services.audit(SqlUnitOfWork(engine), [sample], services.AuditOptions())
    sessions, players, findings = (
        count(engine, m) for m in (SessionRow, PlayerMetricsRow, FindingRow)
    )
    second = services.audit(SqlUnitOfWork(engine), [sample], services.AuditOptions())
    assert second.run_id == first.run_id + 1
    assert sessions == first.sessions == 8
    assert count(engine, SessionRow) == sessions
    assert count(engine, PlayerMetricsRow) == players
    assert count(engine, FindingRow) == 2 * findings  # each run's findings stay (DESIGN §7)
    with engine.connect() as conn:
        runs = set(conn.execute(select(SessionRow.run_id)).scalars())
        by_run = dict(
            conn.execute(select(FindingRow.run_id, func.count()).group_by(FindingRow.run_id)).all()
        )
    assert runs == {second.run_id}
    assert by_run == {first.run_id: findings, second.run_id: findings}


def test_rejects_are_stored_with_their_run(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    summary = services.audit(
        SqlUnitOfWork(engine), [str(SAMPLES / "bad.jsonl")], services.AuditOptions()
    )
    assert (summary.sessions, summary.rejects) == (1, 3)
    with engine.connect() as conn:
        rows = conn.execute(
            select(RejectRow.line, RejectRow.session_id).order_by(RejectRow.line)
        ).all()
    assert [tuple(r) for r in rows] == [(2, "cut-1"), (3, "dup-card"), (4, "mystery-game")]


def test_what_no_column_could_hold_is_a_reject_and_the_run_is_stored(any_db_url, tmp_path):
    import json

    good = json.loads((SAMPLES / "douniu.jsonl").read_text().splitlines()[0])
    absurd = dict(good, session_id="absurd")
    absurd["rounds"] = [dict(good["rounds"][0], base=10**15)]
    long_id = dict(good, session_id="s" * 129)
    long_player = dict(good, session_id="long-player")
    long_player["players"] = [dict(good["players"][0], id="p" * 129), *good["players"][1:]]
    dear = dict(good, session_id="dear", point_value="100000000")
    log = tmp_path / "edges.jsonl"
    log.write_text(
        "".join(json.dumps(s) + "\n" for s in (absurd, long_id, long_player, dear, good))
    )
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    summary = services.audit(SqlUnitOfWork(engine), [str(log)], services.AuditOptions())
    assert (summary.sessions, summary.rejects) == (1, 4)
    with engine.connect() as conn:
        rejects = conn.execute(
            select(RejectRow.line, RejectRow.reason).order_by(RejectRow.line)
        ).all()
        stored = conn.execute(select(SessionRow.session_id)).scalars().all()
    assert [(line, reason.split(":")[0]) for line, reason in rejects] == [
        (1, "stakes beyond any real game"),
        (2, "invalid session"),
        (3, "invalid session"),
        (4, "point_value must be a positive number of yuan below 100,000,000"),
    ]
    assert "length <= 128 - at `$.players[0].id`" in rejects[2][1]
    assert stored == [good["session_id"]]
    with engine.connect() as conn:
        named = conn.execute(select(RejectRow.session_id).where(RejectRow.line == 2)).scalar_one()
    assert named == "s" * 127 + "…"


def test_a_lines_texts_are_stored_once_and_every_threshold_finding_names_its_line(any_db_url):
    from compliance.db.models import FindingLineRow

    engine = make_engine(any_db_url)
    ensure_schema(engine)
    for _ in range(2):  # a re-audit finds its lines already stored
        services.audit(
            SqlUnitOfWork(engine), [str(SAMPLES / "douniu.jsonl")], services.AuditOptions()
        )
    with engine.connect() as conn:
        named = conn.execute(
            select(FindingRow.line_id, FindingLineRow.id)
            .outerjoin(FindingLineRow, FindingLineRow.id == FindingRow.line_id)
            .where(FindingRow.kind == "threshold")
        ).all()
        others = conn.execute(
            select(func.count())
            .select_from(FindingRow)
            .where(FindingRow.kind != "threshold", FindingRow.line_id.is_not(None))
        ).scalar_one()
    assert named and all(line is not None and found == line for line, found in named)
    assert count(engine, FindingLineRow) == len({line for line, _ in named}) < len(named)
    assert others == 0


def test_a_row_postgresql_refuses_in_a_copy_is_a_one_line_database_error(pg_engine):
    import pytest

    from compliance.db import bulk, runs
    from compliance.errors import DatabaseError

    ensure_schema(pg_engine)
    with SqlUnitOfWork(pg_engine) as uow, pytest.raises(DatabaseError) as raised:
        bulk.insert_rows(uow.conn, runs.SESSIONS, ("platform", "session_id"), [("p" * 65, "s")])
    assert str(raised.value) == ("storing sessions: value too long for type character varying(64)")


def test_a_session_met_twice_in_a_run_keeps_its_later_line_whatever_order_it_is_stored_in(
    any_db_url, tmp_path
):
    import json

    first, other = (
        json.loads(line) for line in (SAMPLES / "douniu.jsonl").read_text().splitlines()[:2]
    )
    again = dict(first, point_value="2")
    log = tmp_path / "twice.jsonl"
    log.write_text("".join(json.dumps(s) + "\n" for s in (first, other, again)))
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    seeding.seed(SqlUnitOfWork(engine))
    with SqlUnitOfWork(engine) as uow:
        book = uow.rules.load()
    earlier, _, later = services.make_auditor(book, services.AuditOptions()).audit_file(str(log))

    def stored_line():
        with engine.connect() as conn:
            return conn.execute(
                select(SessionRow.source_line, SessionRow.point_value).where(
                    SessionRow.session_id == first["session_id"]
                )
            ).one()

    for batches in ([[later], [earlier]], [[earlier], [later]], [[later, earlier]]):
        with SqlUnitOfWork(engine) as uow:
            run = uow.runs.start([str(log)], None, {})
            for batch in batches:
                uow.runs.store_sessions(run, batch)
            uow.commit()
        assert stored_line() == (3, 2)
        assert count(engine, PlayerMetricsRow) == len(first["players"])
    with SqlUnitOfWork(engine) as uow:
        uow.runs.store_sessions(uow.runs.start([str(log)], None, {}), [earlier])
        uow.commit()
    assert stored_line() == (1, 1)


def test_workers_storing_one_session_at_once_take_turns_and_keep_the_later_line(
    any_db_url, tmp_path
):
    import json
    import threading
    import time

    first, other = (
        json.loads(line) for line in (SAMPLES / "douniu.jsonl").read_text().splitlines()[:2]
    )
    log = tmp_path / "twice.jsonl"
    log.write_text(
        "".join(json.dumps(s) + "\n" for s in (first, other, dict(first, point_value="2")))
    )
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    seeding.seed(SqlUnitOfWork(engine))
    with SqlUnitOfWork(engine) as uow:
        book = uow.rules.load()
        run = uow.runs.start([str(log)], None, {})
        uow.commit()
    earlier, _, later = services.make_auditor(book, services.AuditOptions()).audit_file(str(log))
    failures = []

    def second_worker():
        try:
            with SqlUnitOfWork(engine) as uow:
                uow.runs.store_sessions(run, [earlier])
                uow.commit()
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)

    with SqlUnitOfWork(engine) as first_worker:
        first_worker.runs.store_sessions(run, [later])
        waiting = threading.Thread(target=second_worker)
        waiting.start()
        time.sleep(0.5)
        assert waiting.is_alive(), "the second worker did not wait for the first's commit"
        first_worker.commit()
    waiting.join(30)
    assert failures == []
    with engine.connect() as conn:
        stored = (
            conn.execute(
                select(SessionRow.source_line).where(SessionRow.session_id == first["session_id"])
            )
            .scalars()
            .all()
        )
    assert stored == [3]


def test_sqlite_keeps_planner_statistics_of_the_stored_sessions(sqlite_url, tmp_path):
    from sqlalchemy import text

    from compliance.service_layer.simulate import SimulationSpec, write_log

    engine = make_engine(sqlite_url)
    ensure_schema(engine)

    def audit_new(n, seed):
        log = tmp_path / f"s{seed}.jsonl"
        write_log(SimulationSpec(games=("douniu",), sessions=n, seed=seed), str(log))
        services.audit(SqlUnitOfWork(engine), [str(log)], services.AuditOptions(window_days=0))
        with engine.connect() as conn:
            return conn.execute(
                text("SELECT stat FROM sqlite_stat1 WHERE idx = 'ix_player_metrics_player'")
            ).scalar()

    first = audit_new(20, 1)
    assert first.split()[0] == str(count(engine, PlayerMetricsRow))
    assert audit_new(10, 2) == first
    assert audit_new(30, 3).split()[0] == str(count(engine, PlayerMetricsRow))


def test_a_sqlalchemy_error_leaves_the_unit_of_work_as_a_one_line_database_error(sqlite_engine):
    import pytest

    from compliance.errors import DatabaseError

    with pytest.raises(DatabaseError) as raised, SqlUnitOfWork(sqlite_engine) as uow:
        uow.conn.exec_driver_sql("SELECT * FROM nowhere")
    assert str(raised.value) == "database error: (sqlite3.OperationalError) no such table: nowhere"


def test_a_unit_of_work_factory_travels_to_a_worker_without_its_engine(sqlite_url):
    import pickle

    from compliance.service_layer.bootstrap import unit_of_work_factory

    factory = unit_of_work_factory(sqlite_url)
    sent = pickle.loads(pickle.dumps(factory))
    assert sent == factory and sent._engine is None
    with sent() as uow:
        assert uow.rules.has_any() is False
