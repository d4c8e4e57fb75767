"""stakelog/1 records: one session per JSON line, decoded into typed Structs.

A session's `rounds` stay raw here; each game decodes them with its own round
Struct, so one header type serves every game.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal

import msgspec

from compliance.logs.bounds import MAX_PLAYERS, NAME_LENGTH, Name, Points

__all__ = ["Points"]

FORMAT = "stakelog/1"

Venue = Literal["online", "private_home", "public_place", "workplace", "vehicle", "unknown"]
OptionText = Annotated[str, msgspec.Meta(max_length=NAME_LENGTH)]
OptionValue = OptionText | int | float | bool
OptionKey = Annotated[str, msgspec.Meta(max_length=64)]


ID_LENGTH = 128


# Strings the database's columns hold: at most so many characters.
Id = Annotated[str, msgspec.Meta(min_length=1, max_length=ID_LENGTH)]
RoomId = Annotated[str, msgspec.Meta(min_length=0, max_length=ID_LENGTH)]
Jurisdiction = Annotated[str, msgspec.Meta(min_length=0, max_length=32)]
KinGroup = Annotated[str, msgspec.Meta(min_length=0, max_length=64)]
Platform = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class Player(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩家: one seat-holder of the session; `scene_cash` the yuan found on him (查获赌资)."""

    id: Id
    name: Name = ""
    jurisdiction: Jurisdiction | None = None
    kin_group: KinGroup | None = None
    buy_in: Points | None = None
    minor: bool = False
    public_servant: bool = False
    scene_cash: Decimal | None = None


class Owner(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """房主 / 组织者: the room owner or organiser and the fee he takes.

    `room_fee` is a fixed fee in points (房费); rake taken per round (抽头) is
    logged on the rounds. `fee_basis` says what the room fee depends on: a fee
    that depends on stakes or results is rake in law (2005 interpretation art. 9).
    """

    id: Id
    room_fee: Points = 0
    fee_basis: Literal["fixed", "stakes", "results"] = "fixed"


class Prize(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """奖金: tournament prize money and who funded it."""

    amount: Points
    funded_by: Literal["organiser", "entry_fees"]
    entry_fee: Points = 0


class Bracket(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """赛程: where a tournament session stands in its competition, and who went through.

    Recorded for the audit trail; brackets move no money between players.
    """

    competition: Name
    stage: Name = ""
    match: Name = ""
    advancing: Annotated[list[Name], msgspec.Meta(max_length=MAX_PLAYERS)] = []


class Variant(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: a named house-rule preset and explicit option overrides."""

    preset: OptionKey | None = None
    options: Annotated[dict[OptionKey, OptionValue], msgspec.Meta(max_length=MAX_PLAYERS)] = {}


class Session(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """局 / 房间记录: one game session, the unit a log line carries.

    `scene_cash` is 现场赌资: the yuan found or seized at the scene and held by no
    one player (the table, a drawer); each player's own is on the player.
    """

    format: Literal["stakelog/1"]
    session_id: Id
    platform: Platform
    game: Annotated[str, msgspec.Meta(max_length=32)]
    started_at: datetime
    players: Annotated[list[Player], msgspec.Meta(min_length=1, max_length=MAX_PLAYERS)]
    rounds: msgspec.Raw
    room_id: RoomId | None = None
    variant: Variant = Variant()
    ended_at: datetime | None = None
    point_value: Decimal | None = None
    jurisdiction: Jurisdiction | None = None
    venue: Venue | None = None
    owner: Owner | None = None
    prize: Prize | None = None
    tournament: bool = False
    bracket: Bracket | None = None
    scene_cash: Decimal | None = None


class SessionId(msgspec.Struct):
    """Just enough of a broken line to name its session in a reject."""

    session_id: str | None = None
