"""掼蛋牌型: combinations, the 逢人配 wildcard, comparison and bomb order.

Ranks run 2 < … < K < A < the level rank (参谋) < 小王 < 大王 (seed 003 掼蛋
三、记级). The heart card of the level is wild for any rank and suit except
the jokers ("红心X可作为万能牌配用…不可配大小王"). Straights, 三连对 and 钢板
use the natural ranks, A high or low. Bomb order (issue 6, games-notes):
四大天王 > bombs of six or more > 同花顺 > five-card bomb > four-card bomb.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from compliance.games.cards import JOKERS, rank_of, suit_of

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NATURAL = {rank: i for i, rank in enumerate(LEVELS, 2)}  # 2 … A = 14
SEQUENCE_NAME = {1: "A", **{v: r for r, v in NATURAL.items()}}

SINGLE, PAIR, TRIPLE, FULL_HOUSE = "single", "pair", "triple", "full_house"
STRAIGHT, TUBE, PLATE = "straight", "tube", "plate"
BOMB, STRAIGHT_FLUSH, JOKER_BOMB = "bomb", "straight_flush", "joker_bomb"
BOMBS = frozenset({BOMB, STRAIGHT_FLUSH, JOKER_BOMB})
NAMES_ZH = {
    SINGLE: "单张",
    PAIR: "对子",
    TRIPLE: "三张",
    FULL_HOUSE: "三带二",
    STRAIGHT: "顺子",
    TUBE: "三连对",
    PLATE: "钢板",
    BOMB: "炸弹",
    STRAIGHT_FLUSH: "同花顺",
    JOKER_BOMB: "四大天王",
}
# (kind, pairs of (rank count, run length)) for the runs that use natural ranks
RUNS = ((STRAIGHT, 1, 5), (TUBE, 2, 3), (PLATE, 3, 2))


def wildcard(level: str) -> str:
    """逢人配: the heart card of the level rank."""
    return "H" + level


def value(rank: str, level: str) -> int:
    """Single-card order: 2 … A (14), the level rank 15, 小王 16, 大王 17."""
    if rank == "BJ":
        return 16
    if rank == "RJ":
        return 17
    if rank == level:
        return 15
    return NATURAL[rank]


def rank_name(key: int, level: str) -> str:
    if key == 15:
        return level
    return {16: "BJ", 17: "RJ"}.get(key) or SEQUENCE_NAME[key]


@dataclass(frozen=True, slots=True)
class Combo:
    """牌型: a kind, its comparison key (rank value, or the top of a run) and size."""

    kind: str
    key: int
    size: int
    rank: str

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMBS

    @property
    def power(self) -> tuple[int, int]:
        """炸弹大小: (tier, key); tiers place 同花顺 between the 5- and 6-card bombs."""
        if self.kind == JOKER_BOMB:
            return (100, 0)
        if self.kind == STRAIGHT_FLUSH:
            return (11, self.key)
        return (2 * self.size, self.key)

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.rank}"


def beats(play: Combo, table: Combo) -> bool:
    """压牌: a bomb beats any non-bomb and a weaker bomb; else same kind and size, higher key."""
    if play.is_bomb:
        return not table.is_bomb or play.power > table.power
    return (
        not table.is_bomb
        and play.kind == table.kind
        and play.size == table.size
        and play.key > table.key
    )


def _run_sets(length: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(top, ranks from the lowest up) of every run of `length` natural ranks, A low or high."""
    return tuple(
        (start + length - 1, tuple(SEQUENCE_NAME[p] for p in range(start, start + length)))
        for start in range(1, 16 - length)
    )


RUN_SETS = {length: _run_sets(length) for _, _, length in RUNS}


def interpretations(cards: Sequence[str], level: str) -> list[Combo]:
    """Every combination the cards can be played as, with the wildcards placed any way."""
    return list(_interpretations(tuple(sorted(cards)), level))


@lru_cache(maxsize=1 << 16)
def _interpretations(cards: tuple[str, ...], level: str) -> tuple[Combo, ...]:
    return tuple(_read(cards, level))


def _read(cards: Sequence[str], level: str) -> list[Combo]:
    n = len(cards)
    wild = wildcard(level)
    jokers = Counter(c for c in cards if c in JOKERS)
    natural_cards = [c for c in cards if c != wild and c not in JOKERS]
    naturals = Counter(rank_of(c) for c in natural_cards)
    found: list[Combo] = []
    if jokers:
        if jokers == Counter({"BJ": 2, "RJ": 2}) and n == 4:
            found.append(Combo(JOKER_BOMB, 17, 4, "RJ"))
        elif len(jokers) == 1 and n <= 2 and n == sum(jokers.values()):
            joker = next(iter(jokers))
            found.append(Combo((SINGLE, PAIR)[n - 1], value(joker, level), n, joker))
        if n == 5 and len(jokers) == 1 and sum(jokers.values()) == 2:
            found.extend(_full_houses(naturals, level, pair_is_joker=next(iter(jokers))))
        return found
    if len(naturals) <= 1:
        rank = next(iter(naturals)) if naturals else level
        kind = {1: SINGLE, 2: PAIR, 3: TRIPLE}.get(n, BOMB if 4 <= n <= 10 else None)
        if kind:
            found.append(Combo(kind, value(rank, level), n, rank))
    if n == 5:
        found.extend(_full_houses(naturals, level))
    suits = {suit_of(c) for c in natural_cards}
    most = max(naturals.values(), default=0)
    for kind, count, length in RUNS:
        if n != count * length or most > count or len(naturals) > length:
            continue
        for top, ranks in RUN_SETS[length]:
            if all(rank in ranks for rank in naturals):
                found.append(Combo(kind, top, n, SEQUENCE_NAME[top]))
                if kind == STRAIGHT and len(suits) == 1:
                    found.append(Combo(STRAIGHT_FLUSH, top, n, SEQUENCE_NAME[top]))
    return found


