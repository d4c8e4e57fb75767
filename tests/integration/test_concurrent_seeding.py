"""Two audits started at once on an empty database both run: seeding takes the store's
write lock and looks again, so the second finds the first's rules (docs/reliability.md)."""

from __future__ import annotations

import multiprocessing

from sqlalchemy import func, select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import AuditRunRow, RuleChangeRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from tests.conftest import SAMPLES


def _audit_when_released(url: str, start, out) -> None:
    engine = make_engine(url)
    start.wait(60)
    try:
        ensure_schema(engine)
        summary = services.audit(
            SqlUnitOfWork(engine), [str(SAMPLES / "douniu.jsonl")], services.AuditOptions()
        )
        out.put(("ok", summary.sessions))
    except Exception as exc:  # noqa: BLE001 - what the child met is the test's answer
        out.put(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        engine.dispose()


def test_two_audits_started_at_once_on_an_empty_database_both_finish(any_db_url):
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(2), context.Queue()
    workers = [
        context.Process(target=_audit_when_released, args=(any_db_url, start, out))
        for _ in range(2)
    ]
    for w in workers:
        w.start()
    results = [out.get(timeout=300) for _ in workers]
    for w in workers:
        w.join(60)
    assert [kind for kind, _ in results] == ["ok", "ok"], results
    engine = make_engine(any_db_url)
    with engine.connect() as conn:
        runs = conn.execute(select(func.count()).select_from(AuditRunRow)).scalar_one()
        inserts = conn.execute(
            select(func.count(), func.count(func.distinct(RuleChangeRow.row_key))).where(
                RuleChangeRow.action == "insert"
            )
        ).one()
    engine.dispose()
    assert runs == 2
    assert inserts[0] == inserts[1] > 100  # every rule row seeded once, by one of the two
