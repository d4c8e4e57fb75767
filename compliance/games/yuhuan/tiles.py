"""麻将牌: the 136 tiles of 玉环麻将, their notation, the 財神 and the 杠花.

Notation: rank + suit letter, `1m`–`9m` 万, `1p`–`9p` 筒, `1s`–`9s` 条, and
`1z`–`7z` for 东 南 西 北 白 发 中. Inside the engine a tile is an index 0–33:
万 0–8, 筒 9–17, 条 18–26, 字 27–33.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Literal, get_args

Tile = Literal[
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m",
    "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",
    "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s",
    "1z", "2z", "3z", "4z", "5z", "6z", "7z",
]  # fmt: skip
Wind = Literal["1z", "2z", "3z", "4z"]

TILES: tuple[Tile, ...] = get_args(Tile)
WIND_TILES: tuple[Wind, ...] = get_args(Wind)  # 东 南 西 北, the seats in order
INDEX: dict[str, int] = {t: i for i, t in enumerate(TILES)}
KINDS = 34
COPIES = 4
HONOURS = 27
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
DRAGONS_WITH_TAI = (GREEN, RED)
WINDS = (EAST, SOUTH, WEST, NORTH)
SUIT_NAMES = ("万", "筒", "条", "字")
HONOUR_NAMES = ("东", "南", "西", "北", "白", "发", "中")


def suit_of(index: int) -> int:
    """0 万, 1 筒, 2 条, 3 字."""
    return index // 9


def is_major(index: int) -> bool:
    """幺九: an honour or a terminal (1 or 9 of a suit)."""
    return index >= HONOURS or index % 9 in (0, 8)


def chinese(index: int) -> str:
    """A tile's Chinese name: 七筒, 九万, 南, 中."""
    if index >= HONOURS:
        return HONOUR_NAMES[index - HONOURS]
    return "一二三四五六七八九"[index % 9] + SUIT_NAMES[index // 9]


def flower_kind(wildcard: int | None) -> int:
    """杠花: 白板, or 红中 when 白板 is the 財神 (seed 002 『貳』)."""
    return RED if wildcard == WHITE else WHITE


def counts_of(indices: Iterable[int]) -> list[int]:
    counts = [0] * KINDS
    for i in indices:
        counts[i] += 1
    return counts


def fresh_wall() -> list[int]:
    """The 136 tiles in a fixed order, four of each kind, no flower tiles."""
    return [i for i in range(KINDS) for _ in range(COPIES)]


def shuffled_wall(rng: random.Random) -> list[int]:
    wall = fresh_wall()
    rng.shuffle(wall)
    return wall


def format_tiles(indices: Iterable[int]) -> str:
    """Compact notation, suits grouped: `777p999m` → `999m777p`."""
    groups: dict[int, list[int]] = {}
    for i in sorted(indices):
        groups.setdefault(suit_of(i), []).append(i % 9 + 1)
    return "".join("".join(map(str, ranks)) + "mpsz"[s] for s, ranks in groups.items())
