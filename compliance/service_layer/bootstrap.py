"""组装: the one composition root, from a database URL to a unit-of-work factory.

The CLI and the benchmarks start here; the use cases never build storage.
"""

from __future__ import annotations

from compliance.db import migrate
from compliance.db.engine import database_url, ensure_schema, make_engine, missing_sqlite_file
from compliance.db.errors import translated
from compliance.db.unit_of_work import SqlUnitOfWorkFactory
from compliance.errors import DatabaseError


def unit_of_work_factory(url: str | None = None, set_up: bool = True) -> SqlUnitOfWorkFactory:
    """Units of work on `url` (None: $COMPLIANCE_DB_URL, else the SQLite file here);
    a new or empty SQLite database is migrated on first use, as `ensure_schema` says."""
    resolved = database_url(url)
    engine = make_engine(resolved)
    if set_up:
        ensure_schema(engine)
    return SqlUnitOfWorkFactory(resolved, engine)


def has_database(url: str | None = None) -> bool:
    """False where `url` (or the default) is a SQLite file that does not exist."""
    return missing_sqlite_file(database_url(url)) is None


def existing_database(url: str | None = None) -> str:
    """The resolved URL; DatabaseError, and no file made, where it is a SQLite file that
    does not exist."""
    resolved = database_url(url)
    missing = missing_sqlite_file(resolved)
    if missing is not None:
        raise DatabaseError(
            f"no database at {resolved}: the file {missing} does not exist "
            "(`compliance audit` or `compliance db upgrade` creates it)"
        )
    return resolved


def upgrade(url: str | None = None) -> str | None:
    """Migrate the database to the newest schema; the revision it is at."""
    engine = unit_of_work_factory(url, set_up=False).engine
    with translated():
        migrate.upgrade(engine)
        return migrate.current(engine)


def revisions(url: str | None = None) -> tuple[str | None, str | None]:
    """The database's schema revision, and the newest one; DatabaseError for a SQLite file
    that does not exist (reading would create it empty)."""
    engine = unit_of_work_factory(existing_database(url), set_up=False).engine
    with translated():
        return migrate.current(engine), migrate.head()
