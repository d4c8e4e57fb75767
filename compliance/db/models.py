"""Tables. Rule rows mirror compliance.domain.rules; run rows hold audit results.

Rows carry the suffix Row. The natural key of a stored session is
(platform, session_id): re-auditing a session replaces its rows, and what an
earlier run stored of it moves to `session_history` and `player_history`;
`findings` keep each run's own (DESIGN.md §7).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    String,
    Table,
    Text,
    and_,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Money = Numeric(18, 2)
Cents = Numeric(36, 0)  # sums of money in whole cents: exact on both databases, no overflow


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


def table_of(row: type[Base]) -> Table:
    """The Core table behind an ORM row class (typed as a Table, not a FromClause)."""
    return cast(Table, row.__table__)


def same_session(table, other) -> ColumnElement[bool]:
    """Rows of two tables about the same session: platform and session id equal."""
    return and_(table.c.platform == other.c.platform, table.c.session_id == other.c.session_id)


class JurisdictionRow(Base):
    __tablename__ = "jurisdictions"
    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    name_zh: Mapped[str] = mapped_column(String(64))
    name_en: Mapped[str] = mapped_column(String(64), default="")
    level: Mapped[str] = mapped_column(String(16))
    parent_code: Mapped[str | None] = mapped_column(ForeignKey("jurisdictions.code"))
    aliases: Mapped[list[Any]] = mapped_column(default=list)


class InstrumentRow(Base):
    __tablename__ = "instruments"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    jurisdiction_code: Mapped[str] = mapped_column(ForeignKey("jurisdictions.code"))
    title: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(32))
    doc_number: Mapped[str] = mapped_column(String(128), default="")
    issuer: Mapped[str] = mapped_column(String(128), default="")
    effective_from: Mapped[date] = mapped_column(Date)
    effective_to: Mapped[date | None] = mapped_column(Date)
    source: Mapped[str] = mapped_column(Text)
    confidence: Mapped[str] = mapped_column(String(1))
    disputed: Mapped[bool] = mapped_column(Boolean, default=False)
    version_group: Mapped[str] = mapped_column(String(64), default="")
    is_default: Mapped[bool] = mapped_column(Boolean, default=True)
    note: Mapped[str] = mapped_column(Text, default="")


class BandRow(Base):
    __tablename__ = "threshold_bands"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"), index=True)
    jurisdiction_code: Mapped[str] = mapped_column(ForeignKey("jurisdictions.code"), index=True)
    tier: Mapped[str] = mapped_column(String(32))
    subject: Mapped[str] = mapped_column(String(16), default="player")
    condition: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    game_classes: Mapped[list[Any]] = mapped_column(default=list)
    role: Mapped[str | None] = mapped_column(String(16))
    article: Mapped[str] = mapped_column(Text, default="")
    penalty: Mapped[str] = mapped_column(Text, default="")
    confidence: Mapped[str] = mapped_column(String(1))
    note: Mapped[str] = mapped_column(Text, default="")
    seq: Mapped[int] = mapped_column(Integer, default=0)
    offence: Mapped[str | None] = mapped_column(String(32))
    window: Mapped[str | None] = mapped_column(String(32))
    venues: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")


class PenaltyRow(Base):
    __tablename__ = "penalty_scales"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    tiers: Mapped[list[Any]] = mapped_column()
    article: Mapped[str] = mapped_column(String(64), default="")
    text: Mapped[str] = mapped_column(Text)
    detention_days_max: Mapped[int | None] = mapped_column(Integer)
    fine_min: Mapped[int | None] = mapped_column(Integer)
    fine_max: Mapped[int | None] = mapped_column(Integer)
    offence: Mapped[str | None] = mapped_column(String(32))
    source: Mapped[str] = mapped_column(Text, default="", server_default="")
    confidence: Mapped[str] = mapped_column(String(1), default="M", server_default="M")
    note: Mapped[str] = mapped_column(Text, default="", server_default="")


class ExemptionRow(Base):
    __tablename__ = "exemptions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    jurisdiction_code: Mapped[str] = mapped_column(ForeignKey("jurisdictions.code"))
    kind: Mapped[str] = mapped_column(String(32))
    article: Mapped[str] = mapped_column(String(64), default="")
    text: Mapped[str] = mapped_column(Text)
    requires_no_rake: Mapped[bool] = mapped_column(Boolean, default=True)
    whatever_amount: Mapped[bool] = mapped_column(Boolean, default=False)
    source: Mapped[str] = mapped_column(Text, default="", server_default="")
    confidence: Mapped[str] = mapped_column(String(1), default="M", server_default="M")
    note: Mapped[str] = mapped_column(Text, default="", server_default="")


class WageRow(Base):
    __tablename__ = "wage_indicators"
    city_code: Mapped[str] = mapped_column(String(12), primary_key=True)
    year: Mapped[int] = mapped_column(Integer, primary_key=True)
    monthly: Mapped[Decimal] = mapped_column(Money)
    source: Mapped[str] = mapped_column(Text)
    confidence: Mapped[str] = mapped_column(String(1))
    note: Mapped[str] = mapped_column(Text, default="", server_default="")


class GameClassRow(Base):
    __tablename__ = "game_classes"
    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    name_zh: Mapped[str] = mapped_column(Text, default="")
    name_en: Mapped[str] = mapped_column(Text, default="", server_default="")
    note: Mapped[str] = mapped_column(Text, default="", server_default="")


class GameTypeRow(Base):
    __tablename__ = "game_types"
    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    name_zh: Mapped[str] = mapped_column(String(64), default="")
    game_class: Mapped[str] = mapped_column(ForeignKey("game_classes.code"))


class MultiplierRow(Base):
    __tablename__ = "game_class_multipliers"
    jurisdiction_code: Mapped[str] = mapped_column(
        ForeignKey("jurisdictions.code"), primary_key=True
    )
    game_class: Mapped[str] = mapped_column(ForeignKey("game_classes.code"), primary_key=True)
    factor: Mapped[Decimal] = mapped_column(Numeric(8, 4))
    source: Mapped[str] = mapped_column(Text, default="")
    confidence: Mapped[str] = mapped_column(String(1), default="M")


class AuditRunRow(Base):
    __tablename__ = "audit_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    as_of: Mapped[date | None] = mapped_column(Date)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    files: Mapped[list[Any]] = mapped_column(default=list)
    sessions: Mapped[int] = mapped_column(Integer, default=0)
    rejects: Mapped[int] = mapped_column(Integer, default=0)
    summary: Mapped[dict[str, Any]] = mapped_column(default=dict)
    repeated: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    manifest: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class SessionRow(Base):
    __tablename__ = "sessions"
    __table_args__ = (
        # the sessions behind an owner's or a platform's window, largest capital first
        Index("ix_sessions_owner_capital", "platform", "owner_id", "scene_capital", "session_id"),
        Index("ix_sessions_platform_capital", "platform", "scene_capital", "session_id"),
    )
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    room_id: Mapped[str | None] = mapped_column(String(128))
    owner_id: Mapped[str | None] = mapped_column(String(128), index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    day: Mapped[date] = mapped_column(Date, index=True)
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    jurisdictions: Mapped[list[Any]] = mapped_column(default=list)
    venue: Mapped[str] = mapped_column(String(16), default="unknown")
    headcount: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    point_value: Mapped[Decimal | None] = mapped_column(Numeric(12, 4))
    scene_capital: Mapped[Decimal | None] = mapped_column(Money)
    per_capita_capital: Mapped[Decimal | None] = mapped_column(Money)
    rake: Mapped[Decimal | None] = mapped_column(Money)
    source_file: Mapped[str] = mapped_column(Text)
    source_line: Mapped[int] = mapped_column(BigInteger)
    minors: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    jurisdiction_written: Mapped[str | None] = mapped_column(String(32))
    fixed_fee: Mapped[Decimal | None] = mapped_column(Money)
    source_offset: Mapped[int | None] = mapped_column(BigInteger)
    # the log's UTC offset of started_at in seconds: SQLite keeps the wall time alone
    utc_offset: Mapped[int | None] = mapped_column(Integer)
    line_sha256: Mapped[str | None] = mapped_column(String(64))
    line: Mapped[bytes | None] = mapped_column(LargeBinary)
    # SHA-256 of the content columns' canonical text (db/digests.py), stamped when stored
    content_sha256: Mapped[str | None] = mapped_column(String(64))


def of_a_session(index: Index) -> tuple:
    """Rows that belong to a stored session and go when it is replaced."""
    return (
        ForeignKeyConstraint(
            ["platform", "session_id"],
            ["sessions.platform", "sessions.session_id"],
            ondelete="CASCADE",
        ),
        index,
    )


class PlayerMetricsRow(Base):
    __tablename__ = "player_metrics"
    __table_args__ = of_a_session(Index("ix_player_metrics_player", "platform", "player_id"))
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    name: Mapped[str] = mapped_column(Text, default="")
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    kin_group: Mapped[str | None] = mapped_column(String(64))
    single_stake: Mapped[Decimal | None] = mapped_column(Money)
    round_win_loss: Mapped[Decimal | None] = mapped_column(Money)
    session_win_loss: Mapped[Decimal | None] = mapped_column(Money)
    net: Mapped[Decimal | None] = mapped_column(Money)
    total_staked: Mapped[Decimal | None] = mapped_column(Money)
    capital: Mapped[Decimal | None] = mapped_column(Money)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    banker_rounds: Mapped[int] = mapped_column(Integer, default=0)
    table_cap: Mapped[Decimal | None] = mapped_column(Money)
    tier: Mapped[str | None] = mapped_column(String(32))
    jurisdiction_written: Mapped[str | None] = mapped_column(String(32))


class FindingRow(Base):
    """A run's finding on a session; it stays when a later run re-audits the session."""

    __tablename__ = "findings"
    __table_args__ = (Index("ix_findings_session", "platform", "session_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), index=True)
    platform: Mapped[str] = mapped_column(String(64))
    session_id: Mapped[str] = mapped_column(String(128))
    kind: Mapped[str] = mapped_column(String(16))
    subject: Mapped[str] = mapped_column(String(160))
    tier: Mapped[str | None] = mapped_column(String(32), index=True)
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column()
    line_id: Mapped[str | None] = mapped_column(String(16))


class SessionHistoryRow(Base):
    """审计历史: a session as an earlier run stored it, kept when a later run re-audited it,
    with what its reports read."""

    __tablename__ = "session_history"
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), primary_key=True)
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    replaced_by: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"))
    game: Mapped[str] = mapped_column(String(32))
    room_id: Mapped[str | None] = mapped_column(String(128))
    owner_id: Mapped[str | None] = mapped_column(String(128))
    day: Mapped[date] = mapped_column(Date)
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    headcount: Mapped[int] = mapped_column(Integer)
    scene_capital: Mapped[Decimal | None] = mapped_column(Money)
    per_capita_capital: Mapped[Decimal | None] = mapped_column(Money)


