"""斗牛牌型: hand ranks, the reference evaluator, and the lookup table built from it.

The reference evaluator reads seed 004's rules literally and is the
specification. The lookup table, keyed by the multiset of the five ranks
(13 ranks × 3 bits, 6,175 multisets), is built at import time by the same
rules on sorted ranks (the tests hold it equal to the reference's) and is what
replay uses on the hot path.

A hand's *score* is one integer that orders hands as the rules do:
`level << 11`, plus for 四炸 `rank of the four << 7`, plus 40 + the highest
card's index (`(rank − 1) × 4 + suit`, 黑桃 3 > 红桃 2 > 梅花 1 > 方片 0).
Within one deck no two hands share a highest card, so scores never tie.

Each card is one integer, `CARD_BITS`: its rank's 3-bit counter in bits
0–38 and a bit of its own at 39 + index. The sum of five cards gives the
rank multiset (low bits, the table key) and, by its bit length, the highest
card; over a deal, the own-bits' sum has one bit per card unless a card
repeats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from compliance.errors import DealError
from compliance.games.cards import ALL_CARDS, JOKERS, STANDARD_52, rank_number

NO_BULL, BULL_NINE, BULL_BULL, FOUR_BOMB, FIVE_FACE, FIVE_SMALL = 0, 9, 10, 11, 12, 13
FIVE_SMALL_TOTAL = 10

RANK_CODES: tuple[str, ...] = (
    "no_bull",
    *(f"bull_{n}" for n in range(1, 10)),
    "bull_bull",
    "four_bomb",
    "five_face",
    "five_small",
)
NAMES_ZH: tuple[str, ...] = (
    "没牛", "牛丁", "牛二", "牛三", "牛四", "牛五", "牛六", "牛七", "牛八", "牛九",
    "牛牛", "四炸", "五花牛", "五小牛",
)  # fmt: skip
LEVEL_OF_CODE = {code: level for level, code in enumerate(RANK_CODES)}

SUIT_KEY = {"S": 3, "H": 2, "C": 1, "D": 0}  # 黑桃 > 红桃 > 梅花 > 方片 (seed 004 rule 9)
LEVEL_SHIFT = 11
FOUR_SHIFT = 7
OWN_BITS_AT = 39
RANK_MASK = (1 << OWN_BITS_AT) - 1


def card_value(card: str) -> int:
    """点数: A=1 … 9 at face value, 10/J/Q/K count 10 (seed 004 rule 7)."""
    return min(rank_number(card), 10)


def card_index(card: str) -> int:
    """比大小: K > Q > J > 10 > … > A, then 黑桃 > 红桃 > 梅花 > 方片; 0 (方片A) … 51 (黑桃K)."""
    return (rank_number(card) - 1) * 4 + SUIT_KEY[card[0]]


def is_five_small(ranks: Sequence[int], card_max: int) -> bool:
    """五小牛 (house rule): five cards each at most `card_max` (A = 1) summing to at most 10."""
    return bool(card_max) and max(ranks) <= card_max and sum(ranks) <= FIVE_SMALL_TOTAL


def reference_level(cards: Sequence[str], five_small_max: int = 0) -> int:
    """牌型 (reference): seed 004 rules 7, 8, 10–12 read literally, on five cards.

    With `five_small_max` (4 or 5; 0: the seed, no 五小牛) 五小牛 ranks above all,
    also over a 四炸 such as A A A A 2.
    """
    if len(cards) != 5:
        raise DealError(f"a 斗牛 hand has 5 cards, not {len(cards)}")
    return level_of_ranks([rank_number(c) for c in cards], five_small_max)


def level_of_ranks(ranks: Sequence[int], five_small_max: int = 0) -> int:
    """牌型 (reference) of five ranks (A = 1 … K = 13): the rules of `reference_level`."""
    if is_five_small(ranks, five_small_max):
        return FIVE_SMALL
    if all(r >= 11 for r in ranks):
        return FIVE_FACE  # rule 11; rule 12: both 四炸 and 五花牛 counts as the larger
    if max(Counter(ranks).values()) == 4:
        return FOUR_BOMB  # rule 10: no bull needed
    values = [min(r, 10) for r in ranks]
    total = sum(values)
    for triple in combinations(values, 3):
        if sum(triple) % 10 == 0:
            return (total - sum(triple)) % 10 or BULL_BULL  # rule 8: 10 or 20 is 牛牛
    return NO_BULL


def _four_rank(ranks: Sequence[int]) -> int:
    rank, count = Counter(ranks).most_common(1)[0]
    return rank if count == 4 else 0


def reference_score(cards: Sequence[str], five_small_max: int = 0) -> int:
    """Hand strength (reference): level, then the four's rank for 四炸, then the highest card."""
    level = reference_level(cards, five_small_max)
    four = _four_rank([rank_number(c) for c in cards]) if level == FOUR_BOMB else 0
    high = max(card_index(c) for c in cards)
    return (level << LEVEL_SHIFT) + (four << FOUR_SHIFT) + OWN_BITS_AT + 1 + high


