"""批量写入: rows in bulk per dialect, the write lock, and SQLite's planner statistics."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Table, func, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from compliance.errors import DatabaseError

STORE_LOCK = int.from_bytes(b"compliance-store"[:8], "big") >> 1  # a PostgreSQL advisory lock key


def insert_rows(
    conn: Connection, table: Table, columns: tuple[str, ...], values: list[tuple], typed=False
) -> None:
    """Rows in column order: COPY on PostgreSQL, the driver's executemany on SQLite
    (Core's per-row processing costs more than the write), Core elsewhere.

    `typed`: the rows hold Python values that the columns' types turn into
    what the driver takes; otherwise they hold that already.
    """
    if not values:
        return
    dialect = conn.dialect
    if typed:
        values = typed_rows(conn, table, columns, values)
    names = ", ".join(f'"{c}"' for c in columns)
    if dialect.name == "sqlite":
        marks = ", ".join("?" for _ in columns)
        conn.exec_driver_sql(f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', values)
    elif dialect.name == "postgresql":
        cursor = _driver(conn).cursor()
        try:
            with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
                for row in values:
                    copy.write_row(row)
        except dialect.loaded_dbapi.Error as exc:  # the driver's own, not wrapped by Core
            first = str(exc).strip().splitlines()[0]
            raise DatabaseError(f"storing {table.name}: {first}") from None
    else:
        conn.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in values])


def typed_rows(
    conn: Connection, table: Table, columns: tuple[str, ...], values: list[tuple]
) -> list[tuple]:
    """Rows of Python values as the driver takes them, by the columns' types, on SQLite and
    PostgreSQL (what `insert_rows` does with `typed`, made before a write lock is taken)."""
    dialect = conn.dialect
    if dialect.name not in ("sqlite", "postgresql"):
        return values
    processors = [table.c[c].type.dialect_impl(dialect).bind_processor(dialect) for c in columns]
    active = [(i, p) for i, p in enumerate(processors) if p is not None]
    return [_processed(row, active) for row in values] if active else values


def _processed(row: tuple, active: list[tuple[int, Any]]) -> tuple:
    """A row with the values that have a type's processor processed (None stays None)."""
    done = list(row)
    for i, process in active:
        if (value := done[i]) is not None:
            done[i] = process(value)
    return tuple(done)


def insert_new(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Rows whose `id` is not stored yet (workers may race to the same one)."""
    if not rows:
        return
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        dialect_insert = sqlite_insert if dialect == "sqlite" else pg_insert
        conn.execute(dialect_insert(table).on_conflict_do_nothing(index_elements=["id"]), rows)
        return
    known = set(conn.scalars(select(table.c.id).where(table.c.id.in_([r["id"] for r in rows]))))
    fresh = [row for row in rows if row["id"] not in known]
    if fresh:
        conn.execute(insert(table), fresh)


def hold_write_lock(conn: Connection) -> None:
    """Hold the write lock from here to the commit, so that what a store reads is what
    its inserts meet: workers, and audits running at once, store one at a time."""
    dialect = conn.dialect.name
    if dialect == "sqlite":
        if not _driver(conn).in_transaction:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    elif dialect == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(STORE_LOCK)))


STATISTICS_TABLES = ("sessions", "player_metrics", "findings")


def refresh_statistics(conn: Connection) -> None:
    """The planner statistics for the stored sessions, made again once the tables have
    doubled (SQLite) or have none or changed by a tenth since they were made (PostgreSQL,
    autovacuum's own rule, since autovacuum may be off or not yet come by). Without them
    SQLite reads a platform's every session to find one player's (27 ms a window finding
    over 40,000 sessions, 0.2 ms with them), and PostgreSQL, taking a run's sessions for
    one row, joined a report's findings to every player: minutes for 2,000 findings."""
    if conn.dialect.name == "postgresql":
        _refresh_postgresql(conn)
        return
    if conn.dialect.name != "sqlite":
        return
    rows = conn.exec_driver_sql("SELECT max(rowid) FROM sessions").scalar() or 0
    known = (
        conn.exec_driver_sql(
            "SELECT stat FROM sqlite_stat1 WHERE tbl = 'sessions' LIMIT 1"
        ).scalar()
        if _has_statistics(conn)
        else None
    )
    if known is None or rows > 2 * int(known.split()[0]):
        for table in STATISTICS_TABLES:
            conn.exec_driver_sql(f"ANALYZE {table}")


def _refresh_postgresql(conn: Connection) -> None:
    stale = conn.exec_driver_sql(
        "SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid"
        " WHERE s.schemaname = current_schema() AND s.relname = ANY(%(tables)s)"
        " AND (coalesce(s.last_analyze, s.last_autoanalyze) IS NULL"
        " OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0))",
        {"tables": list(STATISTICS_TABLES)},
    ).scalars()
    for table in sorted(stale):
        conn.exec_driver_sql(f"ANALYZE {table}")


def _has_statistics(conn: Connection) -> bool:
    return (
        conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").first()
        is not None
    )


def _driver(conn: Connection) -> Any:
    """The DB-API connection under a Core one (sqlite3's or psycopg's)."""
    driver = conn.connection.driver_connection
    if driver is None:
        raise DatabaseError("the database connection is closed")
    return driver
