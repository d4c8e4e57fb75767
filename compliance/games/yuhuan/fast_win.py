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
    CHOW,
    IMPOSSIBLE,
    PAIR,
    PUNG,
    Meld,
    _free_groups,
)

_shifted: dict[tuple[int, tuple[int, ...], int, bool], tuple[tuple[Meld, ...], ...]] = {}
MAX_SHIFTED = 200_000
HONOUR_TILE = 27


def code_of(key: tuple[int, ...]) -> int:
    """A suit's rank counts as one integer, three bits a rank (a count is at most 4)."""
    code = 0
    for rank, n in enumerate(key):
        code |= n << 3 * rank
    return code


_needs: list[dict[int, int]] = [{}, {}, {}, {}]  # by 2 × chows + pair


def code_need(code: int, chows: bool, pair: bool) -> int:
    """`win.suit_need` of a suit's code: the same search, a count taken by a subtraction."""
    memo = _needs[2 * chows + pair]
    found = memo.get(code)
    if found is not None:
        return found
    if not code:
        found = IMPOSSIBLE if pair else 0
    else:
        rank = ((code & -code).bit_length() - 1) // 3
        shift = 3 * rank
        count = code >> shift & 7
        real = min(count, 3)
        best = 3 - real + code_need(code - (real << shift), chows, pair)
        if pair:
            real = min(count, 2)
            best = min(best, 2 - real + code_need(code - (real << shift), chows, False))
        if chows:
            for start in range(max(0, rank - 2), min(rank, 6) + 1):
                rest, wild = code, 0
                for r in range(start, start + 3):
                    if r >= rank and rest >> 3 * r & 7:
                        rest -= 1 << 3 * r
                    else:
                        wild += 1
                best = min(best, wild + code_need(rest, chows, pair))
        found = min(best, IMPOSSIBLE)
    if len(memo) >= MAX_SHIFTED:
        memo.clear()
    memo[code] = found
    return found


_need_of: dict[tuple[tuple[int, ...], bool, bool], int] = {}


def suit_need(key: tuple[int, ...], chows: bool, pair: bool) -> int:
    """`win.suit_need`, memoised by the count tuple, searched on the code."""
    at = (key, chows, pair)
    found = _need_of.get(at)
    if found is None:
        if len(_need_of) >= MAX_SHIFTED:
            _need_of.clear()
        found = _need_of[at] = code_need(code_of(key), chows, pair)
    return found


_parts: dict[tuple[int, bool, int, bool], tuple[tuple[Meld, ...], ...]] = {}


def code_decompositions(
    code: int, chows: bool, wild: int, pair: bool
) -> tuple[tuple[Meld, ...], ...]:
    """`win.suit_decompositions` of a suit's code (万 for a suit, 东 on for the honours): the
    same melds through the lowest rank, each decomposition sorted, none twice."""
    at = (code, chows, wild, pair)
    done = _parts.get(at)
    if done is not None:
        return done
    if not code:
        return ((),) if wild == 0 and not pair else ()
    rank = ((code & -code).bit_length() - 1) // 3
    shift = 3 * rank
    count = code >> shift & 7
    tile = rank if chows else HONOUR_TILE + rank
    found: set[tuple[Meld, ...]] = set()
    takes = [(PUNG, r, 3 - r, pair) for r in range(1, min(count, 3) + 1)]
    if pair:
        takes += [(PAIR, r, 2 - r, False) for r in range(1, min(count, 2) + 1)]
    for kind, real, used, still_pair in takes:
        if used <= wild:
            meld = (kind, tile, (1 << used) - 1, False)
            for tail in code_decompositions(code - (real << shift), chows, wild - used, still_pair):
                found.add(tuple(sorted((meld, *tail))))
    if chows:
        for start in range(max(0, rank - 2), min(rank, 6) + 1):
            # each place below the lowest rank a 財神, at it a real tile, above it either
            masks = [0]
            for pos in range(3):
                r = start + pos
                if r < rank:
                    masks = [m | 1 << pos for m in masks]
                elif r > rank:
                    if code >> 3 * r & 7:
                        masks += [m | 1 << pos for m in masks]
                    else:
                        masks = [m | 1 << pos for m in masks]
            for mask in masks:
                used = (mask & 1) + (mask >> 1 & 1) + (mask >> 2)
                if used > wild:
                    continue
                rest = code
                for pos in range(3):
                    if not mask >> pos & 1:
                        rest -= 1 << 3 * (start + pos)
                meld = (CHOW, start, mask, False)
                for tail in code_decompositions(rest, chows, wild - used, pair):
                    found.add(tuple(sorted((meld, *tail))))
    done = tuple(found)
    if len(_parts) >= MAX_SHIFTED:
        _parts.clear()
    _parts[at] = done
    return done


def suit_parts(
    suit: int, key: tuple[int, ...], wild: int, pair: bool
) -> tuple[tuple[Meld, ...], ...]:
    """`suit_decompositions`, with 筒 and 条 read off 万's: the three suits decompose alike, so
    a rank pattern met in one suit costs a shift of the tiles, not a new search, in another."""
    at = (suit, key, wild, pair)
    found = _shifted.get(at)
    if found is None:
        found = code_decompositions(code_of(key), suit < 3, wild, pair)
        if suit in (1, 2):
            off = 9 * suit
            found = tuple(
                tuple((kind, tile + off, mask, shown) for kind, tile, mask, shown in melds)
                for melds in found
            )
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
