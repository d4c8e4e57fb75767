"""取值范围: the least and most every number of a log may be, and the longest texts.

Beyond any real game yet within what the database holds: amounts in points
up to 10^15 (a 64-bit integer holds 9.2 × 10^18, so a multiplier up to 10^3
on top still fits; money above 10^15 yuan after × point_value is refused
when a session is judged), multipliers up to 1,000, counts of cards, decks or
tiles up to what a table could hold. The decoder enforces them and the JSON
Schema shows them (docs/log-format.md, "Limits").
"""

from __future__ import annotations

from typing import Annotated

import msgspec

MAX_POINTS = 10**15
MAX_MULTIPLIER = 1_000
MAX_PLAYERS = 100
MAX_ROUNDS = 100_000
NAME_LENGTH = 256

Points = Annotated[int, msgspec.Meta(ge=0, le=MAX_POINTS)]
SignedPoints = Annotated[int, msgspec.Meta(ge=-MAX_POINTS, le=MAX_POINTS)]
PositivePoints = Annotated[int, msgspec.Meta(ge=1, le=MAX_POINTS)]
Multiplier = Annotated[int, msgspec.Meta(ge=1, le=MAX_MULTIPLIER)]
Name = Annotated[str, msgspec.Meta(max_length=NAME_LENGTH)]