RANK_BITS: tuple[int, ...] = (0, *(1 << 3 * (r - 1) for r in range(1, 14)))  # by rank, A = 1
PACKED: dict[str, int] = {c: RANK_BITS[rank_number(c)] for c in STANDARD_52}
CARD_BITS: dict[str, int] = {c: 1 << (OWN_BITS_AT + card_index(c)) | PACKED[c] for c in STANDARD_52}
VALUE: dict[str, int] = {c: card_value(c) for c in STANDARD_52}


def _build_table() -> dict[int, int]:
    """Every rank multiset a 52-card deck allows, scored by `level_of_ranks`'s rules on its
    sorted ranks (the tests hold it equal to the reference's table, multiset by multiset):
    五花牛 where the lowest is a face, 四炸 where the four are the first or the last four (its
    rank the second), else the bull, by the pair whose sum leaves the other three a multiple
    of ten (seed 000's calcCow). An eighth of the reference's time: every process pays it."""
    table: dict[int, int] = {}
    bits = RANK_BITS
    for ranks in combinations_with_replacement(range(1, 14), 5):
        a, b, c, d, e = ranks
        if a == e:
            continue  # five of a rank: not in one deck
        key = bits[a] + bits[b] + bits[c] + bits[d] + bits[e]
        if a >= 11:
            table[key] = FIVE_FACE << LEVEL_SHIFT
        elif a == d or b == e:
            table[key] = (FOUR_BOMB << LEVEL_SHIFT) + (b << FOUR_SHIFT)
        else:
            table[key] = _bull(ranks) << LEVEL_SHIFT
    return table


def _bull(ranks: Sequence[int]) -> int:
    values = [r if r < 10 else 10 for r in ranks]
    lave = sum(values) % 10
    for i, j in PAIRS:
        if (values[i] + values[j]) % 10 == lave:
            return lave or BULL_BULL
    return NO_BULL


PAIRS = tuple(combinations(range(5), 2))


def reference_table() -> dict[int, int]:
    """The table as the reference evaluator scores it (`level_of_ranks`): the tests' measure."""
    table: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        level = level_of_ranks(ranks)
        four = _four_rank(ranks) if level == FOUR_BOMB else 0
        table[sum(RANK_BITS[r] for r in ranks)] = (level << LEVEL_SHIFT) + (four << FOUR_SHIFT)
    return table


SCORE_BASE: dict[int, int] = _build_table()


def _ranks_of(key: int) -> list[int]:
    return [r for r in range(1, 14) for _ in range((key >> 3 * (r - 1)) & 7)]


@lru_cache(maxsize=4)
def score_table(five_small_max: int = 0) -> dict[int, int]:
    """The lookup table with 五小牛 for cards up to `five_small_max` (0: the seed's table)."""
    if not five_small_max:
        return SCORE_BASE
    small = FIVE_SMALL << LEVEL_SHIFT
    return {
        key: small if is_five_small(_ranks_of(key), five_small_max) else base
        for key, base in SCORE_BASE.items()
    }


def score(cards: Sequence[str], five_small_max: int = 0) -> int:
    """Hand strength from the lookup table; KeyError for a joker, ValueError for a wrong count."""
    a, b, c, d, e = cards
    bits = CARD_BITS
    total = bits[a] + bits[b] + bits[c] + bits[d] + bits[e]
    return score_table(five_small_max)[total & RANK_MASK] + total.bit_length()


def level_of(hand_score: int) -> int:
    return hand_score >> LEVEL_SHIFT


def check_hand(cards: Sequence[str]) -> list[str]:
    """The cards as a valid 斗牛 hand, or DealError saying what is wrong with them."""
    cards = [str(c).strip().upper() for c in cards]
    if len(cards) != 5:
        raise DealError(f"a 斗牛 hand has 5 cards, not {len(cards)}")
    for card in cards:
        if card in JOKERS:
            raise DealError(f"joker {card} is not in the 斗牛 deck")
        if card not in ALL_CARDS:
            raise DealError(f"unknown card {card!r} (suit S H C D + rank A 2 … 10 J Q K)")
    dup = sorted({c for c in cards if cards.count(c) > 1})
    if dup:
        raise DealError(f"duplicate card {', '.join(dup)}")
    return cards
