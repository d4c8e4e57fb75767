"""Fixtures named for what they give: a migrated SQLite file, a fresh PostgreSQL
database, the shipped rule book, and a fake unit of work."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from compliance import ruledata
from compliance.db import migrate
from compliance.db.engine import make_engine

# Hypothesis profiles. Both keep hypothesis's defaults for every other test; the fuzzer
# (tests/fuzz/test_fuzz.py) sizes itself by the one loaded: a few thousand lines under
# "ci" (and the default profile), tens of thousands under "fuzz-long":
#   python -m pytest tests/fuzz --hypothesis-profile=fuzz-long
# Neither has a deadline: CI shares this host, and a slow example is not a wrong one.
settings.register_profile("ci", settings.get_profile("default"), deadline=None)
settings.register_profile("fuzz-long", settings.get_profile("default"), deadline=None)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
PG_URL = os.environ.get(
    "COMPLIANCE_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(scope="session")
def rule_book():
    return ruledata.load_book()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'compliance.db'}"


@pytest.fixture
def sqlite_engine(sqlite_url):
    engine = make_engine(sqlite_url)
    migrate.upgrade(engine)
    yield engine
    engine.dispose()


def ensure_database(url: str) -> bool:
    """Create the database `url` names when its server is up but it is missing (a fresh
    server has only `postgres`); True if it was created. Connection errors propagate."""
    wanted = make_url(url)
    admin = create_engine(wanted.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            found = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": wanted.database},
            ).first()
            if found is None:
                conn.execute(text(f'CREATE DATABASE "{wanted.database}"'))
    finally:
        admin.dispose()
    return found is None


@pytest.fixture(scope="session")
def pg_server_url():
    """A PostgreSQL database made for this test run and dropped after it.

    A server without the `test` database gets it made. Unreachable server: skip
    locally, fail under CI=true (never a silent pass).
    """
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        ensure_database(PG_URL)
        with admin.connect() as conn:
            conn.execute(text("select 1"))
    except Exception as exc:  # noqa: BLE001 - any failure to connect is the same answer
        message = f"PostgreSQL unreachable at {PG_URL}: {str(exc).splitlines()[0]}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    name = f"compliance_test_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    yield url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def pg_url(pg_server_url) -> str:
    """The test run's PostgreSQL database, emptied for this test."""
    engine = create_engine(pg_server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return pg_server_url


@pytest.fixture
def pg_engine(pg_url):
    engine = make_engine(pg_url)
    migrate.upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db_url(request) -> str:
    """Each database the product supports, as a URL to a fresh, empty database."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def second_url(any_db_url, tmp_path):
    """Another fresh store of the same kind (a second PostgreSQL database, dropped after)."""
    if any_db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'second.db'}"
        return
    first = make_url(any_db_url)
    twin = f"{first.database}_twin"
    admin = create_engine(first.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{twin}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{twin}"'))
    yield first.set(database=twin).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{twin}" WITH (FORCE)'))
    admin.dispose()
