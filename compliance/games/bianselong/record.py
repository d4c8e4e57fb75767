"""一局变色龙的记录: the round record of a 变色龙 log: the deal, every turn, the result."""

from __future__ import annotations

from typing import Annotated, Literal, TypeGuard

import msgspec

from compliance.games import cards
from compliance.logs.bounds import Points, SignedPoints

Suit = Literal["S", "H", "C", "D"]


def is_suit(value: object) -> TypeGuard[Suit]:
    """A suit letter a J may name."""
    return value in ("S", "H", "C", "D")


class BianselongPlay(
    msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True, gc=False
):
    """出牌: one turn. A card, cards drawn, or neither (a turn lost to an 8)."""

    player: str
    card: cards.Card | None = None
    suit: Suit | None = None
    draw: tuple[cards.Card, ...] = ()  # a tuple: no list made for the turns that draw nothing


class BianselongDeal(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一局: the deal, every turn until a player goes out, and the platform's result.

    `claimed` is the money per player in points; `penalties` the penalty
    points the platform counted this round, if it logs them.
    """

    hands: dict[str, list[cards.Card]]
    starter: cards.Card
    plays: list[BianselongPlay]
    decks: Annotated[int, msgspec.Meta(ge=1, le=8)] = 1
    new_game: bool = False
    claimed: dict[str, SignedPoints] = {}
    penalties: dict[str, SignedPoints] | None = None
    rake: Points = 0
