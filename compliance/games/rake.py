"""抽水 in simulated rooms: the share of each round's winnings a room takes.

Each simulator draws its room's rate from a second stream seeded from the
session's generator as it stands, without drawing from it: the cards, bets
and claims a seed gave before rake was simulated stay the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

RAKE_PERCENTS = (0, 0, 3, 5)  # as 斗牛's rooms: most take none, some 3 % or 5 % of winnings


def rake_percent(rng: random.Random) -> int:
    """The room's 抽水 rate for one session, drawn beside `rng`, which is left as it was."""
    return random.Random(f"rake:{rng.getstate()!r}").choice(RAKE_PERCENTS)


def with_rake(record: dict[str, Any], percent: int, won: Iterable[int]) -> dict[str, Any]:
    """The round record with its `rake`: `percent` of what the round's winners won, if any."""
    rake = sum(w for w in won if w > 0) * percent // 100
    if rake:
        record["rake"] = rake
    return record
