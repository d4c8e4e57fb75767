"""窗口累计的表: the day sums, the players first and last seen, and the last-seen counts that
windows read instead of every stored session (db/window_upkeep.py keeps them)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import Date, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from compliance.db.models import Base, Cents

PLACES_INDEX = ("platform", "kind", "subject", "place", "venue", "day", "sessions")
NOT_A_PLAYER = "kind != 'player'"  # a query names it for the planner to take the index


class WindowDayRow(Base):
    """日累计: one subject's stored sessions of one day in one place and venue, summed as
    they are stored (db/window_upkeep.py), so that a window reads a row per day.

    `kind` is owner, platform or player; `subject` the owner's or player's id, or
    the platform's; `place` is "" where the sessions name none, `venue` "" for a
    player. Money in whole cents: capital, a player's net, rake, fixed fees.
    """

    __tablename__ = "window_days"
    __table_args__ = (
        # an owner's or platform's sessions by place and venue counted in the index's order
        Index(
            "ix_window_days_places",
            *PLACES_INDEX,
            sqlite_where=text(NOT_A_PLAYER),
            postgresql_where=text(NOT_A_PLAYER),
        ),
        {"sqlite_with_rowid": False},  # a subject's rows together
    )
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    subject: Mapped[str] = mapped_column(String(128), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    place: Mapped[str] = mapped_column(String(32), primary_key=True)
    venue: Mapped[str] = mapped_column(String(16), primary_key=True)
    sessions: Mapped[int] = mapped_column(Integer)
    capital: Mapped[Decimal] = mapped_column(Cents)
    net: Mapped[Decimal] = mapped_column(Cents)
    rake: Mapped[Decimal] = mapped_column(Cents)
    fixed_fee: Mapped[Decimal] = mapped_column(Cents)
    minors: Mapped[int] = mapped_column(Integer)


class WindowPersonRow(Base):
    """初见: a player seen by a room owner or a platform, with the first and last day of
    their stored sessions together and how many there are: a window's participants
    are the persons last seen in it (db/window_upkeep.py), each counted once."""

    __tablename__ = "window_people"
    __table_args__ = {"sqlite_with_rowid": False}  # a subject's rows together
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    subject: Mapped[str] = mapped_column(String(128), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    sessions: Mapped[int] = mapped_column(Integer)


class WindowLastSeenRow(Base):
    """末见: how many of a room owner's or platform's players were last seen on a day (their
    `window_people.last_day`): a window's participants are the sum over its days."""

    __tablename__ = "window_last_seen"
    __table_args__ = {"sqlite_with_rowid": False}  # a subject's rows together
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    subject: Mapped[str] = mapped_column(String(128), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    people: Mapped[int] = mapped_column(Integer)


class WindowSessionDayRow(Base):
    """日摘要: a platform's stored sessions of one day, counted, and the sum mod 2^256 of
    their digests (SHA-256 of platform, id and content digest, as integers), kept as
    sessions are stored and replaced (db/window_session_days.py): the manifest's digest of
    the sessions a window could sum reads a row per day, and a replaced session is
    subtracted, whatever order the sessions came in."""

    __tablename__ = "window_session_days"
    platform: Mapped[str] = mapped_column(String(64), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    sessions: Mapped[int] = mapped_column(Integer)
    digest_sum: Mapped[str] = mapped_column(String(64))  # hex, 64 digits
