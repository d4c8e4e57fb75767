"""rule change trail

Revision ID: a51d88aa8817
Revises: 9b00e92d891e
Create Date: 2026-11-29 22:12:12.047798
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a51d88aa8817"
down_revision: str | None = "9b00e92d891e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "rule_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("table_name", sa.String(length=64), nullable=False),
        sa.Column("row_key", sa.String(length=200), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rule_changes")),
        sa.UniqueConstraint("hash", name=op.f("uq_rule_changes_hash")),
    )
    with op.batch_alter_table("rule_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rule_changes_row_key"), ["row_key"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("rule_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rule_changes_row_key"))

    op.drop_table("rule_changes")
