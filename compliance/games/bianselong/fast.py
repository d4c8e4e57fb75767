"""快速回放: a 变色龙 deal played out in one loop, for deals that break no rule.

Equal to driving `Table` play by play wherever no play breaks a rule: the same
winner and the same penalty points. Cards are looked up in tables of rank,
suit and penalty points; hands, stock and counts are plain dicts and integers.
At the first play `Table.apply` would report (out of turn, a card that does
not match, a draw while holding a playable card …) or refuse (a card not
held or not in the stock) it returns None, and the engine replays the deal
with `Table`, which words it. `tests/unit/games/test_bianselong_fast.py`
holds the two equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from compliance.games import cards
from compliance.games.bianselong.options import BianselongOptions
from compliance.games.bianselong.record import BianselongPlay
from compliance.games.bianselong.table import card_points

RANK: dict[str, str] = {c: cards.rank_of(c) for c in cards.ALL_CARDS}
SUIT: dict[str, str | None] = {c: cards.suit_of(c) for c in cards.ALL_CARDS}
RANK_SUIT: dict[str, tuple[str, str | None]] = {c: (RANK[c], SUIT[c]) for c in cards.ALL_CARDS}


def matches(card: str, top_rank: str, top_suit: str | None) -> bool:
    """跟牌: a J on anything but a J; else the top's rank, or its suit (the suit a J names)."""
    rank, suit = RANK_SUIT[card]
    return top_rank != "J" if rank == "J" else rank == top_rank or suit == top_suit


# what may go on a top of (rank, suit), a J's named suit standing in for its own: one set
# lookup a play, and one `isdisjoint` over the hand where a draw or a pass is checked
PLAYABLE: dict[tuple[str, str | None], frozenset[str]] = {
    (rank, suit): frozenset(c for c in cards.ALL_CARDS if matches(c, rank, suit))
    for rank in cards.RANKS
    for suit in cards.SUITS
}
ON: dict[str, frozenset[str]] = {c: PLAYABLE[RANK_SUIT[c]] for c in cards.STANDARD_52}
ON_JACK: dict[str, frozenset[str]] = {s: PLAYABLE["J", s] for s in cards.SUITS}  # the suit named
SEVENS = frozenset(c for c in cards.STANDARD_52 if RANK[c] == "7")
EIGHTS = frozenset(c for c in cards.STANDARD_52 if RANK[c] == "8")
_END = object()
_FULL_STOCK: dict[int, dict[str, int]] = {}  # decks → every card of the deck, so often


def points_table(opts: BianselongOptions) -> dict[str, int]:
    """罚分 of every card of the deck under these options."""
    return {c: card_points(c, opts) for c in cards.STANDARD_52}


def fast_deal(
    opts: BianselongOptions,
    order: list[str],
    dealt: Mapping[str, Sequence[str]],
    starter: str,
    decks: int,
    plays: Sequence[BianselongPlay],
    points: Mapping[str, int],
) -> tuple[str | None, dict[str, int]] | None:
    """(winner, penalty points) of a deal without breaches; None where `Table` has something to say."""
    full = _FULL_STOCK.get(decks)
    if full is None:
        full = _FULL_STOCK[decks] = dict.fromkeys(cards.STANDARD_52, decks)
    stock = full.copy()
    if not stock.get(starter):
        return None
    stock[starter] -= 1
    in_stock = 52 * decks - 1
    hands: dict[str, dict[str, int]] = {}
    held: dict[str, int] = {}
    for p in order:
        hand: dict[str, int] = {}
        for c in dealt[p]:
            n = stock.get(c, 0)
            if not n:
                return None
            stock[c] = n - 1
            hand[c] = hand.get(c, 0) + 1
        hands[p] = hand
        held[p] = len(dealt[p])
        in_stock -= len(dealt[p])
    discard = [starter]
    playable = ON[starter]  # a hand keeps no card it holds none of: isdisjoint
    position: dict[str, int] = {}
    for i, p in enumerate(order):
        position.setdefault(p, i)
    n_seats = len(order)
    direction, turn, pending_draw, pending_skip = 1, 0, 0, False
    due: str | None = None
    winner: str | None = None
    last = starter
    seven_draw, stuck_draw, after_draw = opts.seven_draw, opts.stuck_draw, opts.play_after_draw
    rank_of, on, on_jack, sevens, eights = RANK, ON, ON_JACK, SEVENS, EIGHTS
    it = iter(plays)
    for play in it:
        p = play.player
        if p != due and (due is not None or p not in hands):
            return None
        turn = position[p]
        card = play.card
        drawn = play.draw
        hand = hands[p]
        if pending_draw:
            if card is not None and not drawn:
                if card not in sevens:
                    return None
            else:
                if card is not None or len(drawn) != min(pending_draw, in_stock + len(discard) - 1):
                    return None
                pending_draw = 0
        elif pending_skip:
            pending_skip = False
            if drawn or (card is not None and card not in eights):
                return None
        else:
            if drawn or card is None:
                could = not playable.isdisjoint(hand)
                if not drawn:  # a pass: only when nothing can be played or drawn
                    if could or in_stock + len(discard) - 1:
                        return None
                elif (
                    could
                    or len(drawn) != min(stuck_draw, in_stock + len(discard) - 1)
                    or (card is not None and not after_draw)
                ):
                    return None
            if card is not None and card not in playable:
                return None
        if drawn:
            for c in drawn:
                if not in_stock and len(discard) > 1:
                    stock = {}
                    for d in discard[:-1]:
                        stock[d] = stock.get(d, 0) + 1
                    in_stock = len(discard) - 1
                    discard = discard[-1:]
                k = stock.get(c, 0)
                if not k:
                    return None
                stock[c] = k - 1
                in_stock -= 1
                hand[c] = hand.get(c, 0) + 1
            held[p] += len(drawn)
        if card is not None:
            k = hand.get(card, 0)
            if not k:
                return None
            if k == 1:
                del hand[card]
            else:
                hand[card] = k - 1
            left = held[p] = held[p] - 1
            discard.append(card)
            rank = rank_of[card]
            if rank == "J":
                named = play.suit
                if named is None:
                    if left:
                        return None
                    playable = on[card]
                else:
                    playable = on_jack[named]
            else:
                if play.suit is not None:
                    return None
                playable = on[card]
                if rank == "7":
                    pending_draw += seven_draw
                elif rank == "8":
                    pending_skip = True
                elif rank == "A":
                    direction = -direction
            if not left:
                winner, last = p, card
                break
        turn = (turn + direction) % n_seats
        due = order[turn]
    if winner is None:
        return None, dict.fromkeys(order, 0)
    if next(it, _END) is not _END:
        return None
    factor = opts.last_jack_multiplier if RANK[last] == "J" else 1
    return winner, {
        p: 0 if p == winner else factor * sum([points[c] * k for c, k in hand.items()])
        for p, hand in hands.items()
    }
