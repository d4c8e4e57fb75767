"""SQL 工作单元: a connection with one open transaction, and the repositories on it.

Writes go in batches through SQLAlchemy Core (compliance.db.bulk), never an
ORM add per row. SQLAlchemy's errors leave as the project's DatabaseError.
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from compliance.db.dutystore import SqlDutiesRepository
from compliance.db.engine import WORKER_PAGE_CACHE_KIB, make_engine
from compliance.db.errors import database_error, translated
from compliance.db.evidence import SqlEvidenceRepository
from compliance.db.finding_rows import LineIds
from compliance.db.reports import SqlReportsRepository
from compliance.db.review import SqlReviewRepository
from compliance.db.rules_repository import SqlRulesRepository, SqlTrailRepository
from compliance.db.runs import RunFiles, SqlRunsRepository
from compliance.db.windows import SqlWindowsRepository


class SqlUnitOfWork:
    """A connection with one open transaction; commit() ends it and starts another."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.conn: Connection | None = None
        self.lines = LineIds()
        self._run_files = RunFiles()

    def __enter__(self) -> SqlUnitOfWork:
        with translated():
            self.conn = self.engine.connect()
            self.conn.begin()
        self.rules = SqlRulesRepository(self.conn)
        self.trail = SqlTrailRepository(self.conn)
        self.runs = SqlRunsRepository(self.conn, self.lines, self._run_files)
        self.windows = SqlWindowsRepository(self.conn)
        self.reports = SqlReportsRepository(self.conn)
        self.review = SqlReviewRepository(self.conn)
        self.evidence = SqlEvidenceRepository(self.conn)
        self.duties = SqlDutiesRepository(self.conn)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self.conn is not None
        try:
            with translated():
                if exc_type is not None:
                    self.conn.rollback()
                self.conn.close()
        finally:
            self.conn = None
        if isinstance(exc, SQLAlchemyError):
            raise database_error(exc) from None

    def commit(self) -> None:
        conn = self._open()
        conn.commit()
        conn.begin()

    def rollback(self) -> None:
        conn = self._open()
        conn.rollback()
        conn.begin()

    def _open(self) -> Connection:
        if self.conn is None:
            raise RuntimeError("the unit of work is used outside its `with` block")
        return self.conn

    def worker_factory(self) -> SqlUnitOfWorkFactory | None:
        """Where a worker process can open this database itself (not an in-memory one)."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            return None
        return SqlUnitOfWorkFactory(url.render_as_string(hide_password=False))


class SqlUnitOfWorkFactory:
    """工作单元工厂: units of work on one database URL; picklable, so a worker process
    gets one and opens its own engine there, once."""

    def __init__(self, url: str, engine: Engine | None = None):
        self.url = url
        self._engine = engine

    def __call__(self) -> SqlUnitOfWork:
        if self._engine is None:
            self._engine = make_engine(self.url, WORKER_PAGE_CACHE_KIB)
        return SqlUnitOfWork(self._engine)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = make_engine(self.url, WORKER_PAGE_CACHE_KIB)
        return self._engine

    def where(self) -> str:
        """The database's URL as shown to a user: without its password."""
        return self.engine.url.render_as_string(hide_password=True)

    def __getstate__(self) -> dict:
        return {"url": self.url}  # the engine stays in the process that made it

    def __setstate__(self, state: dict) -> None:
        self.url, self._engine = state["url"], None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SqlUnitOfWorkFactory) and other.url == self.url

    def __hash__(self) -> int:
        return hash(self.url)
