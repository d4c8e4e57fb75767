"""分: money in exact integer cents, rounded as the reference's `Decimal` rounds it.

A point value is numerator × 10^−places yuan (at most four places, the
reader's bound); points × point value in cents is an integer division
rounded half to even, which is what `metrics.to_yuan` (`Decimal.quantize`,
the default context) gives. `within_bounds` is `storable.check_figures`
worked out in integers: a session it passes, the reference passes too.
"""

from __future__ import annotations

from decimal import Decimal

from compliance.domain.storable import MAX_YUAN

NEG_ZERO = Decimal("-0.00")
ZERO = Decimal(0)
LIMIT = MAX_YUAN * 100
"""The cents no stored money figure reaches (`storable.check_figures`)."""
MAX_KEPT = 1 << 12  # larger, it fills over 100,000s of sessions: memory grows, CPU not less


def cents(points: int, scale: tuple[int, int]) -> int:
    """Points × point value in cents, rounded half to even (`to_yuan`'s rounding)."""
    numerator, places = scale
    exact = points * numerator
    if places <= 2:
        return exact * 10 ** (2 - places)
    divisor = 10 ** (places - 2)
    whole, rest = divmod(exact, divisor)
    if 2 * rest > divisor or (2 * rest == divisor and whole & 1):
        whole += 1
    return whole


def scale_of(point_value: Decimal) -> tuple[int, int]:
    """A point value as (numerator, places): numerator × 10^−places yuan."""
    sign, digits, exponent = point_value.as_tuple()
    numerator = int("".join(map(str, digits))) * (-1 if sign else 1)
    at = int(exponent)
    return (numerator * 10**at, 0) if at >= 0 else (numerator, -at)


def within_bounds(summary, scale: tuple[int, int], fixed: int) -> bool:
    """Whether `storable.check_figures` passes the session, worked out in integers: every
    money figure below 10^15 yuan at the point value (numerator × 10^−places)."""
    numerator, places = scale
    most = MAX_YUAN * 10**places
    total = won = 0
    for t in summary.players.values():
        total += t.staked + t.won
        won += max(t.net, 0)
        for points in (t.max_stake, t.max_round_swing, t.net, t.max_cap or 0):
            if abs(points * numerator) >= most:
                return False
    return all(abs(x * numerator) < most for x in (total, summary.rake, fixed, won))


class Yuan(dict):
    """Cents → their `Decimal` in yuan (`Decimal(at).scaleb(-2)`), kept for the values met
    most (at most MAX_KEPT): a batch's figures repeat (stakes, buy-ins, round results)."""

    __slots__ = ()

    def __missing__(self, at: int) -> Decimal:
        if len(self) >= MAX_KEPT:
            self.clear()
        found = self[at] = Decimal(at).scaleb(-2)
        return found
