"""平台义务的表: the duty rows and the duty findings of a run."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Date, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from compliance.db.models import Base


class DutyRow(Base):
    """平台义务: one duty row of data/duties.toml (compliance.domain.duties.rows.Duty)."""

    __tablename__ = "platform_duties"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    check_code: Mapped[str] = mapped_column(String(32))
    instrument: Mapped[str] = mapped_column(Text)
    article: Mapped[str] = mapped_column(String(128))
    confidence: Mapped[str] = mapped_column(String(1))
    severity: Mapped[str] = mapped_column(String(16))
    valid_from: Mapped[date | None] = mapped_column(Date)
    valid_to: Mapped[date | None] = mapped_column(Date)
    figures: Mapped[dict[str, Any]] = mapped_column()
    source: Mapped[str] = mapped_column(Text, default="")
    note: Mapped[str] = mapped_column(Text, default="")


class DutyFindingRow(Base):
    """A run's finding on the platform's duties (kind `duty`)."""

    __tablename__ = "duty_findings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), index=True)
    platform: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(160))
    check_code: Mapped[str] = mapped_column(String(32))
    duty: Mapped[str] = mapped_column(String(64))
    severity: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))
    period: Mapped[str | None] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column()
