"""读牌: the tricks of many hands read from their JSON bytes, in numpy, without Python objects.

The rounds are decoded with `tricks` left as bytes (`record.LightHand`); this module reads
those bytes into the codes `batch` checks: per play its seat and number of cards, per
card its code. It reads only the compact form a log writer gives,
`[[{"player":"…","cards":["…",…]},…],…]`: every string is compared whole (the keys and
cards by their bytes, a player's name with the names dealt in, up to 16 bytes), every
stretch between two strings must be one of the few that form allows, in an order that
makes every play exactly a "player" and a "cards" key, and every trick four plays. A
hand read otherwise (spaces, keys in another order, an unknown key, an escape, a longer
name, a play by someone not dealt in, a trick of other than four plays) is not read
here: its session is decoded whole and judged as before (`engine.Shengji.replay_many`).
tests/unit/games/test_shengji_scan.py holds this to the decoded hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec
import numpy as np

from compliance.games.shengji.later import PAIR_CODE, TEN_PREFIX


def _word(text: bytes) -> int:
    return int.from_bytes(text, "little")


# What follows a string's closing quote, up to and with the next string's opening quote
# (quotes alternate: no string read here holds an escape), so a match is the whole gap.
KEY_NEXT, NAME_NEXT = _word(b':"'), _word(b',"')
PLAYER_KEY = _word(b'"player"')  # from the opening quote: the whole key
CARDS_KEY, CARDS_OPEN = _word(b'","cards'), _word(b'":["')  # from a name's closing quote
ENDS = {_word(b']},{"'): 5, _word(b']}],[{"'): 7, _word(b']}]][[{"'): 8}  # a play's end
NEXT_PLAY, NEXT_TRICK, NEXT_HAND = ENDS
HEAD, TAIL = b'[[{"', b'"]}]]'
MASK = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
QUOTE, BACKSLASH = b'"'[0], b"\\"[0]
TEN_TAIL, SHORT_TAIL = _word(b'0"'), _word(b'"')
LONGEST_NAME = 16
EMPTY = np.zeros(0, dtype=np.int64)
PAD = bytes(16)  # past the last hand: every word read from a string's end is in the buffer


def name_code(name: str) -> tuple[int, int]:
    """A name as `read_tricks` compares it: its first 8 bytes with its length in the top
    byte, the next 8 (a name past 16 bytes matches no play)."""
    data = name.encode()
    return int.from_bytes(data[:8], "little") | min(len(data), 255) << 56, int.from_bytes(
        data[8:LONGEST_NAME], "little"
    )


@dataclass(frozen=True, slots=True)
class Read:
    """The plays of the hands read: per play its seat and length, per card its code, per
    hand its tricks; `ok` per hand (False: not read, nothing of it in the arrays)."""

    ok: np.ndarray
    seat: np.ndarray
    code: np.ndarray
    length: np.ndarray
    tricks: np.ndarray


def read_tricks(raws: Sequence[bytes | msgspec.Raw], names: np.ndarray) -> Read:
    """The tricks of each hand (its JSON bytes), its seats' names given by `name_code`,
    `names[hand, seat] = (first word, second word)` (uint64)."""
    ok = np.zeros(len(raws), dtype=bool)
    parts: list[tuple[np.ndarray, tuple[np.ndarray, ...]]] = []
    _read_part(raws, names, np.arange(len(raws)), ok, parts)
    tricks = np.zeros(len(raws), dtype=np.int64)
    for kept, found in parts:
        tricks[kept] = found[3]
    seat, code, length = (np.concatenate([f[k] for _, f in parts] or [EMPTY]) for k in range(3))
    return Read(ok, seat, code, length, tricks)


def _read_part(raws, names, kept: np.ndarray, ok: np.ndarray, parts: list) -> None:
    """Read the hands `kept`, in order; without those that fail, or in halves when a
    failure does not tell its hand."""
    if not len(kept):
        return
    mine = np.ones(len(kept), dtype=bool)
    found = _read([raws[i] for i in kept.tolist()], names[kept], mine)
    if found is not None:
        ok[kept] = True
        parts.append((kept, found))
    elif not mine.all():
        _read_part(raws, names, kept[mine], ok, parts)
    elif len(kept) > 1:
        half = len(kept) // 2
        _read_part(raws, names, kept[:half], ok, parts)
        _read_part(raws, names, kept[half:], ok, parts)


def _words(buffer: bytes, at: np.ndarray, dtype: str = "<u8") -> np.ndarray:
    """The 8 (or `dtype`'s) bytes from each of `at`, as little-endian words."""
    width = np.dtype(dtype).itemsize
    return np.ndarray((len(buffer) - width + 1,), dtype, buffer=buffer, strides=(1,))[at]


def _read(raws, names: np.ndarray, ok: np.ndarray):
    """(seat, code, length, tricks) when every hand reads; else None, with `ok` False for
    the hands that do not where that is known."""
    if not raws:
        return EMPTY, EMPTY, EMPTY, EMPTY
    sizes = np.fromiter(map(len, raws), np.int64, len(raws))
    offsets = np.zeros(len(raws) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    buffer = b"".join([*raws, PAD])
    raw = np.frombuffer(buffer, np.uint8)
    head = sizes >= len(HEAD) + len(TAIL)
    for k, byte in enumerate(HEAD):
        head &= raw[offsets[:-1] + k] == byte
    for k, byte in enumerate(TAIL):
        head &= raw[offsets[1:] - len(TAIL) + k] == byte
    ok &= head
    if b"\\" in buffer:  # an escape: no card, key or seat's name read here has one
        ok[np.searchsorted(offsets, np.flatnonzero(raw == BACKSLASH), "right") - 1] = False
        return None
    quotes = np.flatnonzero(raw == QUOTE)
    if len(quotes) % 2 or not ok.all():
        return None
    start, end = quotes[0::2] + 1, quotes[1::2]
    strings = len(end)
    after = _words(buffer, end + 1, "<u2")
    play = np.flatnonzero(after == KEY_NEXT)  # each play's "player" key
    plays = len(play)
    following = np.append(play[1:], strings)
    length = following - play - 3  # the cards of each play
    if not plays or play[0] or (length < 1).any():
        ok[np.searchsorted(offsets, start[play[length < 1]], "right") - 1] = False
        ok[0] &= bool(plays) and not play[0]
        return None
    if np.count_nonzero(after == NAME_NEXT) != strings - 3 * plays:
        return None  # a gap other than "," where only a name or a card ends
    key_at = start[play]
    problem = _words(buffer, key_at - 1) != PLAYER_KEY
    name_at, name_end = start[play + 1], end[play + 1]
    problem |= _words(buffer, name_end) != CARDS_KEY
    problem |= _words(buffer, name_end + 8, "<u4") != CARDS_OPEN
    last = following - 1  # each play's last card
    ending = _words(buffer, end[last] + 1)
    kind = np.zeros(plays, dtype=np.int64)
    for k, (word, width) in enumerate(ENDS.items(), 1):
        kind[ending & MASK[width] == word] = k
    kind[-1] = 3  # the last hand's tail, checked above
    problem |= kind == 0

    total = int(length.sum())
    first_card = np.repeat(play + 3 - np.cumsum(length) + length, length)
    at = start[first_card + np.arange(total)]
    card = _words(buffer, at, "<u4")
    key = (card & 0xFFFF).astype(np.int64)
    code, ten = PAIR_CODE[key], TEN_PREFIX[key]
    good = (code >= 0) & (
        card >> 16 & np.where(ten, 0xFFFF, 0xFF) == np.where(ten, TEN_TAIL, SHORT_TAIL)
    )

    name_size = name_end - name_at
    lo = _words(buffer, name_at) & MASK[np.minimum(name_size, 8)]
    lo |= np.minimum(name_size, 255).astype(np.uint64) << np.uint64(56)
    if int(name_size.max()) > 8:
        hi = _words(buffer, name_at + 8) & MASK[np.clip(name_size - 8, 0, 8)]
    else:  # every name within its first word
        hi = None
    per_hand = np.diff(np.searchsorted(key_at, offsets))  # the plays of each hand, in order
    play_hand = np.repeat(np.arange(len(raws)), per_hand)
    seat = _seats(names, per_hand, lo, hi)
    problem |= (seat < 0) | (name_size > LONGEST_NAME)

    closing = np.flatnonzero(kind >= 2)  # the plays that end a trick
    four = np.diff(closing, prepend=-1) == 4
    hand_ends = kind == 3
    ok[play_hand[problem]] = False
    ok[np.searchsorted(offsets, at[~good], "right") - 1] = False
    ok[play_hand[closing[~four]]] = False
    ok &= np.bincount(play_hand[hand_ends], minlength=len(raws)) == 1
    if not ok.all() or not (end[last[hand_ends]] + len(TAIL) == offsets[1:]).all():
        return None
    return seat, code, length, np.bincount(play_hand[closing], minlength=len(raws))


def _seats(names: np.ndarray, per_hand: np.ndarray, lo: np.ndarray, hi) -> np.ndarray:
    """The seat of each play's name among its hand's four (-1: none of them); the plays
    in hand order, `per_hand` of each; `hi` None: every play's name within 8 bytes."""
    match = np.repeat(names[:, :, 0], per_hand, axis=0) == lo[:, None]
    if hi is not None or names[:, :, 1].any():
        if hi is None:
            hi = np.zeros_like(lo)
        match &= np.repeat(names[:, :, 1], per_hand, axis=0) == hi[:, None]
    row = match.view("<u4").ravel()  # one byte a seat: exactly one is set
    one = (row != 0) & (row & (row - 1) == 0)
    seat = (row > 0xFF).astype(np.int64) + (row > 0xFFFF) + (row > 0xFFFFFF)
    return np.where(one, seat, -1)
