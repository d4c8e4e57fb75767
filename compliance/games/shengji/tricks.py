"""升级出牌: trumps, units (single, pair, tractor), following suit and the winner of a trick.

Trumps (主牌) are the jokers, every card of the level rank and the trump suit
(seed 003 升级: "主牌包括常主、当局级数和当局主花色"). Within trumps: 大王 >
小王 > the level card of the trump suit > the level cards of the other suits
(equal) > the trump suit A … 2. Each card gets a position in its effective
suit such that a tractor (拖拉机) is a run of pairs on consecutive positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from compliance.games.cards import ALL_CARDS, JOKERS, rank_of, suit_of

NATURAL_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TRUMP = "T"
POINTS = {"5": 5, "10": 10, "K": 10}
CARD_POINTS: dict[str, int] = {c: POINTS.get(rank_of(c), 0) for c in ALL_CARDS if c not in JOKERS}
SHAPE_CACHE_SIZE = 4_096  # distinct plays remembered per trump and level (65 of them)


def points(cards: Iterable[str]) -> int:
    """分牌: 5 counts 5, 10 and K count 10 (seed 003: "5代表5分，10和K代表10分")."""
    return sum(CARD_POINTS.get(c, 0) for c in cards)


class Trumps:
    """主: the level rank and the trump suit (None: 无主) decide each card's suit and position."""

    def __init__(self, level: str, suit: str | None):
        self.level = level
        self.suit_letter = suit
        plain = [r for r in NATURAL_ORDER if r != level]
        top = len(plain)
        jokers = {"RJ": top + 3, "BJ": top + 2} if suit else {"RJ": top + 2, "BJ": top + 1}
        self._suit: dict[str, str] = {}
        self._position: dict[str, int] = {}
        self.shapes: dict[tuple[str, ...], Shape | None] = {}  # shape() of each play seen
        self.tops: dict[tuple[str, ...], int] = {}  # unit_top() of each play seen
        for card in ALL_CARDS:
            if card in JOKERS:
                self._suit[card], self._position[card] = TRUMP, jokers[card]
            elif rank_of(card) == level:
                self._suit[card] = TRUMP
                self._position[card] = top + (1 if suit_of(card) == suit else 0)
            else:
                self._suit[card] = TRUMP if suit_of(card) == suit else card[0]
                self._position[card] = plain.index(rank_of(card))

    def suit(self, card: str) -> str:
        """The effective suit: T for a trump, else the card's own suit letter."""
        return self._suit[card]

    def position(self, card: str) -> int:
        """The order within the effective suit; a tractor is pairs on consecutive positions."""
        return self._position[card]

    def of_suit(self, cards: Iterable[str], suit: str) -> list[str]:
        return [c for c in cards if self._suit[c] == suit]


@cache
def trumps_for(level: str, suit: str | None) -> Trumps:
    """The Trumps of a level and trump suit, built once (65 in all) with their caches."""
    return Trumps(level, suit)


