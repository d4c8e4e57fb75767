"""旁算: a parallel run's stored digests, made in a forked process beside the window judging,
are those the driver would make, and a failure there leaves them to the driver."""

from __future__ import annotations

from datetime import date

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import aside
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, write_log

READ_FROM = date(2025, 1, 1)


def test_the_aside_digests_equal_the_drivers(any_db_url, tmp_path):
    path = tmp_path / "log.jsonl"
    write_log(SimulationSpec(games=("douniu",), sessions=60, seed=4), str(path))
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    uow = SqlUnitOfWork(engine)
    summary = services.audit(uow, [str(path)], services.AuditOptions(workers=2))
    factory = uow.worker_factory()
    assert factory is not None
    made = aside.DigestsAside(factory, summary.run_id, summary.platforms, READ_FROM).result()
    with SqlUnitOfWork(engine) as again:
        own = again.runs.stored_digests(summary.run_id, summary.platforms, READ_FROM)
        manifest = again.runs.manifest(summary.run_id)
    assert made == own
    assert int(own["window_sessions"]) == 60
    assert manifest is not None
    assert manifest["session_findings_sha256"] == own["session_findings_sha256"]
    engine.dispose()


def test_an_aside_that_fails_gives_none(monkeypatch, sqlite_url):
    engine = make_engine(sqlite_url)
    ensure_schema(engine)
    factory = SqlUnitOfWork(engine).worker_factory()
    assert factory is not None
    failing = aside.DigestsAside(factory, 999, {"sim"}, None)
    assert failing.result() is not None  # nothing stored: digests of nothing
    monkeypatch.setattr(factory, "url", "sqlite:////nonexistent/dir/x.db")
    assert aside.DigestsAside(factory, 1, {"sim"}, None).result() is None
    engine.dispose()
