"""读牌: a 掼蛋 session's hands decoded with each distinct play's text decoded once.

msgspec decodes a hand's fields but keeps its `plays` as raw JSON; the array is cut at
`},{` into the plays' texts, and each text is looked up in a table of texts already
decoded, alone, as one `GuandanPlay` (kept and shared: nothing changes a play). Cutting at
`},{` cannot join or split plays wrongly, because a text is used only if it decodes alone
as one object, and objects that each decode alone, joined by commas inside brackets, are
the array of exactly those objects (an object ends at its own closing brace). Anything
else (whitespace between plays, a text that does not decode, a hand or a line that fails)
is decoded as `decode_rounds` decodes it, which accepts or rejects it with its own words.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from compliance.games.base import decode_rounds
from compliance.games.cards import Card
from compliance.games.guandan.record import GuandanHand, GuandanPlay, GuandanTribute, Level
from compliance.logs.bounds import MAX_ROUNDS, Points, SignedPoints

MAX_KEPT = 1 << 17  # distinct play texts kept; past it the table starts again
NO_PLAYS = msgspec.Raw(b"[]")


class RawHand(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """`GuandanHand` with its plays left as raw JSON (the fields as `GuandanHand` has them)."""

    deal: dict[str, tuple[Card, ...]]
    finish: list[str]
    claimed: dict[str, SignedPoints]
    level: Level | None = None
    stake: Points | None = None
    tribute: list[GuandanTribute] = []
    plays: msgspec.Raw = NO_PLAYS
    rake: Points = 0


# A play as the fast check reads it: the player, the key of its cards in the tables of
# `fast` (the cards, or the cards and the declared combination; () for a pass), the play.
Play = tuple[str, Any, GuandanPlay]
Hand = tuple[RawHand | GuandanHand, list[Play]]

_hands = msgspec.json.Decoder(Annotated[list[RawHand], msgspec.Meta(max_length=MAX_ROUNDS)])
_play = msgspec.json.Decoder(GuandanPlay)
_plays = msgspec.json.Decoder(list[GuandanPlay])
known: dict[bytes, Play] = {}


def decode_hands(raw: msgspec.Raw | bytes) -> list[Hand]:
    """The hands of a session's `rounds` with their plays, equal to
    `decode_rounds(raw, GuandanHand)` (`whole` makes each one's `GuandanHand`), which
    gives the error of a line it rejects."""
    try:
        return [(hand, plays_of(bytes(hand.plays))) for hand in _hands.decode(raw)]
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return [(hand, list(map(play_of, hand.plays))) for hand in decode_rounds(raw, GuandanHand)]


def whole(hand: RawHand | GuandanHand, plays: list[Play]) -> GuandanHand:
    """The `GuandanHand` the reference checks read."""
    if isinstance(hand, GuandanHand):
        return hand
    return GuandanHand(
        deal=hand.deal,
        finish=hand.finish,
        claimed=hand.claimed,
        level=hand.level,
        stake=hand.stake,
        tribute=hand.tribute,
        plays=[play for _, _, play in plays],
        rake=hand.rake,
    )


def play_of(play: GuandanPlay) -> Play:
    cards = play.cards
    if not cards:
        return play.player, (), play
    return play.player, cards if play.combo is None else (cards, play.combo), play


def plays_of(text: bytes) -> list[Play]:
    """The plays of one hand's raw `plays` (a decode error for an array msgspec rejects)."""
    if text.startswith(b"[{") and text.endswith(b"}]"):
        pieces = text[2:-2].split(b"},{")
        try:
            return list(map(known.__getitem__, pieces))
        except KeyError:
            found = list(map(known.get, pieces))
        for i, play in enumerate(found):
            if play is None:
                play = found[i] = _learn(pieces[i])
                if play is None:
                    break
        else:
            return found  # type: ignore[return-value]
    return list(map(play_of, _plays.decode(text)))


def _learn(piece: bytes) -> Play | None:
    """The play a text between `},{` cuts makes alone, kept; None if it makes none."""
    found = known.get(piece)
    if found is None:
        try:
            found = play_of(_play.decode(b"{" + piece + b"}"))
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            return None
        if len(known) >= MAX_KEPT:
            known.clear()
        known[piece] = found
    return found
