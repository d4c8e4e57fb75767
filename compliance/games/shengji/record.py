"""一副升级的记录: the round record of a 升级 log: declarer, trump, deal, kitty and tricks."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from compliance.games.cards import Card
from compliance.logs.bounds import Points, SignedPoints

Amount = Points
HAND_SIZE = 25
KITTY_SIZE = 8


Level = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class ShengjiPlay(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """出牌: one player's cards in a trick."""

    player: str
    cards: list[Card]


class ShengjiHand(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一副升级: declarer, trump, deal, kitty, buried cards, tricks, and the paid result."""

    declarer: str
    trump: Literal["S", "H", "C", "D", "NT"]
    deal: dict[str, list[Card]]
    kitty: list[Card]
    buried: list[Card]
    claimed: dict[str, SignedPoints]
    tricks: list[list[ShengjiPlay]] = []
    level: Level | None = None
    stake: Amount | None = None
    points: Annotated[int, msgspec.Meta(ge=0, le=10_000)] | None = None
    rake: Amount = 0


class LightHand(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """`ShengjiHand` with its tricks left as their JSON text, read by `scan.read_tricks`;
    every other field as there (a test holds the two alike)."""

    declarer: str
    trump: Literal["S", "H", "C", "D", "NT"]
    deal: dict[str, list[Card]]
    kitty: list[Card]
    buried: list[Card]
    claimed: dict[str, SignedPoints]
    tricks: msgspec.Raw = msgspec.Raw(b"[]")
    level: Level | None = None
    stake: Amount | None = None
    points: Annotated[int, msgspec.Meta(ge=0, le=10_000)] | None = None
    rake: Amount = 0
