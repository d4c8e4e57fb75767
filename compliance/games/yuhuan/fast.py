"""快算: the replay's settlement of a 玉环麻将 round in one pass, equal to `settle_round`.

Each hand's tiles are read once: the deal is checked by counts, the losers are
scored from their counts, and the winner's best total is taken over the same
decompositions and placements as `best_scoring`, from per-options tables of
each set's 胡 and 台, without building a `Scoring` for each. A round with
anything a `DealError` would name returns None, and the caller settles it with
the reference `settle_round`, which names the first fault as before.
`tests/unit/games/test_yuhuan_fast.py` holds the two equal.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from compliance.domain.rounds import Integrity
from compliance.errors import DealError
from compliance.games.yuhuan.breaches import check_chows, check_win_flags, illegal
from compliance.games.yuhuan.fast_win import fast_decompositions
from compliance.games.yuhuan.options import YuhuanOptions, wild_tai
from compliance.games.yuhuan.record import YuhuanHand, YuhuanMeld, YuhuanRound, meld_of
from compliance.games.yuhuan.score import HandContext
from compliance.games.yuhuan.tiles import (
    DRAGONS_WITH_TAI,
    INDEX,
    KINDS,
    TILES,
    WINDS,
    flower_kind,
    is_major,
)
from compliance.games.yuhuan.win import (
    CHOW,
    CONCEALED_KONG,
    KONG,
    PAIR,
    PUNG,
    Meld,
)

WIND_SEATS = {"1z": 0, "2z": 1, "3z": 2, "4z": 3}


@dataclass(frozen=True, slots=True)
class FastOutcome:
    """What the replay needs of a round: payments in 胡, the winner, kongs, breaches."""

    deltas: dict[str, int]
    winner: str | None
    has_kong: bool
    issues: list[Integrity]
    by_wind: tuple[str, str, str, str]  # the players 东 南 西 北


class Tables:
    """Per-options 胡 and 台 of every set: `sets[kind][is_open][tile]` is (胡, 台 without the seat)."""

    def __init__(self, o: YuhuanOptions) -> None:
        self.sets: list[list[list[tuple[int, int]]]] = [
            [[(0, 0)] * KINDS, [(0, 0)] * KINDS] for _ in range(5)
        ]
        for tile in range(KINDS):
            major = is_major(tile)
            tai = o.dragon_pung_tai if tile in DRAGONS_WITH_TAI else 0
            pung = (
                o.pung_concealed_major if major else o.pung_concealed_minor,
                o.pung_exposed_major if major else o.pung_exposed_minor,
            )
            kong = o.kong_exposed_major if major else o.kong_exposed_minor
            concealed_kong = o.kong_concealed_major if major else o.kong_concealed_minor
            for is_open in (0, 1):
                self.sets[PUNG][is_open][tile] = (pung[is_open], tai)
                self.sets[KONG][is_open][tile] = (kong, tai)
                self.sets[CONCEALED_KONG][is_open][tile] = (concealed_kong, tai)
        self.wild_tai = tuple(wild_tai(o, n) for n in range(5))


_tables: dict[YuhuanOptions, Tables] = {}


def tables_for(o: YuhuanOptions) -> Tables:
    found = _tables.get(o)
    if found is None:
        if len(_tables) > 64:
            _tables.clear()
        found = _tables[o] = Tables(o)
    return found


_melds: dict[tuple[str, ...], Meld] = {}


def fast_meld(record: YuhuanMeld) -> Meld | None:
    """The engine meld of a declared one (memoised by type and tiles); None for no meld."""
    key = (record.type, *record.tiles)
    found = _melds.get(key)
    if found is None:
        try:
            found = meld_of(record, "")
        except DealError:
            return None
        _melds[key] = found
    return found


def fast_settle(
    rnd: YuhuanRound, o: YuhuanOptions, index: int, known: set[str], t: Tables | None = None
) -> FastOutcome | None:
    """`settle_round` without items; None when the round has a fault for the reference to name."""
    hands = rnd.hands
    if len(hands) != 4:
        return None
    seat: dict[str, str] = {}
    by_wind = ["", "", "", ""]
    for hand in hands:
        seat[hand.player] = hand.wind
        by_wind[WIND_SEATS[hand.wind]] = hand.player
    win = rnd.win
    if (
        len(seat) != 4
        or "" in by_wind
        or not known.issuperset(seat)
        or by_wind[0] != rnd.banker
        or (
            win is not None
            and (win.player not in seat or win.from_ == win.player)
            or (win is not None and win.from_ is not None and win.from_ not in seat)
        )
    ):
        return None
    wild = INDEX[rnd.wildcard]
    flower = flower_kind(wild)
    flower_name = TILES[flower]
    pool: list[str] = []  # every tile held: concealed, 杠花, melds
    parsed = []
    has_kong = False
    for hand in hands:
        tiles = hand.tiles
        pool += tiles
        flowers = hand.flowers
        if flowers:
            if flowers.count(flower_name) != len(flowers):
                return None
            pool += flowers
        exposed: list[Meld] = []
        for record in hand.melds:
            meld = fast_meld(record)
            if meld is None or meld[1] == flower:
                return None
            exposed.append(meld)
            pool += record.tiles
            has_kong |= meld[0] == KONG or meld[0] == CONCEALED_KONG
        expected = 17 if win is not None and hand.player == win.player else 16
        if flower_name in tiles or len(tiles) + 3 * len(exposed) != expected or len(exposed) > 5:
            return None
        parsed.append((hand, exposed))
    supply = Counter(pool)
    if max(supply.values()) > 4 or supply[rnd.wildcard] > o.wild_copies:
        return None
    if len(pool) + rnd.tiles_left > KINDS * 4 - (4 - o.wild_copies):
        return None
    players = [h.player for h in hands]
    issues: list[Integrity] = []
    for hand, _ in parsed:
        if hand.melds:
            check_chows(hand, seat, index, issues)
    deltas = dict.fromkeys(players, 0)
    table = (by_wind[0], by_wind[1], by_wind[2], by_wind[3])
    outcome = FastOutcome(deltas, None, has_kong, issues, table)
    if win is None:
        if rnd.tiles_left != o.huang_tiles:
            detail = f"no win but {rnd.tiles_left} tiles left, 黄庄 comes at {o.huang_tiles}"
            issues.append(illegal(index, detail, players))
        return outcome
    at = players.index(win.player)
    winner_hand, exposed = parsed[at]
    if win.tile not in winner_hand.tiles:
        return None
    t = t or tables_for(o)
    concealed = [INDEX[name] for name in winner_hand.tiles]
    ctx = _context(concealed, exposed, winner_hand.wind, len(winner_hand.flowers), wild, flower)
    ctx.win_tile = INDEX[win.tile]
    ctx.win_wild = win.tile == rnd.wildcard
    ctx.self_drawn = win.from_ is None
    ctx.kong_flower, ctx.robbed_kong = win.kong_flower, win.robbed_kong
    check_win_flags(rnd, win, ctx, o, index, issues)
    best = best_total(ctx, o, t)
    if best is None:
        detail = f"{win.player} declared a win with a hand that is not complete"
        issues.append(illegal(index, detail, (win.player,)))
        return outcome
    totals = []
    for i, (hand, exposed) in enumerate(parsed):
        if i != at:
            totals.append((hand.player, loser_total(hand, exposed, rnd.wildcard, o, t)))
    chengbao = None
    if win.from_ is not None and rnd.tiles_left - o.huang_tiles <= o.chengbao_tiles:
        chengbao = win.from_
    winner = win.player
    for p, _ in totals:
        deltas[chengbao or p] -= best
        deltas[winner] += best
    (a, ta), (b, tb), (c, tc) = totals
    deltas[a] += ta - tb + ta - tc
    deltas[b] += tb - ta + tb - tc
    deltas[c] += tc - ta + tc - tb
    return FastOutcome(deltas, winner, has_kong, issues, table)


def _context(
    concealed: list[int], exposed: list[Meld], wind: str, flowers: int, wild: int, flower: int
) -> HandContext:
    counts = [0] * KINDS
    for i in concealed:
        counts[i] += 1
    wildcards = counts[wild]
    counts[wild] = 0
    return HandContext(counts, wildcards, tuple(exposed), INDEX[wind], flowers, flower)


def loser_total(
    hand: YuhuanHand, exposed: list[Meld], wildcard: str, o: YuhuanOptions, t: Tables
) -> int:
    """`loser_scoring(...).total`: 杠花, exposed sets, 暗坎 and honour pairs, counted from the tiles."""
    flowers = len(hand.flowers)
    hu = o.flower_hu * flowers
    tai = o.flower_tai * flowers
    sets = t.sets
    seat = INDEX[hand.wind]
    for kind, tile, _, is_open in exposed:
        if kind != CHOW:
            h, d = sets[kind][is_open][tile]
            hu += h
            tai += d + (o.seat_wind_pung_tai if tile == seat else 0)
    counts: dict[str, int] = {}
    for held in hand.tiles:
        counts[held] = counts.get(held, 0) + 1
    wildcards = counts.pop(wildcard, 0)
    for kind_name, n in counts.items():
        if n >= 2:
            tile = INDEX[kind_name]
            if n >= 3:
                h, d = sets[PUNG][0][tile]
                hu += h
                tai += d + (o.seat_wind_pung_tai if tile == seat else 0)
            elif tile in DRAGONS_WITH_TAI or tile == seat:
                hu += o.honour_pair_hu
    if o.loser_wild_tai:
        tai += t.wild_tai[min(wildcards, 4)]
    tai = min(tai, o.max_tai)
    return min(-(-(hu << tai) // o.round_to) * o.round_to, o.cap)


def best_total(ctx: HandContext, o: YuhuanOptions, t: Tables | None = None) -> int | None:
    """`best_scoring(ctx, o).total`, the best (total, 台, 胡) over every decomposition; None: no win."""
    t = t or tables_for(o)
    sets = t.sets
    seat = ctx.seat
    seat_tai = o.seat_wind_pung_tai
    self_drawn = ctx.self_drawn
    hu0 = o.base_hu + o.flower_hu * ctx.flowers
    tai0 = o.flower_tai * ctx.flowers
    if ctx.kong_flower:
        tai0 += o.kong_flower_tai
    if ctx.robbed_kong:
        tai0 += o.robbed_kong_tai
    tai0 += t.wild_tai[min(ctx.wildcards, 4)]
    suits0 = chows0 = winds0 = 0
    for kind, tile, _, is_open in ctx.exposed:
        suits0 |= 1 << (tile // 9)
        if kind == CHOW:
            chows0 += 1
        else:
            h, d = sets[kind][is_open][tile]
            hu0 += h
            tai0 += d + (seat_tai if tile == seat else 0)
            winds0 += tile in WINDS
    wait_hu = (
        (o.hard_wait_self_drawn_hu, o.easy_wait_self_drawn_hu)
        if self_drawn
        else (o.hard_wait_discard_hu, o.easy_wait_discard_hu)
    )
    opens_pung = not self_drawn and o.discard_pung_exposed
    capped = o.three_wild_cap and ctx.wildcards >= 3
    n_exposed = len(ctx.exposed)
    win, win_wild = ctx.win_tile, ctx.win_wild
    hard_hu, easy_hu = wait_hu
    pair_hu, pinghu_tai, max_tai, cap, unit = (
        o.honour_pair_hu,
        o.pinghu_tai,
        o.max_tai,
        o.cap,
        o.round_to,
    )
    open_pungs, concealed_pungs = sets[PUNG][1], sets[PUNG][0]
    best_key = (-1, -1, -1)
    found = False
    for concealed in fast_decompositions(ctx.counts, ctx.wildcards, seat, ctx.flower_kind):
        hu, tai, suits, chows, winds = hu0, tai0, suits0, chows0, winds0
        waits: list[tuple[int, bool]] = []  # where the winning tile can sit: (胡 of the wait, 两面)
        for kind, tile, mask, _ in concealed:
            suits |= 1 << (tile // 9)
            if kind == CHOW:
                chows += 1
                for pos in (0, 1, 2):
                    wild = mask >> pos & 1
                    if wild if win_wild else (not wild and tile + pos == win):
                        rank = tile % 9
                        if pos == 1 or (pos == 2 and rank == 0) or (pos == 0 and rank == 6):
                            waits.append((hard_hu, False))  # 坎档, 靠壁
                        else:
                            waits.append((easy_hu, True))
            elif kind == PAIR:
                if tile in DRAGONS_WITH_TAI or tile == seat:
                    hu += pair_hu
                if (mask != 0) if win_wild else (tile == win and mask != 3):
                    waits.append((hard_hu, False))  # 对子
            else:
                h, d = sets[kind][0][tile]
                hu += h
                tai += d + (seat_tai if tile == seat else 0)
                winds += tile in WINDS
                if kind == PUNG and ((mask != 0) if win_wild else (tile == win and mask != 7)):
                    adj = open_pungs[tile][0] - concealed_pungs[tile][0] if opens_pung else 0
                    waits.append((easy_hu + adj, False))  # 对倒
        n_melds = n_exposed + len(concealed)
        tai += _shape_tai(chows, n_melds, suits, o)
        pinghu = chows == n_melds - 1
        cap_all = capped or (o.four_winds_cap and winds >= 4)
        for add, side in waits:
            h = hu + add
            d = tai + pinghu_tai if side and pinghu else tai
            if d > max_tai:
                d = max_tai
            total = cap if cap_all else min(-(-(h << d) // unit) * unit, cap)
            key = (total, d, h)
            if key > best_key:
                best_key, found = key, True
    return best_key[0] if found else None


def _shape_tai(chows: int, n_melds: int, suits: int, o: YuhuanOptions) -> int:
    """碰碰胡, 清一色 and 混一色 (平胡 hangs on the wait, so the caller adds it)."""
    tai = o.all_pungs_tai if chows == 0 else 0
    plain = suits & 0b111
    if not suits & 0b1000 and plain in (1, 2, 4):
        tai += o.full_flush_tai
    elif suits & 0b1000 and plain in (0, 1, 2, 4):
        tai += o.half_flush_tai
    return tai
