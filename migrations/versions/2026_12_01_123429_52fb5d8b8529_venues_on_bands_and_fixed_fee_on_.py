"""venues on bands and fixed fee on sessions

Revision ID: 52fb5d8b8529
Revises: 8ffcd84ff6a0
Create Date: 2026-12-01 12:34:29.099089
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "52fb5d8b8529"
down_revision: str | None = "8ffcd84ff6a0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("fixed_fee", sa.Numeric(precision=18, scale=2), nullable=True)
        )

    with op.batch_alter_table("threshold_bands", schema=None) as batch_op:
        batch_op.add_column(sa.Column("venues", sa.JSON(), server_default="[]", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("threshold_bands", schema=None) as batch_op:
        batch_op.drop_column("venues")

    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("fixed_fee")
