"""一局斗牛的记录: the round record of a 斗牛 log, as `rounds` holds it."""

from __future__ import annotations

import msgspec

from compliance.games.cards import Card
from compliance.logs.bounds import Multiplier, Points, PositivePoints, SignedPoints


class DouniuSeat(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """座位: one player's five cards, bet multiplier, and what the platform paid him."""

    player: str
    cards: list[Card]
    claimed: SignedPoints
    bet: Multiplier = 1
    rake: Points = 0


class DouniuRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一局斗牛: the banker, 底分 `base`, 抢庄 multiplier `grab`, and 2–6 seats."""

    banker: str
    base: PositivePoints
    seats: list[DouniuSeat]
    grab: Multiplier = 1
