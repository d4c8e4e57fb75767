"""连接: the database URL, the engine, and first-use set-up of a SQLite file."""

from __future__ import annotations

import os
import sqlite3
import time
from functools import partial

import msgspec
from sqlalchemy import Engine, create_engine, event, inspect, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from compliance.db import migrate
from compliance.db.finding_rows import json_text
from compliance.errors import DatabaseError

DEFAULT_URL = "sqlite:///compliance.db"
ENV_VAR = "COMPLIANCE_DB_URL"
WORKER_PAGE_CACHE_KIB = 16 << 10
"""SQLite's page cache of a worker's connection: its cache starts empty at each write turn (the
other worker wrote), and with the default 2 MB a store of the 16,000-session benchmark takes
a sixth more CPU under the write lock; a serial run's store gains nothing from more."""
SQLITE_CONNECT = {"timeout": 60, "cached_statements": 32}
"""The driver keeps 32 prepared statements, not 128: a batch reuses about 20, and the
window tables' reads and writes name a batch's subjects (a new text of 100–300 KB prepared
each time), which would otherwise stay until 128 were kept."""


def database_url(option: str | None = None) -> str:
    """--db, else COMPLIANCE_DB_URL, else a SQLite file in the working directory."""
    url = option or os.environ.get(ENV_VAR) or DEFAULT_URL
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def missing_sqlite_file(url: str) -> str | None:
    """The file a SQLite URL names where it does not exist (connecting would create it);
    None for an existing file, an in-memory database or another database."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None  # make_engine says what is wrong with it
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    if name.startswith("file:") or parsed.query.get("mode") == "memory":
        return None
    return None if os.path.exists(name) else name


def make_engine(url: str, page_cache_kib: int | None = None) -> Engine:
    """The engine on `url`; on SQLite, each connection set up (WAL), with a page cache of
    `page_cache_kib` where given."""
    try:
        engine = create_engine(
            url,
            json_serializer=json_text,
            json_deserializer=msgspec.json.decode,
            connect_args=SQLITE_CONNECT if url.startswith("sqlite") else {},
        )
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        raise DatabaseError(f"bad database URL {url!r}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        if page_cache_kib:
            event.listen(engine, "connect", partial(_page_cache, page_cache_kib))
    return engine


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    _wal(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(
        "PRAGMA wal_autocheckpoint=10000"
    )  # ~40 MB: index pages written back once, not every batch
    cursor.close()


def _page_cache(kib: int, dbapi_conn, _record) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute(f"PRAGMA cache_size=-{int(kib)}")
    cursor.close()


def _wal(cursor, patience: float = 60.0) -> None:
    """Switch to WAL, waiting for a writer: the switch does not wait on SQLite's busy timeout."""
    deadline = time.monotonic() + patience
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def ensure_schema(engine: Engine) -> None:
    """Migrate a new or empty SQLite database; require an up-to-date schema elsewhere."""
    try:
        current = migrate.current(engine)
        if current == migrate.head():
            return
        if engine.dialect.name == "sqlite" or (
            current is None and not inspect(engine).get_table_names()
        ):
            migrate.upgrade(engine)
            return
    except SQLAlchemyError as exc:
        raise DatabaseError(f"cannot reach the database: {_first_line(exc)}") from None
    raise DatabaseError(
        f"database schema is at {current or 'nothing'}, not {migrate.head()}: "
        "run `compliance db upgrade`"
    )


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
