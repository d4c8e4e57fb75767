"""waivers and reviews

Revision ID: 196a158d954b
Revises: 9fc77c95bb81
Create Date: 2026-12-01 15:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "196a158d954b"
down_revision: str | None = "9fc77c95bb81"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "waivers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("platform", sa.String(length=64), nullable=True),
        sa.Column("room", sa.String(length=128), nullable=True),
        sa.Column("owner", sa.String(length=128), nullable=True),
        sa.Column("player", sa.String(length=128), nullable=True),
        sa.Column("band", sa.String(length=128), nullable=True),
        sa.Column("jurisdiction", sa.String(length=32), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("starts", sa.Date(), nullable=False),
        sa.Column("until", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=128), nullable=True),
        sa.Column("revoke_reason", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_waivers")),
    )
    op.create_table(
        "reviews",
        sa.Column("fingerprint", sa.String(length=32), nullable=False),
        sa.Column("platform", sa.String(length=64), nullable=False),
        sa.Column("subject", sa.String(length=160), nullable=False),
        sa.Column("band", sa.String(length=160), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("tier", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("fingerprint", name=op.f("pk_reviews")),
    )
    op.create_table(
        "waived_findings",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=32), nullable=False),
        sa.Column("waiver_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"], ["audit_runs.id"], name=op.f("fk_waived_findings_run_id_audit_runs")
        ),
        sa.ForeignKeyConstraint(
            ["waiver_id"], ["waivers.id"], name=op.f("fk_waived_findings_waiver_id_waivers")
        ),
        sa.PrimaryKeyConstraint("run_id", "fingerprint", name=op.f("pk_waived_findings")),
    )
    op.create_index(
        op.f("ix_waived_findings_waiver_id"), "waived_findings", ["waiver_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_waived_findings_waiver_id"), table_name="waived_findings")
    op.drop_table("waived_findings")
    op.drop_table("reviews")
    op.drop_table("waivers")
