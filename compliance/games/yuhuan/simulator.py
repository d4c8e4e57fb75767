"""模拟: 玉环麻将 rounds from really shuffled walls, for `compliance simulate`.

The deal follows the seed: sixteen tiles each, the banker a seventeenth, the
next tile turned up as the 財神, every 杠花 set aside and replaced from the
wall's end. The winner's final hand is then built from his own tiles and the
wall (by construction, not by play): five melds and a pair, some claimed,
sometimes with 財神 standing in. The others keep their dealt hands. Claims
are the engine's own settlement unless a round is tampered with.
"""

from __future__ import annotations

import random

import msgspec

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH, WRONG_BANKER
from compliance.games.base import Simulated
from compliance.games.rake import rake_percent, with_rake
from compliance.games.yuhuan import settle_round
from compliance.games.yuhuan.options import DEFAULT_PRESET, YuhuanOptions
from compliance.games.yuhuan.record import YuhuanHand, YuhuanMeld, YuhuanRound, YuhuanWin
from compliance.games.yuhuan.tiles import (
    HONOURS,
    KINDS,
    TILES,
    WIND_TILES,
    counts_of,
    flower_kind,
    shuffled_wall,
)

WIN_RATE = 0.85


def simulate(
    rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
) -> Simulated:
    if len(players) != 4:
        raise ValueError("玉环麻将 needs exactly four players")
    o = YuhuanOptions(points_per_hu=base)
    ring, at = list(players), 0
    percent = rake_percent(rng)
    rounds: list[dict] = []
    anomalies: list[tuple[int, str]] = []
    for index in range(1, n_rounds + 1):
        seating = ring[at:] + ring[:at]
        rnd = deal_round(rng, seating)
        out = settle_round(rnd, o, index)
        keeps = out.winner is None and not out.has_kong
        if rng.random() < anomaly_rate:
            rnd, check = _tamper(rng, rnd, ring, at, o, index)
            anomalies.append((index, check))
            if check == WRONG_BANKER:
                at = (at + 1) % 4
        else:
            rnd = msgspec.structs.replace(rnd, claimed={p: d * base for p, d in out.deltas.items()})
        record = msgspec.to_builtins(rnd)
        del record["rake"]
        rounds.append(with_rake(record, percent, (d * base for d in out.deltas.values())))
        if not keeps:
            at = (at + 1) % 4
    variant = {"preset": DEFAULT_PRESET, "options": {"points_per_hu": base}}
    return Simulated(variant=variant, rounds=rounds, anomalies=anomalies)


def _claims(rnd: YuhuanRound, o: YuhuanOptions, index: int) -> dict[str, int]:
    out = settle_round(rnd, o, index)
    return {p: d * o.points_per_hu for p, d in out.deltas.items()}


def _tamper(
    rng: random.Random, rnd: YuhuanRound, ring: list[str], at: int, o: YuhuanOptions, index: int
):
    """A changed payout, a banker out of turn, or a 杠上开花 claimed on a discard."""
    kind = rng.choice((SETTLEMENT_MISMATCH, WRONG_BANKER, ILLEGAL_ACTION))
    if kind == ILLEGAL_ACTION and rnd.win is not None and rnd.win.from_ is not None:
        win = msgspec.structs.replace(rnd.win, kong_flower=True)
        rnd = msgspec.structs.replace(rnd, win=win)
        return msgspec.structs.replace(rnd, claimed=_claims(rnd, o, index)), ILLEGAL_ACTION
    if kind == WRONG_BANKER and index > 1:  # the first banker is the dice's choice
        seating = ring[at + 1 :] + ring[: at + 1]
        winds = {p: f"{i + 1}z" for i, p in enumerate(seating)}
        hands = [msgspec.structs.replace(h, wind=winds[h.player]) for h in rnd.hands]
        rnd = msgspec.structs.replace(rnd, hands=hands, banker=seating[0])
        return msgspec.structs.replace(rnd, claimed=_claims(rnd, o, index)), WRONG_BANKER
    claimed = _claims(rnd, o, index)
    a, b = rng.sample(list(claimed), 2)
    shift = 10 * o.points_per_hu * rng.randint(1, 5)
    claimed[a] += shift
    claimed[b] -= shift
    return msgspec.structs.replace(rnd, claimed=claimed), SETTLEMENT_MISMATCH


def deal_round(rng: random.Random, seating: list[str]) -> YuhuanRound:
    """One round: deal, set the 財神 and 杠花, then a built win or a 黄庄."""
    wall = shuffled_wall(rng)
    hands = [wall[i * 16 : (i + 1) * 16] for i in range(4)]
    hands[0].append(wall[64])
    wildcard = wall[65]
    live = wall[66:]
    flower = flower_kind(wildcard)
    flowers: list[list[int]] = [[], [], [], []]
    for seat in range(4):
        while flower in hands[seat]:
            hands[seat].remove(flower)
            flowers[seat].append(flower)
            hands[seat].append(live.pop())
    for tile in [t for t in live if t == flower]:
        if rng.random() < 0.7:
            live.remove(tile)
            flowers[rng.randrange(4)].append(tile)
    if len(hands[0]) == 17:
        live.append(hands[0].pop(rng.randrange(17)))
    winner = rng.randrange(4) if rng.random() < WIN_RATE else None
    all_melds: list[list[YuhuanMeld]] = [[] for _ in range(4)]
    for seat in range(4):
        if seat != winner:
            all_melds[seat] = _declare_sets(
                rng, hands[seat], flowers[seat], live, wildcard, seat, seating
            )
    if winner is None:
        return _round(seating, hands, flowers, all_melds, wildcard, 16, None)
    pool = counts_of(live + hands[winner])
    tiles, melds = _build_win(rng, pool, hands[winner], wildcard, flower, winner, seating)
    hands[winner] = tiles
    all_melds[winner] = melds
    win_tile = rng.choice(tiles)
    others = [p for i, p in enumerate(seating) if i != winner]
    from_ = None if rng.random() < 0.5 else rng.choice(others)
    has_kong = bool(flowers[winner]) or any("kong" in m.type for m in melds)
    win = YuhuanWin(
        player=seating[winner],
        tile=TILES[win_tile],
        from_=from_,
        kong_flower=from_ is None and has_kong and rng.random() < 0.2,
        robbed_kong=from_ is not None and rng.random() < 0.03,
    )
    held = sum(len(h) for h in hands) + sum(len(f) for f in flowers)
    held += sum(len(m.tiles) for ms in all_melds for m in ms)
    tiles_left = rng.randint(16, max(16, 135 - held - 24))
    return _round(seating, hands, flowers, all_melds, wildcard, tiles_left, win)


