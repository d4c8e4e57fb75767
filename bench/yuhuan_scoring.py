"""Benchmark: 玉环麻将 full scorings per second on one core.

Winning hands come from the simulator: real shuffled walls, the winner's
hand built from his tiles and the wall, 財神 in about half of them. A full
scoring is `best_scoring`: every decomposition, every place for the winning
tile, the best total. The first pass runs on cold per-suit caches; the
second on the caches the first filled (a long audit's steady state).

    python bench/yuhuan_scoring.py            # 20,000 hands
    python bench/yuhuan_scoring.py --hands 50000 --seed 7
"""

from __future__ import annotations

import argparse
import random
import time

from compliance.games.yuhuan.options import YuhuanOptions
from compliance.games.yuhuan.record import hand_context
from compliance.games.yuhuan.score import best_scoring
from compliance.games.yuhuan.simulator import deal_round
from compliance.games.yuhuan.tiles import INDEX
from compliance.games.yuhuan.win import suit_decompositions, suit_need


def winning_hands(n: int, seed: int) -> list:
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        rnd = deal_round(rng, ["a", "b", "c", "d"])
        if rnd.win is None:
            continue
        hand = next(h for h in rnd.hands if h.player == rnd.win.player)
        ctx = hand_context(
            hand.tiles, hand.melds, hand.flowers, hand.wind, rnd.wildcard, "bench", 17
        )
        ctx.win_tile = INDEX[rnd.win.tile]
        ctx.win_wild = rnd.win.tile == rnd.wildcard
        ctx.self_drawn = rnd.win.from_ is None
        hands.append(ctx)
    return hands


def timed(hands: list, options: YuhuanOptions) -> float:
    start = time.perf_counter()
    for ctx in hands:
        best_scoring(ctx, options)
    return len(hands) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hands = winning_hands(args.hands, args.seed)
    wild = sum(1 for h in hands if h.wildcards) / len(hands)
    options = YuhuanOptions()
    cold = timed(hands, options)
    warm = timed(hands, options)
    fresh = timed(winning_hands(args.hands, args.seed + 1), options)
    print(f"yuhuan scoring: {len(hands)} winning hands, {wild:.0%} with 財神")
    print(f"  cold caches:   {cold:,.0f} full scorings/s")
    print(f"  warm caches:   {warm:,.0f} full scorings/s (same hands again)")
    print(f"  new hands:     {fresh:,.0f} full scorings/s (caches warm from other hands)")
    print(
        f"  cache entries: suit_need {suit_need.cache_info().currsize}, decompositions {suit_decompositions.cache_info().currsize}"
    )


if __name__ == "__main__":
    main()
