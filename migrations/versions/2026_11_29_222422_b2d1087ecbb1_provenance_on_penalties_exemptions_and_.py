"""provenance on penalties exemptions and wages

Revision ID: b2d1087ecbb1
Revises: 59da85b2f42c
Create Date: 2026-11-29 22:24:22.845641
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b2d1087ecbb1"
down_revision: str | None = "59da85b2f42c"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    with op.batch_alter_table("exemptions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.Text(), server_default="", nullable=False))
        batch_op.add_column(
            sa.Column("confidence", sa.String(length=1), server_default="M", nullable=False)
        )
        batch_op.add_column(sa.Column("note", sa.Text(), server_default="", nullable=False))

    with op.batch_alter_table("penalty_scales", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.Text(), server_default="", nullable=False))
        batch_op.add_column(
            sa.Column("confidence", sa.String(length=1), server_default="M", nullable=False)
        )
        batch_op.add_column(sa.Column("note", sa.Text(), server_default="", nullable=False))

    with op.batch_alter_table("wage_indicators", schema=None) as batch_op:
        batch_op.add_column(sa.Column("note", sa.Text(), server_default="", nullable=False))


def downgrade() -> None:

    with op.batch_alter_table("wage_indicators", schema=None) as batch_op:
        batch_op.drop_column("note")

    with op.batch_alter_table("penalty_scales", schema=None) as batch_op:
        batch_op.drop_column("note")
        batch_op.drop_column("confidence")
        batch_op.drop_column("source")

    with op.batch_alter_table("exemptions", schema=None) as batch_op:
        batch_op.drop_column("note")
        batch_op.drop_column("confidence")
        batch_op.drop_column("source")
