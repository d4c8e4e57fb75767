"""记分: 胡数 and 台数 of a hand, the best decomposition, and the round's payments.

The winner's score is the best over every decomposition and every place the
winning tile can sit in it (never the first found). Each item is named with
its Chinese term so a score can be read back line by line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from compliance.games.yuhuan.options import YuhuanOptions, total_of, wild_tai
from compliance.games.yuhuan.tiles import DRAGONS_WITH_TAI, WINDS, chinese, is_major
from compliance.games.yuhuan.win import CHOW, CONCEALED_KONG, KONG, PAIR, PUNG, Meld, decompositions

SIDE, KANDANG, KAOBI, SINGLE, SHANPON = range(5)
WAIT_NAMES = ("两面", "坎档", "靠壁", "对子", "对倒")
HARD_WAITS = (KANDANG, KAOBI, SINGLE)
SET_NAMES_EN = {
    "明刻": "exposed pung",
    "暗坎": "concealed pung",
    "明杠": "exposed kong",
    "暗杠": "concealed kong",
}


@dataclass(slots=True)
class HandContext:
    """手牌: the concealed tiles, melds, seat and 杠花, and how the hand was won."""

    counts: list[int]  # concealed tiles by kind, 財神 taken out
    wildcards: int  # 財神 held in the concealed hand
    exposed: tuple[Meld, ...]
    seat: int
    flowers: int
    flower_kind: int
    win_tile: int = -1
    win_wild: bool = False
    self_drawn: bool = True
    kong_flower: bool = False
    robbed_kong: bool = False


@dataclass(slots=True)
class Scoring:
    """算分: one hand's score, the melds it was read as, the wait, every item."""

    total: int
    hu: int
    tai: int
    tai_raw: int
    melds: tuple[Meld, ...] = ()
    wait: int | None = None
    wait_meld: int | None = None
    items: list[dict] = field(default_factory=list)


def _item(
    items: list | None, name: str, en: str, hu: int = 0, tai: int = 0, tiles: str = ""
) -> None:
    if items is not None and (hu or tai):
        entry: dict = {"item": name, "en": en}
        if tiles:
            entry["tiles"] = tiles
        if hu:
            entry["hu"] = hu
        if tai:
            entry["tai"] = tai
        items.append(entry)


def meld_tiles(meld: Meld) -> list[int]:
    """副: the tiles a meld stands for, 財神 read as what they replace."""
    kind, tile, _, _ = meld
    if kind == CHOW:
        return [tile, tile + 1, tile + 2]
    return [tile] * (2 if kind == PAIR else 4 if kind in (KONG, CONCEALED_KONG) else 3)


def _set_points(
    meld: Meld, is_open: bool, seat: int, o: YuhuanOptions, items: list | None
) -> tuple[int, int]:
    """刻 and 杠: 胡 by concealment and 幺九, 台 for 中, 发 and the seat wind."""
    kind, tile, _, _ = meld
    major = is_major(tile)
    if kind == PUNG:
        if is_open:
            hu, name = (o.pung_exposed_major if major else o.pung_exposed_minor), "明刻"
        else:
            hu, name = (o.pung_concealed_major if major else o.pung_concealed_minor), "暗坎"
    elif kind == KONG:
        hu, name = (o.kong_exposed_major if major else o.kong_exposed_minor), "明杠"
    else:
        hu, name = (o.kong_concealed_major if major else o.kong_concealed_minor), "暗杠"
    tai = 0
    if tile in DRAGONS_WITH_TAI:
        tai += o.dragon_pung_tai
    if tile == seat:
        tai += o.seat_wind_pung_tai
    if items is not None:
        en = f"{SET_NAMES_EN[name]}, {'terminal/honour' if major else 'simple'}"
        _item(items, f"{name}{chinese(tile)}", en, hu=hu, tiles=chinese(tile))
        if tile in DRAGONS_WITH_TAI:
            _item(items, f"三个{chinese(tile)}", "dragon pung", tai=o.dragon_pung_tai)
        if tile == seat:
            _item(items, "门风刻", "pung of the seat wind", tai=o.seat_wind_pung_tai)
    return hu, tai


