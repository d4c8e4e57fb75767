"""自称的事实: what a log says of itself, checked before it is believed.

A tournament whose organiser funds the prize has no 赌资 (2005 interpretation
art. 8), but only while its rounds carry scores: points with a value of a
point move money, whatever the log calls the session.
"""

from __future__ import annotations

from decimal import Decimal

from compliance.domain.rounds import SESSION_ROUND, TOURNAMENT_IN_YUAN, Integrity


def is_prize_only(tournament: bool, organiser_funded: bool, point_value: Decimal | None) -> bool:
    """组织者奖金: a tournament whose only money is the organiser's prize."""
    return tournament and organiser_funded and point_value is None


def tournament_in_yuan(
    tournament: bool, organiser_funded: bool, point_value: Decimal | None
) -> Integrity | None:
    """比赛结算为钱: an organiser-funded tournament whose points have a value in yuan."""
    if not (tournament and organiser_funded and point_value is not None):
        return None
    return Integrity(
        SESSION_ROUND,
        TOURNAMENT_IN_YUAN,
        f"a tournament with an organiser-funded prize whose points are worth {point_value} "
        "yuan each: its rounds move money, so the prize exempts no one "
        "(2005 interpretation art. 8) and the session is judged on its stakes",
    )
