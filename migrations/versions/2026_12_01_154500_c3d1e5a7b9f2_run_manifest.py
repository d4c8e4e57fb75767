"""run manifest

Revision ID: c3d1e5a7b9f2
Revises: 90822206a45e
Create Date: 2026-12-01 15:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c3d1e5a7b9f2"
down_revision: str | None = "90822206a45e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("audit_runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("manifest", sa.JSON(), nullable=True))


def downgrade() -> None:
    # dropped in place: a rebuilt audit_runs would break the keys that refer to it (SQLite)
    with op.batch_alter_table("audit_runs", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("manifest")