@dataclass(frozen=True, slots=True)
class Shape:
    """牌型: a lead's kind (single, pair, tractor, throw), its suit, top position and units."""

    kind: str
    suit: str
    top: int
    units: tuple[int, ...]  # sizes in cards of each unit, largest first

    @property
    def pairs(self) -> int:
        return sum(u // 2 for u in self.units if u >= 2)


def pair_positions(cards: Sequence[str], trumps: Trumps) -> list[int]:
    """The positions of the identical pairs among the cards, high to low."""
    counts = Counter(cards)
    return sorted((trumps.position(c) for c, n in counts.items() if n >= 2), reverse=True)


def longest_tractor(positions: Sequence[int]) -> tuple[int, int]:
    """(length in pairs, top position) of the longest run of consecutive distinct pair positions."""
    best = (0, -1)
    distinct = sorted(set(positions))
    run = 0
    for i, pos in enumerate(distinct):
        run = run + 1 if i and pos == distinct[i - 1] + 1 else 1
        if run > best[0] or (run == best[0] and pos > best[1]):
            best = (run, pos)
    return best


def units(cards: Sequence[str], trumps: Trumps) -> tuple[int, ...]:
    """Decompose into tractors, pairs and singles, the longest tractors first."""
    positions = pair_positions(cards, trumps)
    sizes: list[int] = []
    remaining = list(positions)
    while True:
        length, top = longest_tractor(remaining)
        if length < 2:
            break
        sizes.append(2 * length)
        for pos in range(top - length + 1, top + 1):
            remaining.remove(pos)
    sizes += [2] * len(remaining)
    sizes += [1] * (len(cards) - sum(sizes))
    return tuple(sorted(sizes, reverse=True))


def shape(cards: Sequence[str], trumps: Trumps) -> Shape | None:
    """What a lead is; None if its cards are not all of one effective suit."""
    key = tuple(cards)
    try:
        return trumps.shapes[key]
    except KeyError:
        pass
    if len(trumps.shapes) >= SHAPE_CACHE_SIZE:
        trumps.shapes.clear()
    found = trumps.shapes[key] = _shape(key, trumps)
    return found


def _shape(cards: tuple[str, ...], trumps: Trumps) -> Shape | None:
    suits = {trumps._suit[c] for c in cards}
    if len(suits) != 1 or not cards:
        return None
    suit = suits.pop()
    top = max(trumps._position[c] for c in cards)
    if len(cards) == 1:
        return Shape("single", suit, top, (1,))
    found = units(cards, trumps)
    if found == (2,) and len(cards) == 2:
        return Shape("pair", suit, top, found)
    if len(found) == 1 and found[0] == len(cards):
        return Shape("tractor", suit, top, found)
    return Shape("throw", suit, top, found)


def has_tractor(cards: Sequence[str], trumps: Trumps, length: int) -> bool:
    return longest_tractor(pair_positions(cards, trumps))[0] >= length


def follow_problem(
    lead: Shape, hand: Counter, play: Sequence[str], trumps: Trumps, tractor_follow: bool
) -> str | None:
    """跟牌: the right count, the led suit while held, pairs for pairs, a tractor for a tractor."""
    size = sum(lead.units)
    if len(play) != size:
        return f"plays {len(play)} cards to a lead of {size}"
    held = trumps.of_suit(hand.elements(), lead.suit)
    played = trumps.of_suit(play, lead.suit)
    if len(played) < min(size, len(held)):
        return f"plays {len(played)} of the led suit while holding {len(held)} (must follow suit)"
    want = min(lead.pairs, len(pair_positions(held, trumps)), len(played) // 2)
    if len(pair_positions(played, trumps)) < want:
        played_pairs = len(pair_positions(played, trumps))
        return f"plays {played_pairs} pairs to a lead of {lead.pairs} while holding {want}"
    if tractor_follow and lead.kind == "tractor":
        length = lead.units[0] // 2
        if has_tractor(held, trumps, length) and not has_tractor(played, trumps, length):
            return "holds a tractor of the led suit but does not play it"
    return None


def throw_problem(
    lead: Shape, cards: Sequence[str], others: Iterable[Counter], trumps: Trumps
) -> str | None:
    """甩牌: each unit must be unbeatable by any other player's holding in that suit."""
    counts = Counter(cards)
    singles = [trumps.position(c) for c, n in counts.items() if n == 1]
    pairs = pair_positions(cards, trumps)
    for hand in others:
        suit_cards = trumps.of_suit(hand.elements(), lead.suit)
        if singles and any(trumps.position(c) > min(singles) for c in suit_cards):
            return "throws a single another player can beat"
        if pairs and any(p > min(pairs) for p in pair_positions(suit_cards, trumps)):
            return "throws a pair another player can beat"
    return None


def beats(
    play: Sequence[str], best: Sequence[str], lead: Shape, trumps: Trumps, ruff: str = "units"
) -> bool:
    """管上: the same shape in the led suit and higher, or a trump ruff of a side suit."""
    if lead.kind == "throw":
        return _beats_a_throw(play, best, lead, trumps, ruff)
    mine, theirs = shape(play, trumps), shape(best, trumps)
    if mine is None or theirs is None or mine.units != lead.units or mine.kind != lead.kind:
        return False
    if mine.suit == theirs.suit:
        return mine.suit in (lead.suit, TRUMP) and unit_top(play, mine, trumps) > unit_top(
            best, theirs, trumps
        )
    return mine.suit == TRUMP and lead.suit != TRUMP


def unit_top(cards: Sequence[str], found: Shape, trumps: Trumps) -> int:
    """The top of the largest unit."""
    if found.units[0] == 1:
        return found.top
    key = tuple(cards)
    top = trumps.tops.get(key)
    if top is None:
        if len(trumps.tops) >= SHAPE_CACHE_SIZE:
            trumps.tops.clear()
        top = trumps.tops[key] = max(pair_positions(cards, trumps))
    return top


def _beats_a_throw(
    play: Sequence[str], best: Sequence[str], lead: Shape, trumps: Trumps, ruff: str
) -> bool:
    """毙甩牌: only a trump ruff of a side-suit throw beats it, and a later ruff only a lower one."""
    if lead.suit == TRUMP:
        return False
    mine = ruff_top(play, lead, trumps, ruff)
    if mine is None:
        return False
    theirs = ruff_top(best, lead, trumps, ruff)
    return theirs is None or mine > theirs


def ruff_top(cards: Sequence[str], lead: Shape, trumps: Trumps, ruff: str = "units") -> int | None:
    """毙牌: the rank of a trump ruff of a throw, None when the cards do not ruff it.

    `units`: the ruff matches the throw unit by unit, a tractor of n pairs standing
    for n pairs: a tractor as long for each thrown tractor, a pair for each thrown
    pair, the rest singles (a pair never stands for two singles). `shape`: the
    ruff's units are the throw's. A ruff ranks by its highest unit of the throw's
    largest kind: the top of its longest thrown tractor's match, else its highest
    pair, else its highest card.
    """
    mine = shape(cards, trumps)
    if mine is None or mine.suit != TRUMP or len(cards) != sum(lead.units):
        return None
    tractors = sorted((u // 2 for u in lead.units if u >= 4), reverse=True)
    positions = pair_positions(cards, trumps)
    if len(positions) != lead.pairs or (ruff == "shape" and mine.units != lead.units):
        return None
    if not tractors:
        return positions[0] if positions else mine.top
    runs = _runs(positions)
    for i, (length, top) in enumerate(runs):
        rest = [*(r for r, _ in runs[:i]), length - tractors[0], *(r for r, _ in runs[i + 1 :])]
        if length >= tractors[0] and _packs(tractors[1:], rest):
            return top
    return None


def _runs(positions: Sequence[int]) -> list[tuple[int, int]]:
    """(length, top) of each maximal run of consecutive pair positions, the highest first."""
    runs: list[tuple[int, int]] = []
    for pos in sorted(set(positions), reverse=True):
        if runs and runs[-1][1] - runs[-1][0] == pos:
            runs[-1] = (runs[-1][0] + 1, runs[-1][1])
        else:
            runs.append((1, pos))
    return runs


def _packs(tractors: Sequence[int], runs: list[int]) -> bool:
    """Whether tractors of these lengths fit, disjoint, into runs of these lengths."""
    if not tractors:
        return True
    first, rest = tractors[0], tractors[1:]
    return any(
        length >= first and _packs(rest, [*runs[:i], length - first, *runs[i + 1 :]])
        for i, length in enumerate(runs)
    )


def trick_winner(
    plays: Sequence[tuple[str, Sequence[str]]], trumps: Trumps, ruff: str = "units"
) -> int:
    """The index of the play that wins the trick: the first highest wins ties."""
    lead = shape(plays[0][1], trumps)
    assert lead is not None
    best = 0
    for i in range(1, len(plays)):
        if beats(plays[i][1], plays[best][1], lead, trumps, ruff):
            best = i
    return best


def kitty_multiplier(lead: Shape, rule: str) -> int:
    """扣底: 2 × the largest unit of the last trick, or 2 to the power of its size."""
    largest = lead.units[0]
    return 2 * largest if rule == "double_unit" else 2**largest
