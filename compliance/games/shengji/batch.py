"""整场核对: every hand of a session checked at once, on integer card codes, in numpy.

A hand passes when its deal is well formed and no trick of it breaks a rule; then its
attackers' points are known here. Whatever does not pass, or is not decided here, goes
to `engine.seats_of` and `engine.hand_points`, which find and word the breach: this
module only ever answers "clean, these seats and points" or "ask the reference".

The checks lean on one fact: when every player's cards played are exactly the cards
held (the deal, the declarer's kitty less his buried cards), no card was played that
was not held and none is left, and what a player holds before trick t is what they play
in tricks t, t+1, …. So "holds the led suit" is "plays it in a later trick", and "holds
a pair" is "plays both copies of a card from trick t on" (`later.py`). Leads of a single,
a pair or a tractor of two pairs are judged by array; other leads (longer tractors,
throws) by `holdings.play_trick` on the holdings so rebuilt.
tests/unit/games/test_shengji_batch.py holds this to the reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, groupby
from operator import attrgetter, itemgetter
from typing import Any

import numpy as np

from compliance.games.cards import ALL_CARDS
from compliance.games.shengji import tricks
from compliance.games.shengji.holdings import Holding, play_trick
from compliance.games.shengji.later import (
    OUTRANK,
    POINTS_OF,
    POSITION_OF,
    RULER_ROW,
    SUIT_OF,
    TRUMP,
    Later,
    N,
    card_codes,
    decoded_card_codes,
)
from compliance.games.shengji.options import ShengjiOptions
from compliance.games.shengji.record import HAND_SIZE, KITTY_SIZE, LightHand, ShengjiHand
from compliance.games.shengji.scan import Read

Checked = tuple[list[str], int | None]  # the seats, and the attackers' points when decided

SEAT_CARDS = 4 * N  # one hand's (seat, card) counts
DEALT = 4 * HAND_SIZE + KITTY_SIZE
FULL_DEAL = [HAND_SIZE] * 4
FOUR_PLAYS = {4}
TURNS = np.arange(4)
OWNER = np.repeat(TURNS, HAND_SIZE)  # the seat of each of the 100 dealt cards
PLAYER, CARDS = attrgetter("player"), attrgetter("cards")
TRICKS = attrgetter("tricks")


def check_session(
    hands: Sequence[ShengjiHand], players: Sequence[str], options: ShengjiOptions
) -> list[Checked | None]:
    """Per hand: (seats, points) when clean, (seats, None) when the tricks need the
    reference, None when the deal does (a DealError, or a hand not judged here)."""
    return check_sessions([(hands, players)], options)[0]


def check_sessions(
    sessions: Sequence[tuple[Sequence[ShengjiHand], Sequence[str]]], options: ShengjiOptions
) -> list[list[Checked | None]]:
    """`check_session` of several sessions of the same options, in one pass over all their
    hands (each hand is judged on its own: the arrays only run longer)."""
    outs: list[list[Checked | None]] = [[None] * len(hands) for hands, _ in sessions]
    out: list[Checked | None] = list(chain.from_iterable(outs))
    kept = []
    index = 0
    for hands, players in sessions:
        known = set(players)
        for hand in hands:
            seats = _candidate_seats(hand, players, known)
            if seats is not None:
                kept.append((index, hand, seats))
            index += 1
    if kept:
        flat: _Flat | None
        try:
            flat = _Flat(kept)
        except KeyError:  # a play by someone not dealt in: the reference rejects that deal
            kept = [k for k in kept if _seated(k[1], k[2])]
            flat = _Flat(kept) if kept else None
        if flat is not None:
            _Judged(flat, options).fill(out)
    start = 0
    for each in outs:
        each[:] = out[start : start + len(each)]
        start += len(each)
    return outs


def _candidate_seats(hand: ShengjiHand, players: Sequence[str], known: set[str]):
    """The seats of a hand judged here, None for one left to the reference."""
    if not hand.tricks or set(map(len, hand.tricks)) != FOUR_PLAYS:
        return None
    return dealt_seats(hand, players, known)


def dealt_seats(hand: ShengjiHand | LightHand, players: Sequence[str], known: set[str]):
    """`_candidate_seats` but for the tricks (four plays each, some of them); `players`
    itself when the deal is to all four of them."""
    deal = hand.deal
    if (
        len(players) == len(deal) == 4
        and deal.keys() == known
        and hand.declarer in deal
        and hand.level is not None
        and known.issuperset(hand.claimed)
        and list(map(len, deal.values())) == FULL_DEAL
        and len(hand.kitty) == KITTY_SIZE
        and len(hand.buried) == KITTY_SIZE
    ):
        return players
    if (
        len(deal) != 4
        or hand.declarer not in deal
        or hand.level is None
        or not known.issuperset(deal)
        or not known.issuperset(hand.claimed)
        or list(map(len, deal.values())) != FULL_DEAL
        or len(hand.kitty) != KITTY_SIZE
        or len(hand.buried) != KITTY_SIZE
    ):
        return None
    seats = [p for p in players if p in deal]
    return seats if len(seats) == 4 else None


def _seated(hand: ShengjiHand, seats: list[str]) -> bool:
    return set(map(PLAYER, chain.from_iterable(hand.tricks))) <= set(seats)


def _runs_of_seats(kept: list[tuple[int, ShengjiHand, list[str]]]):
    """(seats, the tricks of each hand) of each run of consecutive hands at the same seats."""
    for seats, run in groupby(kept, key=itemgetter(2)):
        yield seats, map(TRICKS, map(itemgetter(1), run))


def _seat_of(seats: list[str]):
    return {p: i for i, p in enumerate(seats)}.__getitem__


class _Flat:
    """The judged hands of a session flattened: plays, cards and deals as code arrays.
    KeyError when a play is by someone not dealt in. `read`: the plays as `scan` read
    them from the hands' text (`LightHand`s, every one of them read)."""

    def __init__(self, kept: list[tuple[int, Any, list[str]]], read: Read | None = None) -> None:
        self.kept = kept
        self.light = read is not None
        hands = [hand for _, hand, _ in kept]
        if read is None:
            plays = list(chain.from_iterable(chain.from_iterable(map(TRICKS, hands))))
            players: Iterable[int] = chain.from_iterable(  # runs of hands at the same seats
                map(_seat_of(seats), map(PLAYER, chain.from_iterable(chain.from_iterable(t))))
                for seats, t in _runs_of_seats(kept)
            )
            self.seat = np.fromiter(players, np.int64, len(plays))  # per play, index in seats
            self.code, self.length = card_codes(list(map(CARDS, plays)))
            self.tricks = np.fromiter(map(len, map(TRICKS, hands)), np.int64, len(hands))
        else:
            self.seat, self.code, self.length = read.seat, read.code, read.length
            self.tricks = read.tricks
        dealt = [[*map(h.deal.__getitem__, s), h.kitty, h.buried] for _, h, s in kept]
        if self.light:  # decoded hands, every card of them a `Card`
            codes = decoded_card_codes(dealt).reshape(len(kept), -1)
        else:
            codes = card_codes(list(chain.from_iterable(dealt)))[0].reshape(len(kept), -1)
        self.dealt, self.buried = codes[:, :DEALT], codes[:, DEALT:]  # seat order, the kitty
        self.ruler = np.array([RULER_ROW[h.level, h.trump] for h in hands])  # type: ignore[index]
        self.declarer = np.array([s.index(h.declarer) for _, h, s in kept])


