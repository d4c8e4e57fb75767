"""一局扯旋的记录: the round record of a 扯旋 log: seats, dealer, ante, betting."""

from __future__ import annotations

import msgspec

from compliance.games.chexuan.betting import ChexuanAction
from compliance.logs.bounds import Points, SignedPoints

Chips = Points


class ChexuanSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """座位: a player, his 簸簸, his cards in deal order, his split and the claimed result."""

    player: str
    cap: Chips
    cards: list[str]
    head: list[str] | None = None
    tail: list[str] | None = None
    claimed: SignedPoints = 0


class ChexuanRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一局扯旋: seats in speaking order (counter-clockwise), the dealer, the ante and the betting."""

    dealer: str
    seats: list[ChexuanSeat]
    ante: Chips = 0
    betting: tuple[tuple[ChexuanAction, ...], ...] = ()
    rake: Chips = 0
