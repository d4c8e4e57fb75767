"""window session days: per platform and day, the sessions stored and the sum of their digests

Each stored session's content digest made again in its canonical form (`started_at` as
a UTC instant: the offset SQLite dropped is taken from the session's kept line where
there is one), and `window_session_days` filled from them.

Revision ID: e6a9b3d8f030
Revises: e7f9a1b3c5d7
Create Date: 2026-12-01 21:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from compliance.db import digests, window_session_days

revision: str = "e6a9b3d8f030"
down_revision: str | None = "e7f9a1b3c5d7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "window_session_days",
        sa.Column("platform", sa.String(length=64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.Column("digest_sum", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("platform", "day", name=op.f("pk_window_session_days")),
    )
    conn = op.get_bind()
    sessions = digests.SESSIONS
    for platform in list(conn.scalars(sa.select(sessions.c.platform).distinct())):
        ids = list(
            conn.scalars(sa.select(sessions.c.session_id).where(sessions.c.platform == platform))
        )
        digests.stamp_contents(conn, [(platform, sid) for sid in ids])
    window_session_days.refill(conn)


def downgrade() -> None:
    op.drop_table("window_session_days")
