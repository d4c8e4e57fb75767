"""胡牌: win detection and every decomposition of a hand with 財神 wildcards.

A suit is decided by its rank counts alone, so both the fewest wildcards a
suit needs and the list of its decompositions are memoised per suit on the
count tuple; a hand is then a distribution of wildcards over its suits.
Wildcards that stand with real tiles belong to that suit's decomposition;
wildcards left over form melds of their own (three) or the pair (two), which
are tried as the tiles that could score best.

A meld is a tuple `(kind, tile, wild, exposed)`: `kind` one of CHOW, PUNG,
KONG (明杠 or 补杠), CONCEALED_KONG, PAIR; `tile` the lowest tile index;
`wild` a bit mask of the positions a 財神 fills; `exposed` whether it was
claimed from another player.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product

from compliance.games.yuhuan.tiles import EAST, GREEN, HONOURS, RED, WINDS

CHOW, PUNG, KONG, CONCEALED_KONG, PAIR = range(5)
MELD_SIZE = (3, 3, 4, 4, 2)
IMPOSSIBLE = 99
SUIT_OFFSETS = (0, 9, 18, 27)

Meld = tuple[int, int, int, bool]


def _take(key: tuple[int, ...], rank: int, n: int) -> tuple[int, ...]:
    return key[:rank] + (key[rank] - n,) + key[rank + 1 :]


@cache
def suit_need(key: tuple[int, ...], chows: bool, pair: bool) -> int:
    """Fewest 財神 that make one suit's tiles into melds (and the pair).

    Every meld holds at least one real tile; a real tile never does worse
    than a 財神 in its place, so each meld takes all the real tiles it can.
    """
    rank = next((r for r, c in enumerate(key) if c), -1)
    if rank < 0:
        return IMPOSSIBLE if pair else 0
    count = key[rank]
    real = min(count, 3)
    best = 3 - real + suit_need(_take(key, rank, real), chows, pair)
    if pair:
        real = min(count, 2)
        best = min(best, 2 - real + suit_need(_take(key, rank, real), chows, False))
    if chows:
        for start in range(max(0, rank - 2), min(rank, 6) + 1):
            rest, wild = key, 0
            for r in range(start, start + 3):
                if r >= rank and rest[r]:
                    rest = _take(rest, r, 1)
                else:
                    wild += 1
            best = min(best, wild + suit_need(rest, chows, pair))
    return min(best, IMPOSSIBLE)


def suit_keys(counts: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """(suit, rank counts) of each suit that holds a real tile."""
    keys = []
    for suit, off in enumerate(SUIT_OFFSETS):
        key = tuple(counts[off : off + (7 if suit == 3 else 9)])
        if any(key):
            keys.append((suit, key))
    return keys


def is_winning(counts: Sequence[int], wildcards: int) -> bool:
    """Whether the concealed tiles and wildcards make melds and one pair.

    The tile count (3n + 2 with the wildcards) is the caller's to check.
    """
    keys = suit_keys(counts)
    plain = [suit_need(key, suit < 3, False) for suit, key in keys]
    total = sum(plain)
    if total + 2 <= wildcards:
        return True
    for i, (suit, key) in enumerate(keys):
        if total - plain[i] + suit_need(key, suit < 3, True) <= wildcards:
            return True
    return False


@lru_cache(maxsize=200_000)
def suit_decompositions(
    suit: int, key: tuple[int, ...], wild: int, pair: bool
) -> tuple[tuple[Meld, ...], ...]:
    """Every way to make one suit into melds using exactly `wild` 財神."""
    rank = next((r for r, c in enumerate(key) if c), -1)
    if rank < 0:
        return ((),) if wild == 0 and not pair else ()
    off = SUIT_OFFSETS[suit]
    found: set[tuple[Meld, ...]] = set()

    def extend(meld: Meld, rest: tuple[int, ...], used: int, still_pair: bool) -> None:
        if used > wild:
            return
        for tail in suit_decompositions(suit, rest, wild - used, still_pair):
            found.add(tuple(sorted((meld, *tail))))

    count = key[rank]
    for real in range(1, min(count, 3) + 1):
        extend(
            (PUNG, off + rank, (1 << (3 - real)) - 1, False), _take(key, rank, real), 3 - real, pair
        )
    if pair:
        for real in range(1, min(count, 2) + 1):
            extend(
                (PAIR, off + rank, (1 << (2 - real)) - 1, False),
                _take(key, rank, real),
                2 - real,
                False,
            )
    if suit < 3:
        for start in range(max(0, rank - 2), min(rank, 6) + 1):
            _chows(key, rank, start, off, extend, pair)
    return tuple(found)


def _chows(key, rank, start, off, extend, pair) -> None:
    """Chows through the lowest real tile: real or 財神 in each higher place."""
    options: list[tuple[int, ...]] = []
    for pos, r in enumerate(range(start, start + 3)):
        if r < rank:
            options.append((1 << pos,))
        elif r == rank:
            options.append((0,))
        else:
            options.append((0, 1 << pos) if key[r] else (1 << pos,))
    for bits in product(*options):
        mask = bits[0] | bits[1] | bits[2]
        rest = key
        for pos in range(3):
            if not mask & (1 << pos):
                rest = _take(rest, start + pos, 1)
        extend((CHOW, off + start, mask, False), rest, bin(mask).count("1"), pair)


def free_melds(suits: Sequence[int], flower: int) -> list[Meld]:
    """Melds made of three 財神 alone: the kinds that can score best.

    A 中 or 发 pung and the winds (seat wind, 四风) for the honour items, a
    terminal pung and a 1-2-3 chow of each suit held (清一色, 平胡, any wait).
    """
    honours = [t for t in (GREEN, RED) if t != flower] + list(WINDS)
    melds: list[Meld] = [(PUNG, t, 7, False) for t in dict.fromkeys(honours)]
    for suit in [s for s in suits if s < 3] or [0]:
        off = SUIT_OFFSETS[suit]
        melds += [(PUNG, off, 7, False), (CHOW, off, 7, False)]
    return melds


def free_pairs(suits: Sequence[int], seat: int) -> list[Meld]:
    """Pairs of two 財神: the seat wind (2 胡) or a pair of a suit held (清一色)."""
    pairs: list[Meld] = [(PAIR, seat if seat >= HONOURS else EAST, 3, False)]
    for suit in [s for s in suits if s < 3] or [0]:
        pairs.append((PAIR, SUIT_OFFSETS[suit] + 4, 3, False))
    return pairs


def decompositions(
    counts: Sequence[int], wildcards: int, seat: int, flower: int
) -> Iterator[tuple[Meld, ...]]:
    """Every split of the concealed tiles into melds and one pair, 財神 placed."""
    keys = suit_keys(counts)
    plain = [suit_need(key, suit < 3, False) for suit, key in keys]
    spare = wildcards - sum(plain)
    suits = [suit for suit, _ in keys]
    for pair_at in [*range(len(keys)), -1]:
        needs = list(plain)
        if pair_at >= 0:
            suit, key = keys[pair_at]
            needs[pair_at] = suit_need(key, suit < 3, True)
            if needs[pair_at] - plain[pair_at] > spare:
                continue
        elif spare < 2:
            continue
        choices = [range(need, wildcards + 1, 3) for need in needs]
        for split in product(*choices):
            left = wildcards - sum(split) - (2 if pair_at < 0 else 0)
            if left < 0 or left % 3:
                continue
            parts = [
                suit_decompositions(suit, key, k, i == pair_at)
                for i, ((suit, key), k) in enumerate(zip(keys, split, strict=True))
            ]
            extras: list[tuple[Meld, ...]] = [()]
            if pair_at < 0 or left:
                extras = _free_groups(suits, seat, flower, pair_at < 0, left // 3)
            for combo in product(*parts):
                melds = tuple(m for part in combo for m in part)
                for extra in extras:
                    yield melds + extra


def _free_groups(suits, seat, flower, with_pair: bool, n_melds: int) -> list[tuple[Meld, ...]]:
    groups = list(combinations_with_replacement(free_melds(suits, flower), n_melds))
    if with_pair:
        groups = [(p, *g) for p in free_pairs(suits, seat) for g in groups]
    return groups
