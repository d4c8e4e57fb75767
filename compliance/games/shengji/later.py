"""后手牌: what a player holds before a trick, read from the cards they play from it on.

For a hand whose every player plays exactly the cards they hold (`batch`), the holding
before trick t is the cards played in tricks t, t+1, …: a suit is held when it is played
later, a pair when both copies of a card are played from t on, a tractor of two pairs
when two such pairs sit on neighbouring positions. Integer card codes (the order of
`cards.ALL_CARDS`), effective suits 0 … 4 (S H C D, then trumps) and positions come from
tables built once for the 65 levels and trumps.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import numpy as np

from compliance.games.cards import ALL_CARDS
from compliance.games.shengji import tricks

N = len(ALL_CARDS)
SUITS = {"S": 0, "H": 1, "C": 2, "D": 3, tricks.TRUMP: 4}
TRUMP, NSUITS = SUITS[tricks.TRUMP], len(SUITS)
OUTRANK = 100  # added to a trump's position: above every card of a side suit
RULERS = [(lv, t) for lv in tricks.NATURAL_ORDER for t in ("S", "H", "C", "D", "NT")]
RULER_ROW = {ruler: row for row, ruler in enumerate(RULERS)}


def _table(attribute: str) -> np.ndarray:
    rows = []
    for level, trump in RULERS:
        table = getattr(tricks.trumps_for(level, None if trump == "NT" else trump), attribute)
        rows.append([table[card] for card in ALL_CARDS])
    return np.array(rows)


SUIT_OF = np.vectorize(SUITS.__getitem__)(_table("_suit")).astype(np.int64)  # [ruler, code]
POSITION_OF = _table("_position").astype(np.int64)
POSITIONS = int(POSITION_OF.max()) + 2  # room for the neighbour above the highest
QUOTE, OPEN, ZERO = b'"'[0], b"["[0], b"0"[0]
PAIR_CODE = np.full(1 << 16, -1, dtype=np.int64)  # a card's code by its first two bytes
TEN_PREFIX = np.zeros(1 << 16, dtype=bool)  # … which, for "X10", are "X1"
for _code, _card in enumerate(ALL_CARDS):
    _key = ord(_card[0]) | ord(_card[1]) << 8
    PAIR_CODE[_key], TEN_PREFIX[_key] = _code, len(_card) == 3
POINTS_OF = np.array([tricks.CARD_POINTS.get(c, 0) for c in ALL_CARDS], dtype=np.int64)


def card_codes(lists: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """The codes of the cards of the lists, in order, and each list's length; KeyError for
    a string that is not a card. The lists are read from their JSON, in C: a card is known
    by its first two bytes and its length ("X10": "X1", three bytes, the third "0")."""
    data = msgspec.json.encode(lists)
    if b"\\" in data:  # an escape: no card needs one
        raise KeyError("not a card")
    raw = np.frombuffer(data, np.uint8)
    quotes = np.flatnonzero(raw == QUOTE)
    start, end = quotes[0::2] + 1, quotes[1::2]
    pairs = np.ndarray((len(data) - 1,), "<u2", buffer=data, strides=(1,))
    key = pairs[start]  # a string is followed by at least its closing quote and "]"
    code, ten = PAIR_CODE[key], TEN_PREFIX[key]
    card = (code >= 0) & (end - start == 2 + ten)
    card &= ~ten | (raw[np.minimum(start + 2, len(data) - 1)] == ZERO)
    if not card.all():
        raise KeyError("not a card")
    opens = np.flatnonzero(raw == OPEN)[1:]  # each list's "[" (no card holds one)
    return code, np.diff(np.searchsorted(start, opens), append=len(start))


def decoded_card_codes(lists: Sequence[object]) -> np.ndarray:
    """The codes of the cards of nested lists, in order, every string in them decoded as a
    `Card` (so a card, no escape): each known by its first two bytes in their JSON."""
    data = msgspec.json.encode(lists)
    raw = np.frombuffer(data, np.uint8)
    start = np.flatnonzero(raw == QUOTE)[0::2] + 1
    return PAIR_CODE[np.ndarray((len(data) - 1,), "<u2", buffer=data, strides=(1,))[start]]


class Later:
    """The cards a session's (hand, seat)s play, indexed for "held before trick t"."""

    def __init__(self, hold, card_player, card_trick, code, suit, ruler, nt: int):
        self._hold, self._player, self._trick = hold, card_player, card_trick
        self._code, self._ruler, self._span = code, ruler, nt + 1
        self._last = np.full(len(hold) // N * NSUITS, -1)
        np.maximum.at(self._last, card_player * NSUITS + suit, card_trick)
        self._pairs: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._pair_keys: np.ndarray | None = None
        self._tractor_keys: np.ndarray | None = None

    def last(self, who: np.ndarray, suit: np.ndarray) -> np.ndarray:
        """The last trick in which `who` plays `suit` (-1: never)."""
        return self._last.take(who * NSUITS + suit)

    def pairs(self, who: np.ndarray, suit: np.ndarray, trick: np.ndarray) -> np.ndarray:
        """How many pairs of `suit` `who` holds before `trick`."""
        if self._pair_keys is None:
            group, _, first = self._held_twice()
            self._pair_keys = np.sort(group * self._span + first)
        return self._count(self._pair_keys, who, suit, trick)

    def tractors(self, who: np.ndarray, suit: np.ndarray, trick: np.ndarray) -> np.ndarray:
        """How many of `who`'s pairs of `suit` held before `trick` have a pair held on the
        position above (0: no tractor of two pairs)."""
        if self._tractor_keys is None:
            group, position, first = self._held_twice()
            slot = group * POSITIONS + position
            latest = np.full(len(self._last) * POSITIONS, -1)
            np.maximum.at(latest, slot, first)
            both = np.minimum(first, latest[slot + 1])
            keep = both >= 0
            self._tractor_keys = np.sort(group[keep] * self._span + both[keep])
        return self._count(self._tractor_keys, who, suit, trick)

    def _held_twice(self):
        """Each card a (hand, seat) holds twice: its (who, suit) group, its position and
        the trick of its first copy played."""
        if self._pairs is None:
            first = np.full(len(self._hold), self._span - 1)
            np.minimum.at(first, self._player * N + self._code, self._trick)
            twice = np.flatnonzero(self._hold == 2)
            who, code = twice // N, twice % N
            ruled = self._ruler[who // 4] * N + code
            group = who * NSUITS + SUIT_OF.take(ruled)
            self._pairs = (group, POSITION_OF.take(ruled), first[twice])
        return self._pairs

    def _count(self, keys, who, suit, trick) -> np.ndarray:
        base = (who * NSUITS + suit) * self._span
        return np.searchsorted(keys, base + self._span) - np.searchsorted(keys, base + trick)
