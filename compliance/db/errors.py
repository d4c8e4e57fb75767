"""数据库错误: SQLAlchemy's exceptions become the project's DatabaseError at the db edge."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import SQLAlchemyError

from compliance.errors import DatabaseError


def first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def database_error(exc: SQLAlchemyError) -> DatabaseError:
    return DatabaseError(f"database error: {first_line(exc)}")


@contextmanager
def translated() -> Iterator[None]:
    """Run a block; a SQLAlchemy error in it leaves as a one-line DatabaseError."""
    try:
        yield
    except SQLAlchemyError as exc:
        raise database_error(exc) from None
