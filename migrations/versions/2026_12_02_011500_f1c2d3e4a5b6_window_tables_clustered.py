"""window tables clustered by their key on SQLite: `WITHOUT ROWID`

A subject's day rows, last-seen counts and people were spread over the pages of
the table in the order they were stored, one page read a row; kept in key order,
a window reads a few pages. PostgreSQL keeps its tables as they are.

Revision ID: f1c2d3e4a5b6
Revises: e6a9b3d8f030
Create Date: 2026-12-02 01:15:00
"""

import re
from collections.abc import Sequence

from alembic import op

revision: str = "f1c2d3e4a5b6"
down_revision: str | None = "e6a9b3d8f030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("window_days", "window_last_seen", "window_people")
SUFFIX = " WITHOUT ROWID"


def _rebuild(with_rowid: bool) -> None:
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    for table in TABLES:
        made = conn.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).scalar_one()
        made = made.rstrip().removesuffix(SUFFIX).rstrip()
        if not with_rowid:
            made += SUFFIX
        new = f"{table}_rebuilt"
        # a renamed table's text names it in quotes
        conn.exec_driver_sql(re.sub(rf'^CREATE TABLE "?{table}"?', f"CREATE TABLE {new}", made))
        conn.exec_driver_sql(f"INSERT INTO {new} SELECT * FROM {table}")
        conn.exec_driver_sql(f"DROP TABLE {table}")
        conn.exec_driver_sql(f"ALTER TABLE {new} RENAME TO {table}")


def upgrade() -> None:
    _rebuild(with_rowid=False)


def downgrade() -> None:
    _rebuild(with_rowid=True)
