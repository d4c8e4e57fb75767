"""牌形归类: a play's readings from its rank counts, as `combos` reads its cards.

A shape is what `combos._read` looks at: how many natural cards of each rank (2 … A),
小王, 大王 and 逢人配 cards a play holds, and whether its natural cards are of one suit.
`readings` gives the same readings in the same order as `combos.ranked` on any cards of
that shape (tests/unit/games/test_guandan_shapes.py holds them equal), without building
the cards: counts in, readings out.
"""

from __future__ import annotations

from compliance.games.guandan import combos

FIELD_BITS = 5  # a count per field: ranks 2 … A (0-12), 小王 13, 大王 14, 逢人配 15
# (kind, cards per rank, run length, windows: (top, the rank indexes the window spans))
RUN_WINDOWS = tuple(
    (
        kind,
        count,
        length,
        tuple(
            (
                start + length - 1,
                frozenset(12 if p in (1, 14) else p - 2 for p in range(start, start + length)),
            )
            for start in range(1, 16 - length)
        ),
    )
    for kind, count, length in combos.RUNS
)
SINGLE_KINDS = {1: combos.SINGLE, 2: combos.PAIR, 3: combos.TRIPLE}


def readings(ranks: int, several_suits: bool, level: str) -> tuple[combos.Reading, ...]:
    """The readings of a shape, strongest first: `ranks` holds the 16 counts in fields of
    five bits; `several_suits` says the natural cards are not all of one suit."""
    counts = [(ranks >> FIELD_BITS * i) & 31 for i in range(16)]
    natural, small, big = counts[:13], counts[13], counts[14]
    n = sum(counts)
    present = [i for i in range(13) if natural[i]]
    found: list[combos.Reading] = []
    if small or big:
        one_kind = not (small and big)
        if small == 2 and big == 2 and n == 4:
            found.append(_reading(combos.JOKER_BOMB, 17, 4, "RJ"))
        elif one_kind and n <= 2 and n == small + big:
            joker = "BJ" if small else "RJ"
            found.append(_reading(SINGLE_KINDS[n], 16 if small else 17, n, joker))
        if n == 5 and one_kind and small + big == 2:
            found.extend(_full_houses(natural, present, level, pair_is_joker=True))
        return _ranked(found)
    if len(present) <= 1:
        rank = combos.LEVELS[present[0]] if present else level
        kind = SINGLE_KINDS.get(n, combos.BOMB if 4 <= n <= 10 else None)
        if kind:
            found.append(_reading(kind, combos.value(rank, level), n, rank))
    if n == 5:
        found.extend(_full_houses(natural, present, level))
    most = max(natural)
    flush = bool(present) and not several_suits
    spanned = set(present)
    for kind, count, length, windows in RUN_WINDOWS:
        if n != count * length or most > count or len(present) > length:
            continue
        for top, window in windows:
            if spanned <= window:
                name = combos.SEQUENCE_NAME[top]
                found.append(_reading(kind, top, n, name))
                if kind == combos.STRAIGHT and flush:
                    found.append(_reading(combos.STRAIGHT_FLUSH, top, n, name))
    return _ranked(found)


def _full_houses(
    natural: list[int], present: list[int], level: str, pair_is_joker: bool = False
) -> list[combos.Reading]:
    """三带二 as `combos._full_houses`: the triple's rank holds at most three natural cards
    and at most one other rank at most two (none beside a pair of one joker)."""
    if len(present) > 2:
        return []
    if not present:
        triples: list[int] | range = range(13)
    elif len(present) == 1:
        (one,) = present
        triples = [
            t for t in range(13) if natural[one] <= (3 if t == one else -1 if pair_is_joker else 2)
        ]
    else:
        one, two = present
        triples = (
            []
            if pair_is_joker
            else [
                t
                for t, other in ((one, two), (two, one))
                if natural[t] <= 3 and natural[other] <= 2
            ]
        )
    return [
        _reading(combos.FULL_HOUSE, combos.value(rank, level), 5, rank)
        for rank in (combos.LEVELS[t] for t in triples)
    ]


def _reading(kind: str, key: int, size: int, rank: str) -> combos.Reading:
    """One `Reading` per combination, made once: they are equal values, so shared."""
    found = _READINGS.get((kind, key, size, rank))
    if found is None:
        c = combos.Combo(kind, key, size, rank)
        found = combos.Reading(c, c.label, c.is_bomb, c.power, kind, size, key)
        _READINGS[kind, key, size, rank] = found
    return found


_READINGS: dict[tuple[str, int, int, str], combos.Reading] = {}


def _ranked(found: list[combos.Reading]) -> tuple[combos.Reading, ...]:
    if len(found) < 2:
        return tuple(found)
    ranked = sorted(
        found, key=lambda r: (r.is_bomb, r.power if r.is_bomb else (0, r.key)), reverse=True
    )
    return tuple(ranked)