class PlayerHistoryRow(Base):
    """A player's figures in a session as an earlier run stored them."""

    __tablename__ = "player_history"
    __table_args__ = (
        ForeignKeyConstraint(
            ["run_id", "platform", "session_id"],
            ["session_history.run_id", "session_history.platform", "session_history.session_id"],
            ondelete="CASCADE",
        ),
    )
    run_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    session_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    name: Mapped[str] = mapped_column(Text, default="")
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    single_stake: Mapped[Decimal | None] = mapped_column(Money)
    capital: Mapped[Decimal | None] = mapped_column(Money)


HISTORY_SESSION_COLUMNS = (
    "game",
    "room_id",
    "owner_id",
    "day",
    "jurisdiction",
    "headcount",
    "scene_capital",
    "per_capita_capital",
)
HISTORY_PLAYER_COLUMNS = ("player_id", "name", "jurisdiction", "single_stake", "capital")


class FindingLineRow(Base):
    """一条线的文字: what a threshold finding says of its line (citation, penalties),
    stored once and named by its content's hash; `findings.line_id` refers to it."""

    __tablename__ = "finding_lines"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column()


class RejectRow(Base):
    __tablename__ = "rejects"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), index=True)
    file: Mapped[str] = mapped_column(Text)
    line: Mapped[int] = mapped_column(BigInteger)
    session_id: Mapped[str | None] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(Text)