def score(
    melds: Sequence[Meld],
    wait: int,
    wait_meld: int,
    ctx: HandContext,
    o: YuhuanOptions,
    items: list | None = None,
) -> Scoring:
    """胡数 × 2^台 of one decomposition with the winning tile in one place."""
    note = items is not None
    hu = o.base_hu + o.flower_hu * ctx.flowers
    tai = o.flower_tai * ctx.flowers
    if note:
        _item(items, "底胡", "base for the winner", hu=o.base_hu)
        flowers = f"杠花 ×{ctx.flowers}"
        _item(items, flowers, "flower (白板) set aside", hu=o.flower_hu * ctx.flowers)
        _item(items, flowers, "a tai per flower", tai=o.flower_tai * ctx.flowers)
    suits = 0
    chows = winds = 0
    for i, meld in enumerate(melds):
        kind, tile, _, exposed = meld
        suits |= 1 << (tile // 9)
        if kind == CHOW:
            chows += 1
        elif kind == PAIR:
            if tile in DRAGONS_WITH_TAI or tile == ctx.seat:
                hu += o.honour_pair_hu
                if note:
                    _item(
                        items,
                        f"对子{chinese(tile)}",
                        "pair of 中/发/seat wind",
                        hu=o.honour_pair_hu,
                    )
        else:
            is_open = exposed or (
                i == wait_meld and kind == PUNG and not ctx.self_drawn and o.discard_pung_exposed
            )
            h, t = _set_points(meld, is_open, ctx.seat, o, items)
            hu, tai = hu + h, tai + t
            winds += tile in WINDS
    hard = wait in HARD_WAITS
    if ctx.self_drawn:
        h = o.hard_wait_self_drawn_hu if hard else o.easy_wait_self_drawn_hu
    else:
        h = o.hard_wait_discard_hu if hard else o.easy_wait_discard_hu
    hu += h
    if note:
        how, en = (
            ("自摸 ", "wait, self-drawn") if ctx.self_drawn else ("放冲 ", "wait, on a discard")
        )
        _item(items, how + WAIT_NAMES[wait], en, hu=h)
    tai += _pattern_tai(chows, len(melds), suits, wait, ctx, o, items)
    tai_raw = tai
    tai = min(tai, o.max_tai)
    total = total_of(hu, tai, o)
    if o.four_winds_cap and winds >= 4:
        total = o.cap
        if items is not None:
            items.append({"item": "四风台", "en": "four wind pungs score the cap", "total": o.cap})
    if o.three_wild_cap and ctx.wildcards >= 3:
        total = o.cap
        if items is not None:
            items.append({"item": "三财神", "en": "three wildcards score the cap", "total": o.cap})
    return Scoring(total, hu, tai, tai_raw, tuple(melds), wait, wait_meld)


def _pattern_tai(
    chows: int,
    n_melds: int,
    suits: int,
    wait: int,
    ctx: HandContext,
    o: YuhuanOptions,
    items: list | None,
) -> int:
    """平胡, 碰碰胡, 混一色, 清一色, 杠上开花, 拉杠 and the 財神 count."""
    tai = 0
    if chows == n_melds - 1 and wait == SIDE:
        tai += o.pinghu_tai
        _item(items, "平胡", "all chows, two-sided wait", tai=o.pinghu_tai)
    if chows == 0:
        tai += o.all_pungs_tai
        _item(items, "碰碰胡", "all pungs", tai=o.all_pungs_tai)
    plain = suits & 0b111
    if not suits & 0b1000 and plain in (1, 2, 4):
        tai += o.full_flush_tai
        _item(items, "清一色", "one suit", tai=o.full_flush_tai)
    elif suits & 0b1000 and plain in (0, 1, 2, 4):
        tai += o.half_flush_tai
        _item(items, "混一色", "one suit and honours", tai=o.half_flush_tai)
    if ctx.kong_flower:
        tai += o.kong_flower_tai
        _item(items, "杠上开花", "won on a kong's replacement", tai=o.kong_flower_tai)
    if ctx.robbed_kong:
        tai += o.robbed_kong_tai
        _item(items, "拉杠", "robbed a kong", tai=o.robbed_kong_tai)
    t = wild_tai(o, ctx.wildcards)
    tai += t
    names = ("没有财神", "一个财神", "两个财神", "三个财神", "四个财神")
    _item(items, names[min(ctx.wildcards, 4)], "wildcards held", tai=t)
    return tai


def placements(melds: Sequence[Meld], first: int, ctx: HandContext) -> list[tuple[int, int]]:
    """(wait, meld index) for each place the winning tile can take."""
    win, wild = ctx.win_tile, ctx.win_wild
    found: dict[tuple[int, int], None] = {}
    for i in range(first, len(melds)):
        kind, tile, mask, _ = melds[i]
        if kind == CHOW:
            for pos in range(3):
                is_wild = bool(mask & (1 << pos))
                fits = is_wild if wild else (not is_wild and tile + pos == win)
                if fits:
                    found[(_chow_wait(tile, pos), i)] = None
        elif kind in (PUNG, PAIR):
            full = 7 if kind == PUNG else 3
            if (mask != 0) if wild else (tile == win and mask != full):
                found[(SHANPON if kind == PUNG else SINGLE, i)] = None
    return list(found)


def _chow_wait(start: int, pos: int) -> int:
    if pos == 1:
        return KANDANG
    rank = start % 9
    if (pos == 2 and rank == 0) or (pos == 0 and rank == 6):
        return KAOBI
    return SIDE


def best_scoring(ctx: HandContext, o: YuhuanOptions, itemise: bool = False) -> Scoring | None:
    """The winner's best score over every decomposition; None when no win."""
    best: Scoring | None = None
    best_key = (-1, -1, -1)
    first = len(ctx.exposed)
    for concealed in decompositions(ctx.counts, ctx.wildcards, ctx.seat, ctx.flower_kind):
        melds = ctx.exposed + concealed
        for wait, at in placements(melds, first, ctx):
            s = score(melds, wait, at, ctx, o)
            key = (s.total, s.tai, s.hu)
            if key > best_key:
                best, best_key = s, key
    if best is not None and itemise:
        items: list[dict] = []
        assert best.wait is not None and best.wait_meld is not None  # score() places the wait
        best = score(best.melds, best.wait, best.wait_meld, ctx, o, items)
        best.items = items
    return best


def loser_scoring(ctx: HandContext, o: YuhuanOptions, itemise: bool = False) -> Scoring:
    """非胡家: 杠花, exposed sets, 暗坎 and honour pairs in hand; no 底胡, no wait.

    台 are the 杠花 and the 中, 发 and seat-wind sets; the 財神 台 only when
    `loser_wild_tai` is set (seed 002 『肆』: 后面的都要自己胡倒才能算).
    """
    items: list | None = [] if itemise else None
    melds = list(ctx.exposed)
    for tile, n in enumerate(ctx.counts):
        if n >= 3:
            melds.append((PUNG, tile, 0, False))
        elif n == 2 and (tile in DRAGONS_WITH_TAI or tile == ctx.seat):
            melds.append((PAIR, tile, 0, False))
    hu = o.flower_hu * ctx.flowers
    tai = o.flower_tai * ctx.flowers
    _item(items, f"杠花 ×{ctx.flowers}", "flower set aside", hu=hu, tai=tai)
    for meld in melds:
        kind, tile, _, exposed = meld
        if kind == PAIR:
            hu += o.honour_pair_hu
            _item(items, f"对子{chinese(tile)}", "pair of 中/发/seat wind", hu=o.honour_pair_hu)
        elif kind != CHOW:
            h, t = _set_points(meld, exposed, ctx.seat, o, items)
            hu, tai = hu + h, tai + t
    if o.loser_wild_tai:
        t = wild_tai(o, ctx.wildcards)
        tai += t
        _item(items, "财神台", "wildcards held", tai=t)
    capped_tai = min(tai, o.max_tai)
    result = Scoring(total_of(hu, capped_tai, o), hu, capped_tai, tai, tuple(melds))
    result.items = items or []
    return result


def settle(
    players: Sequence[str], totals: dict[str, int], winner: str | None, chengbao: str | None
) -> dict[str, int]:
    """付分: each other player pays the winner's total (the 承包 discarder pays it all);
    among the others the smaller total pays the larger the difference."""
    deltas = {p: 0 for p in players}
    if winner is None:
        return deltas
    others = [p for p in players if p != winner]
    for p in others:
        payer = chengbao or p
        deltas[payer] -= totals[winner]
        deltas[winner] += totals[winner]
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            diff = totals[a] - totals[b]
            deltas[a] += diff
            deltas[b] -= diff
    return deltas
