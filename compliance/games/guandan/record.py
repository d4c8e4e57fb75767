"""一副掼蛋的记录: the round record of a 掼蛋 log: the deal, tribute, plays and finish."""

from __future__ import annotations

from typing import Literal

import msgspec

from compliance.games.cards import Card
from compliance.logs.bounds import Points, SignedPoints

Amount = Points


Level = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class GuandanPlay(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """出牌: a player's cards (none: 不要, a pass) and, optionally, what he declared them as."""

    player: str
    cards: tuple[Card, ...] = ()
    combo: str | None = None


class GuandanTribute(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """进贡 and 还贡: the card paid, to whom, and the card returned."""

    payer: str
    receiver: str
    card: Card
    returned: Card | None = None


class GuandanHand(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一副掼蛋: the deal, tribute, plays, finishing order (上游 first) and the paid result."""

    deal: dict[str, tuple[Card, ...]]
    finish: list[str]
    claimed: dict[str, SignedPoints]
    level: Level | None = None
    stake: Amount | None = None
    tribute: list[GuandanTribute] = []
    plays: list[GuandanPlay] = []
    rake: Amount = 0
