"""手牌: each player's cards grouped by effective suit, and one trick checked against them.

The same rules as `tricks.follow_problem` and `tricks.throw_problem`, on holdings
kept per suit so that following a lead reads only the led suit's cards. A holding
maps the effective suit to {card: copies}; a card whose copies are all played is
removed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from compliance.games.shengji import tricks
from compliance.games.shengji.options import ShengjiOptions
from compliance.games.shengji.record import ShengjiPlay

Holding = dict[str, dict[str, int]]


def holding_of(cards: Counter, trumps: tricks.Trumps) -> Holding:
    """The cards held, by effective suit."""
    suits = trumps._suit
    held: Holding = {}
    for card, copies in cards.items():
        if copies > 0:
            held.setdefault(suits[card], {})[card] = copies
    return held


def flat(held: Holding) -> Counter:
    return Counter({c: n for cards in held.values() for c, n in cards.items()})


def holds(held: Holding, cards: Sequence[str], suits: dict[str, str]) -> bool:
    """Whether every card played is held, as many times as it is played."""
    if len(cards) == 1:
        card = cards[0]
        return card in held.get(suits[card], ())
    if len(cards) == 2:
        first, second = cards
        if first == second:
            return held.get(suits[first], {}).get(first, 0) >= 2
        return first in held.get(suits[first], ()) and second in held.get(suits[second], ())
    for card, copies in Counter(cards).items():
        if held.get(suits[card], {}).get(card, 0) < copies:
            return False
    return True


def take(held: Holding, cards: Sequence[str], suits: dict[str, str]) -> None:
    """Remove the cards played (each held, see `holds`)."""
    for card in cards:
        suited = held[suits[card]]
        left = suited[card] - 1
        if left:
            suited[card] = left
        else:
            del suited[card]


def pairs_of(suited: dict[str, int], trumps: tricks.Trumps) -> list[int]:
    position = trumps._position
    return sorted((position[c] for c, n in suited.items() if n >= 2), reverse=True)


def follow_problem(
    lead: tricks.Shape,
    suited: dict[str, int],
    play: Sequence[str],
    trumps: tricks.Trumps,
    tractor_follow: bool,
) -> str | None:
    """跟牌: `tricks.follow_problem` where `suited` is the follower's cards of the led suit."""
    size = sum(lead.units)
    if len(play) != size:
        return f"plays {len(play)} cards to a lead of {size}"
    suit = lead.suit
    suits = trumps._suit
    count = sum(suited.values())
    if size == 1:
        if count and suits[play[0]] != suit:
            return f"plays 0 of the led suit while holding {count} (must follow suit)"
        return None
    played = [c for c in play if suits[c] == suit]
    if len(played) < min(size, count):
        return f"plays {len(played)} of the led suit while holding {count} (must follow suit)"
    if not lead.pairs:
        return None
    held_pairs = pairs_of(suited, trumps)
    want = min(lead.pairs, len(held_pairs), len(played) // 2)
    if want:
        played_pairs = len(tricks.pair_positions(played, trumps))
        if played_pairs < want:
            return f"plays {played_pairs} pairs to a lead of {lead.pairs} while holding {want}"
    if tractor_follow and lead.kind == "tractor":
        length = lead.units[0] // 2
        if tricks.longest_tractor(held_pairs)[0] >= length and not tricks.has_tractor(
            played, trumps, length
        ):
            return "holds a tractor of the led suit but does not play it"
    return None


def play_trick(
    trick: list[ShengjiPlay],
    expected: list[str],
    seats: list[str],
    held: dict[str, Holding],
    trumps: tricks.Trumps,
    options: ShengjiOptions,
) -> int | tuple[str, str | None]:
    """One trick: the index of the play that wins it, taking the cards played from the
    holdings; or, when it breaks the rules, (what went wrong, who)."""
    leader = expected[0]
    if [p.player for p in trick] != expected:
        logged = ", ".join(p.player for p in trick)
        return f"plays by {logged}, the turn order is {', '.join(expected)}", None
    a, b, c, d = trick
    if len(a.cards) == len(b.cards) == len(c.cards) == len(d.cards) == 1:
        return _singles(trick, held, trumps)
    suits = trumps._suit
    for play in trick:
        if not holds(held[play.player], play.cards, suits):
            short = sorted((Counter(play.cards) - flat(held[play.player])).elements())
            return f"{play.player} plays {' '.join(short)} not held", play.player
    first = trick[0].cards
    lead = tricks.shape(first, trumps)
    if lead is None:
        return f"{leader} leads cards of more than one suit", leader
    suit = lead.suit
    if lead.kind == "throw":
        others = (Counter(held[p].get(suit, {})) for p in seats if p != leader)
        refused = tricks.throw_problem(lead, first, others, trumps)
        if refused:
            return f"{leader} {refused}", leader
    single = lead.kind == "single"
    for play in trick[1:]:
        cards = play.cards
        suited = held[play.player].get(suit, {})
        if single and len(cards) == 1:
            if suited and suits[cards[0]] != suit:
                count = sum(suited.values())
                problem: str | None = (
                    f"plays 0 of the led suit while holding {count} (must follow suit)"
                )
            else:
                problem = None
        else:
            problem = follow_problem(lead, suited, cards, trumps, options.tractor_follow)
        if problem:
            return f"{play.player} {problem}", play.player
    for play in trick:
        take(held[play.player], play.cards, suits)
    if lead.kind == "throw":
        plays = [(p.player, p.cards) for p in trick]
        return tricks.trick_winner(plays, trumps, options.throw_ruff)
    return _winner(trick, lead, trumps)


def _singles(
    trick: list[ShengjiPlay], held: dict[str, Holding], trumps: tricks.Trumps
) -> int | tuple[str, str | None]:
    """`play_trick` of a trick of one card each, the common case, without shapes."""
    suits, position = trumps._suit, trumps._position
    for play in trick:
        card = play.cards[0]
        if card not in held[play.player].get(suits[card], ()):
            return f"{play.player} plays {card} not held", play.player
    lead = trick[0].cards[0]
    suit = suits[lead]
    for play in trick[1:]:
        suited = held[play.player].get(suit)
        if suited and suits[play.cards[0]] != suit:
            count = sum(suited.values())
            return (
                f"{play.player} plays 0 of the led suit while holding {count} (must follow suit)",
                play.player,
            )
    best, best_suit, best_top = 0, suit, position[lead]
    trump = tricks.TRUMP
    for i, play in enumerate(trick):
        card = play.cards[0]
        suited = held[play.player][suits[card]]
        left = suited[card] - 1
        if left:
            suited[card] = left
        else:
            del suited[card]
        if i:
            mine = suits[card]
            if mine == best_suit:
                if position[card] > best_top:
                    best, best_top = i, position[card]
            elif mine == trump and suit != trump:
                best, best_suit, best_top = i, trump, position[card]
    return best


def _winner(trick: list[ShengjiPlay], lead: tricks.Shape, trumps: tricks.Trumps) -> int:
    """`tricks.trick_winner` of a lead that is not a throw: the first highest of its shape."""
    best, best_suit = 0, lead.suit
    best_top = tricks.unit_top(trick[0].cards, lead, trumps)
    trump, units, kind = tricks.TRUMP, lead.units, lead.kind
    for i in range(1, 4):
        cards = trick[i].cards
        mine = tricks.shape(cards, trumps)
        if mine is None or mine.units != units or mine.kind != kind:
            continue
        if mine.suit == best_suit:
            top = tricks.unit_top(cards, mine, trumps)
            if top > best_top and (best_suit == lead.suit or best_suit == trump):
                best, best_top = i, top
        elif mine.suit == trump and lead.suit != trump:
            best, best_suit, best_top = i, trump, tricks.unit_top(cards, mine, trumps)
    return best
