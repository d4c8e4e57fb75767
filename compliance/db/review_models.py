"""复核与豁免的表: waivers, review statuses and the findings a run found waived.

Waivers and reviews are changed only through the tool, each change an entry of
the one hash-chained trail (compliance.db.trail), like the rule tables.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from compliance.db.models import Base


class WaiverRow(Base):
    __tablename__ = "waivers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    platform: Mapped[str | None] = mapped_column(String(64))
    room: Mapped[str | None] = mapped_column(String(128))
    owner: Mapped[str | None] = mapped_column(String(128))
    player: Mapped[str | None] = mapped_column(String(128))
    band: Mapped[str | None] = mapped_column(String(128))
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text)
    actor: Mapped[str] = mapped_column(String(128))
    starts: Mapped[date] = mapped_column(Date)
    until: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_by: Mapped[str | None] = mapped_column(String(128))
    revoke_reason: Mapped[str | None] = mapped_column(Text)


class ReviewRow(Base):
    """A finding identity's review status; its earlier statuses are in the trail."""

    __tablename__ = "reviews"
    fingerprint: Mapped[str] = mapped_column(String(32), primary_key=True)
    platform: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(160))
    band: Mapped[str] = mapped_column(String(160))
    kind: Mapped[str] = mapped_column(String(16))
    tier: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(Text, default="")
    actor: Mapped[str] = mapped_column(String(128))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class WaivedFindingRow(Base):
    """A finding of a run that a waiver covered when the run ended (its `--fail-on` let it by)."""

    __tablename__ = "waived_findings"
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(32), primary_key=True)
    waiver_id: Mapped[int] = mapped_column(ForeignKey("waivers.id"), index=True)
