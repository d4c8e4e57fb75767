"""The suite makes the PostgreSQL database it is pointed at when the server lacks it."""

from __future__ import annotations

import uuid

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.conftest import PG_URL, ensure_database


def test_a_missing_test_database_is_created_once(pg_server_url):
    name = f"compliance_missing_{uuid.uuid4().hex[:8]}"
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    admin = create_engine(make_url(PG_URL).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        assert ensure_database(url) is True
        assert ensure_database(url) is False
        with create_engine(url).connect() as conn:
            assert conn.execute(text("select 1")).scalar() == 1
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
