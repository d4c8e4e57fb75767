"""一手吃火锅的记录: the round record of a 吃火锅 log: one player's turn and the antes before it."""

from __future__ import annotations

from typing import Literal

import msgspec

from compliance.games import cards
from compliance.logs.bounds import Points, SignedPoints


class ChihuoguoTurn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """一手: one player's turn, with the antes paid just before it.

    `pot` and `chips` are the platform's figures before this turn's antes;
    `claimed` is what the platform moved per player in this turn, antes included.
    """

    player: str
    ends: list[cards.Card]
    action: Literal["pass", "bet"]
    bet: Points = 0
    third: cards.Card | None = None
    antes: dict[str, Points] = {}
    pot: Points | None = None
    chips: dict[str, SignedPoints] | None = None
    claimed: dict[str, SignedPoints] = {}
    rake: Points = 0
