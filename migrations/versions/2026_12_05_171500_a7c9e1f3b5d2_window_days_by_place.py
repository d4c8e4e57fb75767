"""window days by place: an index that counts a window's sessions by place and venue

An owner's or platform's place and venue are those of most of its window's sessions,
counted by a grouped read of its day rows. In the key's order (day before place) that
read sorted every day row of the window in a temporary B-tree; this index holds them
by place and venue, with the sessions, so the count reads them in order and no table row.
Players' rows, most of the table, are left out: their windows are read by day.

Revision ID: a7c9e1f3b5d2
Revises: f1c2d3e4a5b6
Create Date: 2026-12-05 17:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a7c9e1f3b5d2"
down_revision: str | None = "f1c2d3e4a5b6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ["platform", "kind", "subject", "place", "venue", "day", "sessions"]
NOT_A_PLAYER = "kind != 'player'"


def upgrade() -> None:
    op.create_index(
        "ix_window_days_places",
        "window_days",
        COLUMNS,
        sqlite_where=sa.text(NOT_A_PLAYER),
        postgresql_where=sa.text(NOT_A_PLAYER),
    )


def downgrade() -> None:
    op.drop_index("ix_window_days_places", table_name="window_days")
