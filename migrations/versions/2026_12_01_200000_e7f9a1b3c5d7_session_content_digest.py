"""session content digest: each stored session's content SHA-256, backfilled

Revision ID: e7f9a1b3c5d7
Revises: d4e6f8a0b2c4
Create Date: 2026-12-01 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from compliance.db import digests

revision: str = "e7f9a1b3c5d7"
down_revision: str | None = "d4e6f8a0b2c4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("content_sha256", sa.String(length=64), nullable=True))
    # the digests the store would stamp now, made from the rows as stored (platform by platform)
    conn = op.get_bind()
    sessions = digests.SESSIONS
    platforms = list(conn.scalars(sa.select(sessions.c.platform).distinct()))
    for platform in platforms:
        ids = list(
            conn.scalars(sa.select(sessions.c.session_id).where(sessions.c.platform == platform))
        )
        digests.stamp_contents(conn, [(platform, sid) for sid in ids])


def downgrade() -> None:
    # dropped in place: a rebuilt sessions would break the keys that refer to it (SQLite)
    with op.batch_alter_table("sessions", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("content_sha256")
