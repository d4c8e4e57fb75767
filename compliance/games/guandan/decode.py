"""读牌: a 掼蛋 session's hands decoded with each distinct play's text decoded once.

msgspec decodes a hand's fields but keeps its `plays` as raw JSON; the array is cut at
`},{` into the plays' texts, and each text is looked up in a table of texts already
decoded, alone, as one `GuandanPlay` (kept and shared: nothing changes a play). Cutting at
`},{` cannot join or split plays wrongly, because a text is used only if it decodes alone
as one object, and objects that each decode alone, joined by commas inside brackets, are
the array of exactly those objects (an object ends at its own closing brace). Anything
else (whitespace between plays, a text that does not decode, a hand or a line that fails)
is decoded as `decode_rounds` decodes it, which accepts or rejects it with its own words.

The same cut proves the plays' keys for the reader (`keys_proven`, the engine's
`keys_apart`): a text is kept only if no key of its play can be named twice, so a hand
whose texts are all kept holds no repeat; the plays so cut are kept for the line's decode,
which then need not cut them again. The reader's key mirror has decoded the rest of each
hand with the same types but without their bounds; where the bounds hold and nothing a
`RawHand` needs is left out, its `RawHand`s are made of it and kept too, and the line's
decode does not read the rounds again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Annotated, Any

import msgspec
from msgspec import UNSET

from compliance.games.base import decode_rounds
from compliance.games.cards import Card
from compliance.games.guandan.record import GuandanHand, GuandanPlay, GuandanTribute, Level
from compliance.logs.bounds import MAX_POINTS, MAX_ROUNDS, Points, SignedPoints

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
MAX_READY = 1 << 11  # lines whose plays the key proof keeps for their decode; the oldest go
# a line's raw `rounds`, its hands' plays, and its hands where the key mirror gave them
ready: OrderedDict[int, tuple[msgspec.Raw, list[list[Play]], list[RawHand] | None]] = OrderedDict()


def decode_hands(raw: msgspec.Raw | bytes) -> list[Hand]:
    """The hands of a session's `rounds` with their plays, equal to
    `decode_rounds(raw, GuandanHand)` (`whole` makes each one's `GuandanHand`), which
    gives the error of a line it rejects. The plays, and the hands where it made them, are
    those the reader's key proof kept (`keys_proven`)."""
    kept = ready.pop(id(raw), None)
    if kept is not None and kept[0] is raw and kept[2] is not None:
        return list(zip(kept[2], kept[1], strict=True))
    try:
        hands = _hands.decode(raw)
        if kept is not None and kept[0] is raw and len(kept[1]) == len(hands):
            return list(zip(hands, kept[1], strict=True))
        return [(hand, plays_of(bytes(hand.plays))) for hand in hands]
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
    found = _cut(text)
    return list(map(play_of, _plays.decode(text))) if found is None else found


def keys_proven(records: Sequence[Any], rounds: msgspec.Raw) -> bool:
    """True: the raw `plays` of each hand of a line's key mirror (`logs.key_counts`, UNSET
    where left out) decode as `GuandanPlay`s and no play names a key twice (every text kept
    in `known` was proven so when it was learnt). The plays, and the hands where the mirror
    holds what their `RawHand`s would, are kept for `decode_hands` of the same `rounds`."""
    cut: list[list[Play]] = []
    for record in records:
        raw = record.plays
        text = b"[]" if raw is UNSET else bytes(raw)
        if text == b"[]":
            cut.append([])
            continue
        plays = _cut(text)
        if plays is None:
            return False
        cut.append(plays)
    ready[id(rounds)] = (rounds, cut, _hands_of(records))
    if len(ready) > MAX_READY:
        ready.popitem(last=False)
    return True


def _hands_of(records: Sequence[Any]) -> list[RawHand] | None:
    """The `RawHand`s of a line's rounds from their key mirror, or None where any one might
    decode otherwise."""
    if len(records) > MAX_ROUNDS:
        return None
    hands = []
    for record in records:
        hand = _hand_of(record)
        if hand is None:
            return None
        hands.append(hand)
    return hands


def _hand_of(record: Any) -> RawHand | None:
    """The `RawHand` decoding the round would give, from the key mirror's record of it (its
    leaves typed but not bounded), or None where it might not decode so."""
    deal, finish, claimed = record.deal, record.finish, record.claimed
    if deal is UNSET or finish is UNSET or claimed is UNSET:
        return None
    if claimed and not -MAX_POINTS <= min(claimed.values()) <= max(claimed.values()) <= MAX_POINTS:
        return None
    level, stake, rake = record.level, record.stake, record.rake
    if stake is UNSET:
        stake = None
    elif stake is not None and not 0 <= stake <= MAX_POINTS:
        return None
    if rake is UNSET:
        rake = 0
    elif not 0 <= rake <= MAX_POINTS:
        return None
    tribute: list[GuandanTribute] = []
    if record.tribute is not UNSET:
        for paid in record.tribute:
            if paid.payer is UNSET or paid.receiver is UNSET or paid.card is UNSET:
                return None
            back = None if paid.returned is UNSET else paid.returned
            tribute.append(
                GuandanTribute(
                    payer=paid.payer, receiver=paid.receiver, card=paid.card, returned=back
                )
            )
    return RawHand(
        deal=deal,
        finish=list(finish),
        claimed=claimed,
        level=None if level is UNSET else level,
        stake=stake,
        tribute=tribute,
        plays=NO_PLAYS if record.plays is UNSET else record.plays,
        rake=rake,
    )


def _cut(text: bytes) -> list[Play] | None:
    """The plays of a hand's raw `plays` from the texts between `},{` cuts, each decoded
    alone (and kept), or None where one does not decode so or is not proven."""
    if not (text.startswith(b"[{") and text.endswith(b"}]")):
        return None
    try:
        return list(map(known.__getitem__, text[2:-2].split(b"},{")))
    except KeyError:
        return None


class Known(dict[bytes, Play]):
    """The plays of the texts met between `},{` cuts; a text not met yet is learnt on
    look-up (KeyError if it makes no play alone, or may name a key twice)."""

    def __missing__(self, piece: bytes) -> Play:
        # A play's keys are `player`, `cards` and `combo` (no other field is allowed), and
        # without a backslash a key is its own bytes: each written at most once is named at
        # most once. (A text with a backslash is never asked by the key proof, which takes
        # no line that holds one; for the rounds' decode its repeats do not matter.)
        if (
            piece.count(b'"player"') > 1
            or piece.count(b'"cards"') > 1
            or piece.count(b'"combo"') > 1
        ):
            raise KeyError(piece)
        try:
            play = _play.decode(b"{" + piece + b"}")
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            raise KeyError(piece) from None
        cards = play.cards
        if not cards:
            found: Play = (play.player, (), play)
        else:
            found = (play.player, cards if play.combo is None else (cards, play.combo), play)
        if len(self) >= MAX_KEPT:
            self.clear()
        self[piece] = found
        return found


known = Known()
