"""session utc offset: the log's offset of started_at, which SQLite does not keep

Revision ID: b8d0f2a4c6e8
Revises: a7c9e1f3b5d2
Create Date: 2026-12-07 13:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b8d0f2a4c6e8"
down_revision: str | None = "a7c9e1f3b5d2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("utc_offset", sa.Integer(), nullable=True))


def downgrade() -> None:
    # dropped in place: a rebuilt sessions would break the keys that refer to it (SQLite)
    with op.batch_alter_table("sessions", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("utc_offset")