def _round(seating, hands, flowers, melds, wildcard, tiles_left, win) -> YuhuanRound:
    records = [
        YuhuanHand(
            player=p,
            wind=WIND_TILES[i],
            tiles=[TILES[t] for t in sorted(hands[i])],
            melds=melds[i],
            flowers=[TILES[t] for t in flowers[i]],
        )
        for i, p in enumerate(seating)
    ]
    return YuhuanRound(
        banker=seating[0], wildcard=TILES[wildcard], tiles_left=tiles_left, hands=records, win=win
    )


def _build_win(
    rng, pool, own, wildcard, flower, seat, seating
) -> tuple[list[int], list[YuhuanMeld]]:
    """Five melds and a pair from the winner's tiles and the wall, some claimed,
    and up to three tiles of concealed melds given over to 財神."""
    pool[flower] = 0
    wilds_free = pool[wildcard]
    pool[wildcard] = 0
    concealed: list[int] = []
    melds: list[YuhuanMeld] = []
    n_exposed = rng.choice((0, 0, 1, 1, 2, 3))
    for k in range(5):
        meld = _pick_meld(rng, pool, own)
        if len(meld) == 4 and k >= n_exposed:
            melds.append(YuhuanMeld(type="concealed_kong", tiles=[TILES[t] for t in meld]))
        elif k < n_exposed:
            melds.append(_claimed(rng, meld, seat, seating))
        else:
            concealed += meld
    pair = rng.choice([t for t in range(KINDS) if pool[t] >= 2] or [0])
    pool[pair] -= 2
    concealed += [pair, pair]
    if wilds_free and rng.random() < 0.5:
        for _ in range(rng.randint(1, min(3, wilds_free))):
            concealed[rng.randrange(len(concealed))] = wildcard
    return concealed, melds


def _pick_meld(rng, pool, own) -> list[int]:
    for _ in range(200):
        tile = rng.choice(own) if rng.random() < 0.7 else rng.randrange(KINDS)
        roll = rng.random()
        if (
            roll < 0.55
            and tile < HONOURS
            and tile % 9 <= 6
            and all(pool[tile + d] for d in range(3))
        ):
            meld = [tile, tile + 1, tile + 2]
        elif roll < 0.93 and pool[tile] >= 3:
            meld = [tile] * 3
        elif pool[tile] >= 4:
            meld = [tile] * 4
        else:
            continue
        for t in meld:
            pool[t] -= 1
        return meld
    tile = max(range(KINDS), key=lambda t: pool[t])
    pool[tile] -= 3
    return [tile] * 3


def _claimed(rng, meld: list[int], seat: int, seating: list[str]) -> YuhuanMeld:
    """An exposed meld: a chow from 上家, a pung or kong from anyone, or a concealed kong."""
    tiles = [TILES[t] for t in meld]
    if len(set(meld)) == 3:
        return YuhuanMeld(type="chow", tiles=tiles, from_=seating[(seat - 1) % 4])
    giver = seating[(seat + rng.randint(1, 3)) % 4]
    if len(meld) == 3:
        return YuhuanMeld(type="pung", tiles=tiles, from_=giver)
    kind = rng.choice(("kong", "added_kong", "concealed_kong"))
    return YuhuanMeld(type=kind, tiles=tiles, from_=None if kind == "concealed_kong" else giver)


def _declare_sets(
    rng, hand: list[int], flowers: list[int], live: list[int], wildcard, seat, seating
) -> list[YuhuanMeld]:
    """A non-winner's 碰 and 杠: a pair or three completed from the wall (a claimed
    discard), or three or four laid down, with a replacement for each kong and
    a discard for each claim so that the hand stays sixteen."""
    melds: list[YuhuanMeld] = []
    for tile in sorted(set(hand)):
        n = hand.count(tile)
        if tile == wildcard or n < 2 or rng.random() >= 0.3:
            continue
        claim = n < 4 and tile in live and rng.random() < 0.6
        size = n + 1 if claim else n
        if size < 3:
            continue
        for _ in range(n):
            hand.remove(tile)
        if claim:
            live.remove(tile)
        tiles = [TILES[tile]] * size
        giver = seating[(seat + rng.randint(1, 3)) % 4]
        if size == 3:
            melds.append(YuhuanMeld(type="pung", tiles=tiles, from_=giver))
        elif claim:
            melds.append(
                YuhuanMeld(type=rng.choice(("kong", "added_kong")), tiles=tiles, from_=giver)
            )
        else:
            melds.append(YuhuanMeld(type="concealed_kong", tiles=tiles))
        if size == 4:
            drawn = live.pop()
            while drawn == flower_kind(wildcard):
                flowers.append(drawn)
                drawn = live.pop()
            hand.append(drawn)
        if claim:
            hand.pop(rng.randrange(len(hand)))
    return melds
