"""一局牌九的记录: the round record of a 牌九 log: the banker and the seats."""

from __future__ import annotations

import msgspec

from compliance.logs.bounds import Points, SignedPoints

Chips = Points


class PaigowSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """座位: a player, his cards, his bet against the banker (none for the banker) and the claim."""

    player: str
    cards: list[str]
    bet: Chips = 0
    head: list[str] | None = None
    tail: list[str] | None = None
    claimed: SignedPoints = 0


class PaigowRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """一局牌九: the banker and the seats, the banker's among them."""

    banker: str
    seats: list[PaigowSeat]
    rake: Chips = 0
