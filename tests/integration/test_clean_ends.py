"""A run that never reaches its end still shows, unfinished (issue #16)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import AuditRunRow, RejectRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.errors import LogError
from compliance.service_layer import audit as services
from tests.conftest import SAMPLES


def _stop(_item):
    raise KeyboardInterrupt


def test_a_run_stopped_before_its_first_batch_is_stored_unfinished(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    with pytest.raises(KeyboardInterrupt):
        services.audit(
            SqlUnitOfWork(engine),
            [str(SAMPLES / "douniu.jsonl")],
            services.AuditOptions(),
            on_session=_stop,
        )
    with engine.connect() as conn:
        runs = conn.execute(select(AuditRunRow.id, AuditRunRow.finished_at)).all()
    assert [tuple(r) for r in runs] == [(1, None)]
    engine.dispose()


def test_rejects_stored_in_their_own_batches_stay_when_the_run_stops(any_db_url, tmp_path):
    path = tmp_path / "rejects.jsonl"
    path.write_text("{not json\n" * 5)
    seen = []

    def stop_at_the_fifth(item):
        seen.append(item)
        if len(seen) == 5:
            raise KeyboardInterrupt

    engine = make_engine(any_db_url)
    ensure_schema(engine)
    with pytest.raises(KeyboardInterrupt):
        services.audit(
            SqlUnitOfWork(engine),
            [str(path)],
            services.AuditOptions(reject_batch_size=2),
            on_session=stop_at_the_fifth,
        )
    with engine.connect() as conn:
        lines = conn.execute(select(RejectRow.line).order_by(RejectRow.line)).scalars().all()
        finished = conn.execute(select(AuditRunRow.finished_at)).scalar_one()
    assert (lines, finished) == ([1, 2, 3, 4], None)
    engine.dispose()


def test_a_strict_run_that_stops_keeps_nothing_not_even_its_run(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    with pytest.raises(LogError):
        services.audit(
            SqlUnitOfWork(engine), [str(SAMPLES / "bad.jsonl")], services.AuditOptions(strict=True)
        )
    with engine.connect() as conn:
        assert conn.execute(select(AuditRunRow.id)).all() == []
    engine.dispose()
