"""扑克 playing cards: the fixed card set, decks, seeded shuffles and deals.

Notation: suit letter S H C D (黑桃 红桃 梅花 方片) + rank A 2 … 10 J Q K, as
`S10` or `HQ`; jokers `RJ` (大王) and `BJ` (小王).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Literal, TypeVar, get_args

SUITS = "SHCD"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

Card = Literal[
    "SA", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ", "SQ", "SK",
    "HA", "H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK",
    "CA", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "CJ", "CQ", "CK",
    "DA", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "DJ", "DQ", "DK",
    "RJ", "BJ",
]  # fmt: skip
JOKERS: tuple[Card, ...] = ("RJ", "BJ")

ALL_CARDS: tuple[Card, ...] = get_args(Card)
# suits S H C D, ranks A … K: the order of `Card` without its jokers
STANDARD_52: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c not in JOKERS)

SUIT_ORDER = {s: i for i, s in enumerate("DCHS")}  # 方片 < 梅花 < 红桃 < 黑桃

C = TypeVar("C", bound=str)  # a card type: `Card`, or a plain card string


def rank_of(card: str) -> str:
    """The rank part of a card string (`10` for `S10`, `RJ` for a joker)."""
    return card if card in JOKERS else card[1:]


def suit_of(card: str) -> str | None:
    return None if card in JOKERS else card[0]


def rank_number(card: str) -> int:
    """A=1 … K=13, jokers 14 (小王) and 15 (大王)."""
    if card == "BJ":
        return 14
    if card == "RJ":
        return 15
    return RANKS.index(card[1:]) + 1


def build_deck(copies: int = 1, jokers: bool = False) -> list[Card]:
    """A fresh deck in a fixed order: `copies` standard decks, with jokers if asked."""
    one = list(STANDARD_52) + (list(JOKERS) if jokers else [])
    return one * copies


def shuffled(deck: Sequence[C], seed: int | random.Random) -> list[C]:
    """A shuffled copy; the same seed always gives the same order."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    cards = list(deck)
    rng.shuffle(cards)
    return cards


def deal(deck: list[C], hands: int, size: int) -> list[list[C]]:
    """Deal `hands` hands of `size` cards from the top, removing them from the deck."""
    if hands * size > len(deck):
        raise ValueError(f"cannot deal {hands}×{size} from {len(deck)} cards")
    dealt = [deck[i * size : (i + 1) * size] for i in range(hands)]
    del deck[: hands * size]
    return dealt


def remove(deck: Sequence[C], cards: Iterable[C]) -> list[C]:
    """The deck without the given cards (one copy each)."""
    rest = list(deck)
    for card in cards:
        rest.remove(card)
    return rest


def sort_cards(cards: Iterable[C]) -> list[C]:
    """High to low by rank number, then suit 黑桃 > 红桃 > 梅花 > 方片."""
    return sorted(cards, key=lambda c: (rank_number(c), SUIT_ORDER.get(c[0], 4)), reverse=True)


def duplicates(cards: Iterable[str]) -> list[str]:
    """Cards that appear more than once."""
    seen: set[str] = set()
    dup: list[str] = []
    for card in cards:
        if card in seen:
            dup.append(card)
        seen.add(card)
    return dup