class _Judged:
    """The verdicts on a session's flattened hands: which are clean, and their points."""

    def __init__(self, flat: _Flat, options: ShengjiOptions):
        self.flat, self.options = flat, options
        nh = len(flat.kept)
        hands = np.arange(nh)
        self.ruler = ruler = flat.ruler
        self.declarer = declarer = flat.declarer
        dealt = flat.dealt.reshape(nh, DEALT)
        copies = np.bincount((hands[:, None] * N + dealt).ravel(), minlength=nh * N)
        self.deal_ok = copies.reshape(nh, N).max(1) <= 2

        size = nh * SEAT_CARDS  # holdings per (hand, seat, card): the deal, the kitty to
        keys = (hands[:, None] * 4 + OWNER) * N + dealt[:, : 4 * HAND_SIZE]  # the declarer,
        hold = np.bincount(keys.ravel(), minlength=size)  # less what he buried
        mine = (hands * 4 + declarer)[:, None] * N
        hold += np.bincount((mine + dealt[:, 4 * HAND_SIZE :]).ravel(), minlength=size)
        buried = flat.buried.reshape(nh, KITTY_SIZE)
        hold -= np.bincount((mine + buried).ravel(), minlength=size)

        self.seat = seat = flat.seat.reshape(-1, 4)  # [trick, turn]
        length = flat.length.reshape(-1, 4)
        self.code = code = flat.code
        self.trick_hand = trick_hand = np.repeat(hands, flat.tricks)
        self.nt = nt = len(trick_hand)
        self.trick = trick = np.arange(nt)
        self.player = player = trick_hand[:, None] * 4 + seat  # (hand, seat) of each play
        card_player = np.repeat(player.ravel(), length.ravel())
        card_trick = np.repeat(np.repeat(trick, 4), length.ravel())
        ruled = ruler.take(card_player // 4) * N + code  # [ruler, code] as one index
        self.suit = suit = SUIT_OF.take(ruled)
        self.position = POSITION_OF.take(ruled)
        played = np.bincount(card_player * N + code, minlength=size)

        self.bad = ~self.deal_ok | ~(played == hold).reshape(nh, SEAT_CARDS).all(1)
        lead_size = length[:, 0]
        regular = (length == lead_size[:, None]).all(1) & (lead_size > 0)
        regular &= ((seat - seat[:, :1]) % 4 == TURNS).all(1)
        self.fail(~regular)
        self.later = Later(hold, card_player, card_trick, code, suit, ruler, nt)

        start = np.zeros(length.size + 1, dtype=np.int64)
        np.cumsum(length.ravel(), out=start[1:])
        self.trick_start = start[:-1:4]
        self.winner = np.zeros(nt, dtype=np.int64)
        others = [trick[regular & ((lead_size == 3) | (lead_size > 4))]]
        singles = trick[regular & (lead_size == 1)]
        if singles.size:
            self.singles(singles)
        for size_ in (2, 4):
            ts = trick[regular & (lead_size == size_)]
            if ts.size:
                others.append(self.paired(ts, size_))
        for t in np.concatenate(others).tolist():
            self.other(t)

        self.won_by = won_by = seat[trick, self.winner]
        self.opening = opening = np.ones(nt, dtype=bool)
        opening[1:] = trick_hand[1:] != trick_hand[:-1]
        expected = np.where(opening, declarer[trick_hand], np.roll(won_by, 1))
        self.fail(seat[:, 0] != expected)

    def fail(self, tricks_failed: np.ndarray) -> None:
        self.bad[self.trick_hand[tricks_failed]] = True

    def singles(self, ts: np.ndarray) -> None:
        """Tricks of one card each: a revoke is a later card of the led suit; the winner."""
        cards = self.trick_start[ts][:, None] + TURNS
        s, p = self.suit.take(cards), self.position.take(cards)
        led = s[:, :1]
        later = self.later.last(self.player.take(ts, axis=0)[:, 1:], led) > ts[:, None]
        self.fail(ts[((s[:, 1:] != led) & later).any(1)])
        trump = s == TRUMP
        self.winner[ts] = np.where((s == led) | trump, p + OUTRANK * trump, -1).argmax(1)

    def paired(self, ts: np.ndarray, size: int) -> np.ndarray:
        """Tricks of `size` cards each led by a pair (2) or a tractor of two pairs (4);
        returns the others. A follower breaks the rules with too few of the led suit
        while holding more, fewer pairs than the lead while holding more, or no tractor
        to a tractor while holding one (the option `tractor_follow`)."""
        cards = self.trick_start[ts][:, None] + np.arange(4 * size)
        c = np.sort(self.code.take(cards).reshape(-1, 4, size), axis=2)
        ruled = self.ruler.take(self.trick_hand.take(ts))[:, None, None] * N + c
        s, p = SUIT_OF.take(ruled), POSITION_OF.take(ruled)
        same = c[:, :, 1:] == c[:, :, :-1]
        if size == 2:
            shaped, top = same[:, :, 0], p[:, :, 0]
        else:  # two pairs of one suit on neighbouring positions
            shaped = same[:, :, 0] & same[:, :, 2] & ~same[:, :, 1] & (s[:, :, 0] == s[:, :, 2])
            shaped &= np.abs(p[:, :, 0] - p[:, :, 2]) == 1
            top = np.maximum(p[:, :, 0], p[:, :, 2])
        led_so = shaped[:, 0]
        rest = ts[~led_so]
        ts, c, s, shaped, top = ts[led_so], c[led_so], s[led_so], shaped[led_so], top[led_so]
        led = s[:, 0, :1]
        follower = self.player.take(ts, axis=0)[:, 1:]
        in_suit = s[:, 1:, :] == led[:, :, None]
        count = in_suit.sum(2)
        pairs = (same[led_so][:, 1:, :] & in_suit[:, :, 1:]).sum(2)
        wrong = (count < size) & (self.later.last(follower, led) > ts[:, None])
        short = pairs < np.minimum(size // 2, count // 2)
        if short.any():
            rows, turns = np.nonzero(short)
            held = self.later.pairs(follower[rows, turns], led[rows, 0], ts[rows])
            wrong[rows, turns] |= held > pairs[rows, turns]
        if size == 4 and self.options.tractor_follow:
            lacking = ~(shaped[:, 1:] & (s[:, 1:, 0] == led))
            if lacking.any():
                rows, turns = np.nonzero(lacking)
                held = self.later.tractors(follower[rows, turns], led[rows, 0], ts[rows])
                wrong[rows, turns] |= held > 0
        self.fail(ts[wrong.any(1)])
        s0 = s[:, :, 0]
        trump = s0 == TRUMP
        value = np.where(shaped & ((s0 == led) | trump), top + OUTRANK * trump, -1)
        self.winner[ts] = value.argmax(1)
        return rest

    def other(self, t: int) -> None:
        """A trick led otherwise (a longer tractor, a throw): `play_trick` on the holdings
        rebuilt from the cards played from this trick on."""
        h = int(self.trick_hand[t])
        if self.bad[h] or self.flat.light:  # a hand read from its text: decoded whole
            self.bad[h] = True  # and judged by the reference
            return
        _, hand, seats = self.flat.kept[h]
        number = t - int(np.searchsorted(self.trick_hand, h))
        trumps = tricks.trumps_for(hand.level, None if hand.trump == "NT" else hand.trump)
        held = _held_from(hand.tricks[number:], seats, trumps._suit)
        lead = int(self.seat[t, 0])
        expected = [seats[(lead + k) % 4] for k in range(4)]
        found = play_trick(hand.tricks[number], expected, seats, held, trumps, self.options)
        if isinstance(found, tuple):
            self.bad[h] = True
        else:
            self.winner[t] = found

    def fill(self, out: list[Checked | None]) -> None:
        """The verdicts, the attackers' points of each clean hand (tricks won, the kitty)."""
        code, start, th = self.code, self.trick_start, self.trick_hand
        cumulative = np.zeros(len(code) + 1, dtype=np.int64)
        np.cumsum(POINTS_OF[code], out=cumulative[1:])
        trick_points = cumulative[np.append(start[1:], len(code))] - cumulative[start]
        attacked = self.won_by % 2 != self.declarer[th] % 2
        total = np.zeros(len(self.flat.kept), dtype=np.int64)
        np.add.at(total, th, trick_points * attacked)
        closing = np.append(self.trick[1:][self.opening[1:]] - 1, self.nt - 1)
        rule = self.options.kitty_multiplier
        verdicts = zip(
            self.flat.kept,
            self.deal_ok.tolist(),
            self.bad.tolist(),
            total.tolist(),
            attacked[closing].tolist(),
            closing.tolist(),
            strict=True,
        )
        for (index, hand, seats), deal_ok, bad, points, kitty_taken, last in verdicts:
            if not deal_ok:
                continue
            if bad:
                out[index] = (seats, None)
                continue
            if kitty_taken:
                trumps = tricks.trumps_for(hand.level, None if hand.trump == "NT" else hand.trump)
                lead = tricks.shape(self._last_lead(last, hand), trumps)
                assert lead is not None  # a clean hand's leads are of one suit
                points += tricks.points(hand.buried) * tricks.kitty_multiplier(lead, rule)
            out[index] = (seats, points)

    def _last_lead(self, last: int, hand) -> list[str]:
        """The cards that lead a hand's last trick (`last`, of all the tricks)."""
        if not self.flat.light:
            return hand.tricks[-1][0].cards
        at = int(self.trick_start[last])
        return [ALL_CARDS[c] for c in self.code[at : at + int(self.flat.length[4 * last])]]


def _held_from(later, seats: list[str], suits: dict[str, str]) -> dict[str, Holding]:
    held: dict[str, Holding] = {p: {} for p in seats}
    for trick in later:
        for play in trick:
            mine = held[play.player]
            for card in play.cards:
                suited = mine.setdefault(suits[card], {})
                suited[card] = suited.get(card, 0) + 1
    return held
