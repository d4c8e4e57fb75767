"""快拆: `win.decompositions` as a list, with the branches that cannot hold skipped up front.

The same loops over the pair's suit and the 財神 each suit takes, over the same
per-suit decompositions and 財神-only melds, so the same decompositions (a
suit's may come in another order: 筒 and 条 are 万's shifted); what it saves is
the set-up (a suit's needs read once, a pair's suit whose needs alone exceed
the 財神 held never expanded, no generator between it and the scorer) and,
in a fresh process, most of the per-suit searches.
`tests/unit/games/test_yuhuan_fast.py` holds it equal to `decompositions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from compliance.games.yuhuan.win import (
    Meld,
    _free_groups,
    suit_decompositions,
    suit_need,
)

_shifted: dict[tuple[int, tuple[int, ...], int, bool], tuple[tuple[Meld, ...], ...]] = {}
MAX_SHIFTED = 200_000


def suit_parts(
    suit: int, key: tuple[int, ...], wild: int, pair: bool
) -> tuple[tuple[Meld, ...], ...]:
    """`suit_decompositions`, with 筒 and 条 read off 万's: the three suits decompose alike, so
    a rank pattern met in one suit costs a shift of the tiles, not a new search, in another."""
    at = (suit, key, wild, pair)
    found = _shifted.get(at)
    if found is None:
        if suit in (1, 2):
            off = 9 * suit
            found = tuple(
                tuple((kind, tile + off, mask, shown) for kind, tile, mask, shown in melds)
                for melds in suit_decompositions(0, key, wild, pair)
            )
        else:
            found = suit_decompositions(suit, key, wild, pair)
        if len(_shifted) >= MAX_SHIFTED:
            _shifted.clear()
        _shifted[at] = found
    return found


NO_TILES = (0, 0, 0, 0, 0, 0, 0, 0, 0)
NO_HONOURS = NO_TILES[:7]
NOTHING: tuple[tuple[Meld, ...], ...] = ((),)


def fast_decompositions(
    counts: Sequence[int], wildcards: int, seat: int, flower: int
) -> list[tuple[Meld, ...]]:
    """Every split of the concealed tiles into melds and one pair, 財神 placed (as `decompositions`)."""
    keys: list[tuple[int, tuple[int, ...]]] = []
    for suit, off in ((0, 0), (1, 9), (2, 18)):
        key = tuple(counts[off : off + 9])
        if key != NO_TILES:
            keys.append((suit, key))
    key = tuple(counts[27:34])
    if key != NO_HONOURS:
        keys.append((3, key))
    plain = [suit_need(key, suit < 3, False) for suit, key in keys]
    need_all = sum(plain)
    spare = wildcards - need_all
    suits = [suit for suit, _ in keys]
    found: list[tuple[Meld, ...]] = []
    for pair_at in [*range(len(keys)), -1]:
        if pair_at >= 0:
            suit, key = keys[pair_at]
            with_pair = suit_need(key, suit < 3, True)
            if with_pair - plain[pair_at] > spare:
                continue
            needs = list(plain)
            needs[pair_at] = with_pair
        elif spare < 2:
            continue
        else:
            needs = plain
        if sum(needs) + (2 if pair_at < 0 else 0) > wildcards:
            continue  # every split would leave a negative number of 財神
        splits: Iterable[tuple[int, ...]] = (
            product(*[range(need, wildcards + 1, 3) for need in needs])
            if wildcards
            else (tuple(needs),)
        )
        for split in splits:
            left = wildcards - sum(split) - (2 if pair_at < 0 else 0)
            if left < 0 or left % 3:
                continue
            parts = [
                suit_parts(suit, key, k, i == pair_at)
                for i, ((suit, key), k) in enumerate(zip(keys, split, strict=True))
            ]
            extras: Sequence[tuple[Meld, ...]] = NOTHING
            if pair_at < 0 or left:
                extras = _free_groups(suits, seat, flower, pair_at < 0, left // 3)
            if len(parts) == 1:
                combos: Sequence[tuple[tuple[Meld, ...], ...]] = [(p,) for p in parts[0]]
            else:
                combos = list(product(*parts))
            for combo in combos:
                melds: tuple[Meld, ...] = ()
                for part in combo:
                    melds += part
                if extras is NOTHING:
                    found.append(melds)
                else:
                    found.extend(melds + extra for extra in extras)
    return found
