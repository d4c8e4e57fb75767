"""按列读牌局: a batch of decoded 斗牛 rounds as numpy columns, read from msgspec's own JSON.

The rounds, decoded and checked by msgspec, are encoded again by msgspec: that
text has one form whatever the log's spacing, key order or omitted defaults
(every field, in declaration order, no whitespace). Without a backslash in it
no string holds a quote, so the quotes alone cut it: a round is 5 strings
(`banker`, its name, `base`, `seats`, `grab`) and 11 more per seat (`player`,
its name, `cards`, five cards, `claimed`, `bet`, `rake`), and every number
sits between a key's closing quote and the next string. Each seat's 9th
string is checked to be the key `claimed` (the one key of 7 letters, and
only keys are followed by a colon), which holds only if every seat before
it, and this one, has five cards. Player names are mapped to integers in
Python, from the decoded rounds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import chain, count
from operator import attrgetter
from typing import Any

import msgspec
import numpy as np

from compliance.games.douniu.record import DouniuRound

ROUND_STRINGS = 5
SEAT_STRINGS = 11
QUOTE, COLON = ord('"'), ord(":")
CLAIMED_AT = 8  # a seat's string that is the key `claimed`
CLAIMED_LENGTH = len("claimed")

_encoder = msgspec.json.Encoder()
_seats, _player, _banker = attrgetter("seats"), attrgetter("player"), attrgetter("banker")


def _byte_table(pairs: dict[bytes, int]) -> np.ndarray:
    table = np.full(256, -1, np.int64)
    for chars, value in pairs.items():
        table[chars[0]] = value
    return table


# card index (rank − 1) × 4 + suit, as hands.card_index: the suit from the first byte, the
# rank from the second ("1" is 10); a joker's first byte has no suit (-1, then caught)
SUIT = _byte_table({b"D": 0, b"C": 1, b"H": 2, b"S": 3})
RANK = _byte_table({ch.encode(): i for i, ch in enumerate("A234567891JQK")})
CARD = np.full(1 << 16, -1, np.int64)  # by a card's first two bytes, little-endian
for _suit in b"DCHS":
    for _rank in b"A234567891JQK":
        CARD[_suit | _rank << 8] = RANK[_rank] * 4 + SUIT[_suit]


@dataclass(slots=True)
class Columns:
    """A batch's rounds (R) and seats (S) as arrays; names as integers of `names`."""

    rounds: list[DouniuRound]
    seats_per_round: np.ndarray  # (R,)
    banker: np.ndarray  # (R,) name number
    base: np.ndarray  # (R,)
    grab: np.ndarray  # (R,)
    player: np.ndarray  # (S,) name number
    cards: np.ndarray  # (5, S) card index 0–51, or -1 for a joker
    claimed: np.ndarray  # (S,)
    bet: np.ndarray  # (S,)
    rake: np.ndarray  # (S,)
    names: Any  # name → number, numbered as first met


class Unreadable(Exception):
    """The batch's text is not in the one form (a backslash, or a seat without five cards)."""


def read_columns(rounds: list[DouniuRound], names: Any = None) -> Columns:
    """The columns of `rounds` (2–6 seats each); Unreadable when the text cannot be cut."""
    names = names if names is not None else defaultdict(count().__next__)
    number = names.__getitem__
    n_rounds = len(rounds)
    seats_per_round = np.fromiter(map(len, map(_seats, rounds)), np.int64, n_rounds)
    n_seats = int(seats_per_round.sum())
    player = np.fromiter(
        map(number, map(_player, chain.from_iterable(map(_seats, rounds)))), np.int64, n_seats
    )
    banker = np.fromiter(map(number, map(_banker, rounds)), np.int64, n_rounds)
    text = _encoder.encode(rounds)
    if b"\\" in text:
        raise Unreadable("a backslash")
    buf = np.frombuffer(text, np.uint8)
    quotes = np.flatnonzero(buf == QUOTE)
    first = np.zeros(n_rounds + 1, np.int64)  # each round's first string
    np.cumsum(ROUND_STRINGS + SEAT_STRINGS * seats_per_round, out=first[1:])
    if len(quotes) != 2 * first[-1]:
        raise Unreadable("a seat without five cards")
    seat_round = np.repeat(np.arange(n_rounds), seats_per_round)
    seat_starts = np.cumsum(seats_per_round) - seats_per_round
    in_round = np.arange(n_seats) - seat_starts[seat_round]
    # each seat's `player` key, as the index of its opening quote
    seat = 2 * (first[:-1][seat_round] + 4 + SEAT_STRINGS * in_round)
    key = seat + 2 * CLAIMED_AT
    key_open, key_close = quotes[key], quotes[key + 1]
    if not (np.all(buf[key_close + 1] == COLON) and np.all(key_close - key_open == 8)):
        raise Unreadable("a seat without five cards")
    pairs = np.ndarray((len(buf) - 1,), "<u2", text, 0, (1,))
    cards = CARD[pairs[quotes[seat[None, :] + np.arange(6, 16, 2)[:, None]] + 1]]
    round_first = 2 * first[:-1]
    return Columns(
        rounds=rounds,
        seats_per_round=seats_per_round,
        banker=banker,
        base=_integers(buf, quotes[round_first + 5] + 2, quotes[round_first + 6] - 1),
        grab=_integers(buf, quotes[2 * first[1:] - 1] + 2, _grab_ends(quotes, first, len(buf))),
        player=player,
        cards=cards,
        claimed=_integers(buf, key_close + 2, quotes[key + 2] - 1),
        bet=_integers(buf, quotes[key + 3] + 2, quotes[key + 4] - 1),
        rake=_integers(buf, quotes[key + 5] + 2, quotes[key + 6] - 3),
        names=names,
    )


def is_readable(rounds: list[DouniuRound]) -> bool:
    """Whether `read_columns` can cut these rounds: every seat of five cards, no backslash."""
    if not all(len(seat.cards) == 5 for rnd in rounds for seat in rnd.seats):
        return False
    return b"\\" not in _encoder.encode(rounds)


def _grab_ends(quotes: np.ndarray, first: np.ndarray, size: int) -> np.ndarray:
    """Where each round's `grab` value ends: before `},{"banker"`, or `}]` at the end."""
    ends = np.empty(len(first) - 1, np.int64)
    ends[:-1] = quotes[2 * first[1:-1]] - 3
    ends[-1:] = size - 2
    return ends


def _integers(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The integers written in buf[start:end] (an optional minus, then digits), a digit at
    a time for those that have one more."""
    negative = buf[starts] == ord("-")
    starts = starts + negative
    values = buf[starts].astype(np.int64) - ord("0")
    longer = np.flatnonzero(ends - starts > 1)
    j = 1
    while len(longer):
        at = starts[longer] + j
        values[longer] = values[longer] * 10 + buf[at] - ord("0")
        j += 1
        longer = longer[ends[longer] > at + 1]
    return np.where(negative, -values, values)
