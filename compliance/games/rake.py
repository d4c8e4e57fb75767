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


SEAT_RAKE = ("douniu",)  # the games whose rake is per seat and withheld from `claimed`


def platform_rake(code: str, rounds: list[dict[str, Any]], percent: int) -> list[dict[str, Any]]:
    """The rounds with the room's rake replaced (for the platform's duties, check 9): none
    when `percent` is 0, else `percent` of the winnings, rounded down: of each winning
    seat in 斗牛 (withheld from its claim), of what the round's winners won in the others.
    What each seat won before rake is left as it was, so the rounds still settle."""
    for record in rounds:
        if code in SEAT_RAKE:
            for seat in record["seats"]:
                won = seat["claimed"] + seat.pop("rake", 0)
                fee = won * percent // 100 if won > 0 else 0
                if fee:
                    seat["rake"] = fee
                seat["claimed"] = won - fee
            continue
        record.pop("rake", None)
        claims = record.get("claimed")
        paid = (
            claims.values()
            if isinstance(claims, dict)
            else (s.get("claimed", 0) for s in record.get("seats", ()))
        )
        with_rake(record, percent, list(paid))
    return rounds
