"""牌局记录: the 玉环麻将 round record and the hand record `games eval` reads.

The Structs are the JSON format (docs/games/yuhuan.md, "Round record"); the
functions turn them into the engine's tile indices and check that they could
have been dealt: known tiles, at most four of a kind, the right counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec

from compliance.errors import DealError
from compliance.games.yuhuan.options import YuhuanOptions
from compliance.games.yuhuan.score import HandContext
from compliance.games.yuhuan.tiles import (
    HONOURS,
    INDEX,
    KINDS,
    Tile,
    Wind,
    flower_kind,
    format_tiles,
)
from compliance.games.yuhuan.win import CHOW, CONCEALED_KONG, KONG, PUNG, Meld
from compliance.logs.bounds import Points, SignedPoints

MeldType = Literal["chow", "pung", "kong", "added_kong", "concealed_kong"]
HAND_TILES = 16


class YuhuanMeld(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """吃 / 碰 / 杠: a declared meld; `from` names who discarded the claimed tile."""

    type: MeldType
    tiles: list[Tile]
    from_: str | None = msgspec.field(default=None, name="from")


class YuhuanHand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一家的牌: a player's final hand; the winner's `tiles` include the winning tile."""

    player: str
    wind: Wind
    tiles: list[Tile]
    melds: list[YuhuanMeld] = []
    flowers: list[Tile] = []


class YuhuanWin(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """胡牌: who won on which tile, self-drawn (`from` null) or on whose discard."""

    player: str
    tile: Tile
    from_: str | None = msgspec.field(default=None, name="from")
    kong_flower: bool = False
    robbed_kong: bool = False


class YuhuanRound(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """一局: four final hands, the 財神 kind, the wall left, the win and the claim."""

    banker: str
    wildcard: Tile
    tiles_left: Annotated[int, msgspec.Meta(ge=0, le=144)]
    hands: list[YuhuanHand]
    win: YuhuanWin | None = None
    claimed: dict[str, SignedPoints] = {}
    rake: Points = 0


class YuhuanEvalHand(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False
):
    """一手牌 for `games eval`: concealed tiles (winning tile included), melds, 財神."""

    tiles: list[Tile]
    win_tile: Tile | None = None
    melds: list[YuhuanMeld] = []
    flowers: list[Tile] = []
    wind: Wind = "1z"
    wildcard: Tile | None = None
    self_drawn: bool = True
    kong_flower: bool = False
    robbed_kong: bool = False


def meld_of(record: YuhuanMeld, where: str) -> Meld:
    """A declared meld as an engine meld; a shape that is no meld is a DealError."""
    tiles = sorted(INDEX[t] for t in record.tiles)
    size = 3 if record.type in ("chow", "pung") else 4
    shown = "".join(record.tiles)
    if len(tiles) != size:
        raise DealError(f"{where}: {record.type} {shown} needs {size} tiles")
    if record.type == "chow":
        lo = tiles[0]
        if lo >= HONOURS or tiles != [lo, lo + 1, lo + 2] or lo % 9 > 6:
            raise DealError(f"{where}: {shown} is not a chow")
        return (CHOW, lo, 0, True)
    if len(set(tiles)) != 1:
        raise DealError(f"{where}: {shown} is not a {record.type}")
    kind = {"pung": PUNG, "kong": KONG, "added_kong": KONG, "concealed_kong": CONCEALED_KONG}[
        record.type
    ]
    return (kind, tiles[0], 0, kind != CONCEALED_KONG)


def hand_context(
    tiles: Sequence[str],
    melds: list[YuhuanMeld],
    flowers: Sequence[str],
    wind: str,
    wildcard: str | None,
    where: str,
    expected: int,
) -> HandContext:
    """The scoring view of a hand, after checking its shape and count."""
    wild = INDEX[wildcard] if wildcard is not None else -1
    flower = flower_kind(wild)
    concealed = [INDEX[t] for t in tiles]
    if flower in concealed or any(INDEX[t] != flower for t in flowers):
        raise DealError(
            f"{where}: {format_tiles([flower])} is the 杠花 and is set aside, never held"
        )
    exposed = tuple(meld_of(m, where) for m in melds)
    if any(m[1] == flower for m in exposed):
        raise DealError(f"{where}: a meld of the 杠花 {format_tiles([flower])}")
    count = len(concealed) + 3 * len(exposed)
    if count != expected or len(exposed) > 5:
        raise DealError(f"{where}: {count} tiles counting melds as three, expected {expected}")
    counts = [0] * KINDS
    for i in concealed:
        counts[i] += 1
    wildcards = counts[wild] if wild >= 0 else 0
    if wild >= 0:
        counts[wild] = 0
    return HandContext(counts, wildcards, exposed, INDEX[wind], len(flowers), flower)


def physical_tiles(hand: YuhuanHand) -> list[int]:
    """Every tile a hand holds: concealed, melds (kongs four), 杠花."""
    held = [INDEX[t] for t in hand.tiles] + [INDEX[t] for t in hand.flowers]
    for meld in hand.melds:
        held += [INDEX[t] for t in meld.tiles]
    return held


def check_tile_supply(rnd: YuhuanRound, options: YuhuanOptions, where: str) -> None:
    """At most four of a kind (the 財神 kind: its copies in play), and no more
    tiles in hands than the wall gave out."""
    counts = [0] * KINDS
    for hand in rnd.hands:
        for i in physical_tiles(hand):
            counts[i] += 1
    wild = INDEX[rnd.wildcard]
    for i, n in enumerate(counts):
        limit = options.wild_copies if i == wild else 4
        if n > limit:
            raise DealError(f"{where}: {n} copies of {format_tiles([i])} (at most {limit})")
    wall = KINDS * 4 - (4 - options.wild_copies)
    if sum(counts) + rnd.tiles_left > wall:
        raise DealError(
            f"{where}: {sum(counts)} tiles held and {rnd.tiles_left} left exceed the wall of {wall}"
        )
