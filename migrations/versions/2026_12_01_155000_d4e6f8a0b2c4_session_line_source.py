"""session line source: offset, digest and kept line

Revision ID: d4e6f8a0b2c4
Revises: 3b65df5a52b9
Create Date: 2026-12-01 15:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d4e6f8a0b2c4"
down_revision: str | None = "3b65df5a52b9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source_offset", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("line_sha256", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("line", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    # dropped in place: a rebuilt sessions would break the keys that refer to it (SQLite)
    with op.batch_alter_table("sessions", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("line")
        batch_op.drop_column("line_sha256")
        batch_op.drop_column("source_offset")
