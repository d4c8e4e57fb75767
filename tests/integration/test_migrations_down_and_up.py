"""The migrations of issues 22, 23 and 25 go down and up again on a store holding a run, on
both databases. (Those before them rebuild `audit_runs` on SQLite when they go down, which
its foreign keys refuse: going below `SINCE` is not supported.)"""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from compliance.db import migrate
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from tests.conftest import SAMPLES

SINCE = "9fc77c95bb81"


def test_the_newer_migrations_go_down_and_the_head_comes_back(any_db_url):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    services.audit(SqlUnitOfWork(engine), [str(SAMPLES / "douniu.jsonl")], services.AuditOptions())
    head = set(inspect(engine).get_table_names())
    config = migrate.alembic_config(engine)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, SINCE)
    tables = set(inspect(engine).get_table_names())
    assert "waivers" not in tables and "duty_findings" not in tables and "sessions" in tables
    migrate.upgrade(engine)
    assert set(inspect(engine).get_table_names()) == head
    engine.dispose()