def _full_houses(naturals: Counter, level: str, pair_is_joker: str | None = None) -> list[Combo]:
    """三带二: a triple of a natural rank with any pair (a pair of one joker included).

    Five cards: the naturals and wildcards fill the pattern exactly when the triple's
    rank holds at most three and at most one other rank holds at most two.
    """
    found = []
    for triple in LEVELS:
        others = {r: c for r, c in naturals.items() if r != triple}
        if naturals.get(triple, 0) > 3 or (pair_is_joker and others):
            continue
        if len(others) > 1 or any(c > 2 for c in others.values()):
            continue
        found.append(Combo(FULL_HOUSE, value(triple, level), 5, triple))
    return found


def strongest(combos: Iterable[Combo]) -> Combo | None:
    """The interpretation a player is taken to mean when he does not say (the strongest)."""
    return max(
        combos, key=lambda c: (c.is_bomb, c.power if c.is_bomb else (0, c.key)), default=None
    )


def choose(
    cards: Sequence[str], level: str, table: Combo | None, declared: str | None
) -> tuple[Combo | None, str]:
    """The combination a play counts as against the table, or None and why not.

    A declared `kind:rank` must be one of the cards' interpretations (seed: "或45678须出牌时
    说明"); without a declaration the strongest legal interpretation is taken.
    """
    options = interpretations(cards, level)
    if not options:
        return None, f"{' '.join(cards)} is not a 掼蛋 combination"
    if declared is not None:
        options = [c for c in options if c.label == declared]
        if not options:
            return None, f"{' '.join(cards)} cannot be played as {declared}"
    legal = [c for c in options if table is None or beats(c, table)]
    if not legal:
        return None, f"{' '.join(cards)} does not beat {table.label if table else ''}"
    return strongest(legal), ""


@dataclass(frozen=True, slots=True)
class Reading:
    """One interpretation with what comparing it needs, computed once per shape of play."""

    combo: Combo
    label: str
    is_bomb: bool
    power: tuple[int, int]
    kind: str
    size: int
    key: int


@lru_cache(maxsize=1 << 16)
def reading(
    cards: tuple[str, ...], level: str
) -> tuple[tuple[tuple[str, int], ...], tuple[Reading, ...]]:
    """The cards a play needs (card, count) and its interpretations, strongest first."""
    return tuple(Counter(cards).items()), ranked(cards, level)


def ranked(cards: tuple[str, ...], level: str) -> tuple[Reading, ...]:
    """The cards' readings, strongest first (cached by shape)."""
    return _ranked(_shape(cards, level), level)


def _shape(cards: tuple[str, ...], level: str) -> tuple[str, ...]:
    """The cards as `_read` sees them: natural suits only tell one suit from several.

    Naturals all of one suit become spades, else one club and the rest spades; the
    heart of the level (the wildcard) and the jokers stay as they are.
    """
    wild = wildcard(level)
    naturals = [c for c in cards if c != wild and c not in JOKERS]
    rest = [c for c in cards if c == wild or c in JOKERS]
    marks = ["S" + rank_of(c) for c in naturals]
    if len({c[0] for c in naturals}) > 1:
        marks[0] = "C" + marks[0][1:]
    return tuple(sorted(marks + rest))


@lru_cache(maxsize=1 << 14)
def _ranked(shape: tuple[str, ...], level: str) -> tuple[Reading, ...]:
    """Readings strongest first; the sort is stable, so the first legal one is `choose`'s."""
    ranked = sorted(
        _read(shape, level),
        key=lambda c: (c.is_bomb, c.power if c.is_bomb else (0, c.key)),
        reverse=True,
    )
    return tuple(Reading(c, c.label, c.is_bomb, c.power, c.kind, c.size, c.key) for c in ranked)


def pick(
    readings: tuple[Reading, ...], table: Reading | None, declared: str | None
) -> Reading | None:
    """`choose` over precomputed readings: the strongest declared reading that beats the table."""
    for r in readings:
        if declared is not None and r.label != declared:
            continue
        if table is None:
            return r
        if r.is_bomb:
            if not table.is_bomb or r.power > table.power:
                return r
        elif (
            not table.is_bomb
            and r.kind == table.kind
            and r.size == table.size
            and r.key > table.key
        ):
            return r
    return None


def highest_value(cards: Iterable[str], level: str, skip_wild: bool = True) -> int:
    """The value of the highest card held, not counting the 逢人配 card (进贡 rule)."""
    wild = wildcard(level)
    return max(
        (value(rank_of(c), level) for c in cards if not (skip_wild and c == wild)), default=0
    )
