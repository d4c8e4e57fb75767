"""A store made in two steps (rows and window sums prepared before the write lock, written
under it) stores what one step does, also when another store of the run came in between."""

from __future__ import annotations

from datetime import date

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.audited import AuditedSession
from compliance.service_layer.audit import make_auditor
from compliance.service_layer.audit_options import AuditOptions
from compliance.service_layer.seeding import ensure_rules
from tests.integration.test_window_sums import assert_exact, session, write

DAY = date(2026, 3, 2)


def judged(engine, path: str) -> list[AuditedSession]:
    with SqlUnitOfWork(engine) as uow:
        book = ensure_rules(uow)
        uow.commit()
    auditor = make_auditor(book, AuditOptions(latest_day=date(2030, 1, 1)))
    return [s for s in auditor.audit_file(path) if isinstance(s, AuditedSession)]


def test_a_prepared_batch_whose_session_was_stored_from_a_later_line_meanwhile(
    any_db_url, tmp_path
):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    path = write(
        tmp_path / "log.jsonl",
        [
            session("s1", DAY, "o1", ["u1", "u2", "u3"]),
            session("s2", DAY, "o2", ["u2", "u4"], place="110000"),
            session("s1", DAY.replace(day=9), "o2", ["u5", "u1"], seed=4),
        ],
    )
    first, second, later = judged(engine, path)
    assert (first.session_id, later.session_id) == ("s1", "s1")
    with SqlUnitOfWork(engine) as uow:
        run_id = uow.runs.start([path], None, {})
        uow.commit()
        prepared = uow.runs.prepare_sessions(run_id, [first, second])
        with SqlUnitOfWork(engine) as other:  # as another worker, in between
            other.runs.store_sessions(run_id, [later])
            other.commit()
        uow.runs.write_prepared(prepared)
        uow.commit()
        assert uow.runs.count_stored(run_id) == 2
        assert uow.runs.count_repeated(run_id) == 1
    assert_exact(engine, run_id, [DAY, DAY.replace(day=9)])
    engine.dispose()