class AggravationRow(Base):
    __tablename__ = "aggravations"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    jurisdiction_code: Mapped[str] = mapped_column(ForeignKey("jurisdictions.code"))
    kind: Mapped[str] = mapped_column(String(32))
    article: Mapped[str] = mapped_column(String(64), default="")
    text: Mapped[str] = mapped_column(Text)
    within_days: Mapped[int | None] = mapped_column(Integer)
    effective_from: Mapped[date | None] = mapped_column(Date)
    effective_to: Mapped[date | None] = mapped_column(Date)
    source: Mapped[str] = mapped_column(Text, default="", server_default="")
    confidence: Mapped[str] = mapped_column(String(1), default="M", server_default="M")


class WindowFindingRow(Base):
    """Findings over a window of stored sessions: a player, a room owner, a platform."""

    __tablename__ = "window_findings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("audit_runs.id"), index=True)
    platform: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(160), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    tier: Mapped[str | None] = mapped_column(String(32))
    jurisdiction: Mapped[str | None] = mapped_column(String(32))
    window_start: Mapped[date] = mapped_column(Date)
    window_end: Mapped[date] = mapped_column(Date)
    payload: Mapped[dict[str, Any]] = mapped_column()


class RuleChangeRow(Base):
    """变更记录: one change to a rule row, hash-chained to the entry before it."""

    __tablename__ = "rule_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(Text, default="")
    action: Mapped[str] = mapped_column(String(16))
    table_name: Mapped[str] = mapped_column(String(64))
    row_key: Mapped[str] = mapped_column(String(200), index=True)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)
