"""计算期间: over what span of days a rule's window counts, back from its last session.

A band's `window` says it the way its text does: `"6 months"` (重庆 条例 art. 19
六个月内), `"1 year"` (一年内), or `"cumulative"` (累计, no period in the text:
every session within the limitation period of the offence, our reading).
Calendar months and years run back to the same day of the month, clamped to
the month's end (08-31 back six months is 02-28), and include that day.
"""

from __future__ import annotations

import calendar
import re
from datetime import date
from decimal import Decimal

from compliance.domain.metrics import PRIOR_METRIC
from compliance.domain.rules import leaves
from compliance.domain.tiers import Tier

CUMULATIVE = "cumulative"
SPAN = re.compile(r"^([1-9][0-9]{0,2}) (month|months|year|years)$")
NUMERALS = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
YEARS_BELOW = re.compile(r"([一二三四五六七八九十]+|[0-9]+)年以下有期徒刑")
ADMINISTRATIVE_MONTHS = (
    6  # 治安管理处罚法 2012 art. 22, 2025 art. 25: 六个月内没有被发现的，不再处罚
)


def valid_window(text: str) -> bool:
    return text == CUMULATIVE or SPAN.match(text) is not None


def months_back(day: date, months: int) -> date:
    """The same day of the month `months` calendar months before `day`, clamped to month end."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last))


def span_start(window: str, end: date) -> date:
    """The first day of a `"N months"` / `"N years"` window ending on `end`."""
    found = SPAN.match(window)
    if found is None:
        raise ValueError(f"not a span of months or years: {window!r}")
    n = int(found.group(1))
    return months_back(end, n if found.group(2).startswith("month") else 12 * n)


def limitation_years(max_prison_years: int) -> int:
    """追诉时效 (刑法 art. 87): 5 years under a maximum below 5, 10 under 5–<10, 15 from 10."""
    if max_prison_years < 5:
        return 5
    if max_prison_years < 10:
        return 10
    return 15


def max_prison_years(text: str) -> int | None:
    """法定最高刑: the largest `N年以下有期徒刑` of a statutory penalty's text, or None."""
    found = [_number(n) for n in YEARS_BELOW.findall(text)]
    return max(found) if found else None


def _number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + NUMERALS[text[1]]
    if text.endswith("十"):
        return 10 * NUMERALS[text[0]]
    return NUMERALS[text[0]] * 10 + NUMERALS[text[-1]] if len(text) == 3 else NUMERALS[text]


def cumulative_start(
    end: date, tier: Tier, penalty_text: str | None, years: int | None = None
) -> tuple[date, str]:
    """累计's first day, and what the period rests on.

    `years` (the audit's `--cumulative-years`) overrides; otherwise a criminal
    tier counts back its limitation period from the maximum sentence of the
    statutory penalty in force, and any other tier the six months within which
    an administrative offence can be punished.
    """
    if years is not None:
        return months_back(end, 12 * years), f"{years} years (--cumulative-years)"
    if tier >= Tier.CRIMINAL:
        most = max_prison_years(penalty_text or "")
        if most is not None:
            n = limitation_years(most)
            return months_back(end, 12 * n), (
                f"{n} years: the limitation period of 刑法 art. 87 for a maximum of {most} years"
            )
        return months_back(end, 12 * 5), "5 years: 刑法 art. 87, no maximum sentence on file"
    return months_back(end, ADMINISTRATIVE_MONTHS), (
        "6 months: 治安管理处罚法 (2012 art. 22; 2025 art. 25) 追究时效"
    )


def priors_within(priors: tuple[date, ...], window: str | None, day: date) -> int:
    """前科: earlier penalties before `day` within a band's window (all before it, without one)."""
    if window is None or window == CUMULATIVE:
        return sum(1 for d in priors if d < day)
    start = span_start(window, day)
    return sum(1 for d in priors if start <= d < day)


def with_priors(values: dict, band, priors: tuple[date, ...], day: date) -> dict:
    """`values` with `prior_penalties` for a band that counts them, where there are priors."""
    if not priors or not any(leaf.metric == PRIOR_METRIC for leaf in leaves(band.condition)):
        return values
    return {**values, PRIOR_METRIC: Decimal(priors_within(priors, band.window, day))}
