"""现场赌资: the cash found or seized at the scene, for the lines that measure it.

Where a band's text measures the 赌资 of the scene (现场收缴赌资, 当场赌资, 东莞's
全部参赌人员赌资总共), a log that gives the cash found is judged on that figure;
otherwise, and for every other band, the scene total is the players' capital
added up (docs/metrics.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from compliance.domain.rules import Band, leaves

SCENE_METRIC = "scene_capital"
SCENE_WORDS = ("现场", "当场", "赌资总共")  # legal.md (e): 当场 / 现场收缴赌资 / 全场赌资总共
SCENE_CASH = "scene_cash"  # the figure used: the cash the log says was found
CAPITAL = "capital"  # the figure used: the players' capital added up


def scene_total(
    session_cash: Decimal | None, players_cash: Iterable[Decimal | None]
) -> Decimal | None:
    """查获赌资合计: the session's cash and each player's, added; None when none is given."""
    given = [c for c in (session_cash, *players_cash) if c is not None]
    return sum(given, Decimal(0)) if given else None


def measures_scene(band: Band) -> bool:
    """现场/当场: a band whose condition reads the scene total and whose text (article or
    note) says so."""
    text = band.article + band.note  # 陕西's article is only "情节严重"; its note quotes 当场赌资
    return any(leaf.metric == SCENE_METRIC for leaf in leaves(band.condition)) and any(
        word in text for word in SCENE_WORDS
    )


def with_scene_cash(values: dict, band: Band, cash: Decimal | None) -> dict:
    """`values` with the cash found as the scene total, for a band that measures the scene."""
    if cash is None or not measures_scene(band):
        return values
    return {**values, SCENE_METRIC: cash}


def scene_figure(band: Band | None, cash: Decimal | None) -> str | None:
    """Which figure a band measuring the scene used: the cash found or the capital; else None."""
    if band is None or not measures_scene(band):
        return None
    return SCENE_CASH if cash is not None else CAPITAL
