"""对冲输赢的速度: check 18's two-pass pair search at scale, CPU time and peak memory.

`python -m bench.mirrored [ACCOUNTS] [SESSIONS]` (default 100,000 and 500,000): sessions
of three to six players drawn mostly from circles of 20 accounts (so pairs meet again
and again, as regulars do), zero-sum nets in cents, and one dumping pair per 1,000
accounts; the sessions are made by a seeded generator each pass (nothing held), and its
own CPU is measured apart (a pass alone, generating and nothing else). Prints the CPU of
each pass with its generating, the pairs held after the first, the pairs found, and the
peak resident memory above the baseline
(docs/performance.md, "Mirrored gains").
"""

from __future__ import annotations

import random
import resource
import sys
import time
from collections.abc import Iterator

from compliance.domain.mirrored import MirrorParameters, Table, first_pass, second_pass

CIRCLE = 20


def sessions(accounts: int, count: int, seed: int = 1) -> Iterator[Table]:
    rng = random.Random(seed)
    pairs = accounts // 1000
    dumping_every = max(1, count // (pairs * 15)) if pairs else 0
    for n in range(count):
        if pairs and n % dumping_every == 0 and n // dumping_every < pairs * 15:
            k, meeting = (n // dumping_every) % pairs, (n // dumping_every) // pairs
            lost = rng.randint(20_000, 60_000)
            a, b = rng.randint(-500, 500), rng.randint(-500, 500)
            nets = ((f"mule{k}", -lost), (f"boss{k}", lost - a - b), ("x", a), ("y", b))
            yield Table(f"s{n}", f"room{meeting % 4}", nets)
            continue
        size = rng.randint(3, 6)
        circle = rng.randrange(accounts // CIRCLE)
        seated = {
            f"u{circle * CIRCLE + rng.randrange(CIRCLE)}"
            if rng.random() < 0.8
            else f"u{rng.randrange(accounts)}"
            for _ in range(size)
        }
        players = sorted(seated)
        results = [rng.randint(-50_000, 50_000) for _ in players[:-1]]
        results.append(-sum(results))
        yield Table(
            f"s{n}", f"room{rng.randrange(5000)}", tuple(zip(players, results, strict=True))
        )


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str]) -> None:
    accounts = int(argv[0]) if argv else 100_000
    count = int(argv[1]) if len(argv) > 1 else 500_000
    p = MirrorParameters()
    start = time.process_time()
    for _ in sessions(accounts, count):
        pass
    generating = time.process_time() - start
    base = rss_mib()
    start = time.process_time()
    candidates = first_pass(sessions(accounts, count), p)
    first = time.process_time() - start
    start = time.process_time()
    found = list(second_pass(sessions(accounts, count), candidates, p))
    second = time.process_time() - start
    print(
        f"mirrored gains: {accounts:,} accounts, {count:,} sessions; generating them alone "
        f"{generating:.1f} s CPU; first pass with its generating {first:.1f} s CPU, "
        f"{len(candidates):,} pairs held; second pass with its generating {second:.1f} s CPU, {len(found):,} "
        f"pairs found; peak RSS {rss_mib():,.0f} MiB ({rss_mib() - base:,.0f} above the "
        f"{base:,.0f} MiB before the search)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
