"""吃火锅的一注: what a bet on two ends does (seed 004 rules 10, 13, 14), and 看牌 for games eval."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from compliance.errors import DealError
from compliance.games import cards
from compliance.games.chihuoguo.options import ChihuoguoOptions


@dataclass(frozen=True, slots=True)
class Outcome:
    """结果: what a bet does, as the seed's rules 10, 13 and 14 settle it."""

    kind: Literal["pass", "between", "outside", "post", "triple"]
    delta: int


OUTCOME_ZH = {"pass": "放弃", "between": "赢", "outside": "输", "post": "牛角尖", "triple": "三张"}


def is_pair(ends: Sequence[str]) -> bool:
    return cards.rank_number(ends[0]) == cards.rank_number(ends[1])


def post_multiplier(ends: Sequence[str], opts: ChihuoguoOptions) -> int:
    """牛角尖: twice the bet, four times when the two ends are A and K."""
    ranks = {cards.rank_number(c) for c in ends}
    return opts.ace_king_post_multiplier if ranks == {1, 13} else opts.post_multiplier


def settle_bet(
    ends: Sequence[str], third: str, bet: int, pot: int, opts: ChihuoguoOptions
) -> Outcome:
    """The bettor's change in chips; the pot moves by the opposite amount.

    A win never takes more than the pot holds, and one loss is capped (rule 9).
    """
    low, high = sorted(cards.rank_number(c) for c in ends)
    rank = cards.rank_number(third)
    if low == high and rank == low:
        return Outcome("triple", pot)
    if low < rank < high:
        return Outcome("between", min(bet, pot))
    if rank in (low, high):
        return Outcome("post", -min(bet * post_multiplier(ends, opts), opts.loss_cap))
    return Outcome("outside", -min(bet, opts.loss_cap))


def _checked(card: Any) -> str:
    if card not in cards.STANDARD_52:
        raise DealError(f"unknown card {card!r} (吃火锅 uses the 52 cards without jokers)")
    return card


def describe_turn(hand: list[str] | dict[str, Any], opts: ChihuoguoOptions) -> dict[str, Any]:
    """看牌: what each third card does to a bet on these two ends."""
    record: dict[str, Any] = (
        hand
        if isinstance(hand, dict)
        else {"ends": hand[:2], "third": hand[2] if len(hand) > 2 else None}
    )
    ends = [_checked(c) for c in record.get("ends", [])]
    if len(ends) != 2:
        raise DealError(f"吃火锅 needs two face-up cards, got {len(ends)}")
    third = record.get("third")
    low, high = sorted(cards.rank_number(c) for c in ends)
    by_rank = {n: cards.RANKS[n - 1] for n in range(1, 14)}
    left = {n: 4 - sum(cards.rank_number(c) == n for c in ends) for n in by_rank}
    if low == high:
        wins = [low]
        posts: list[int] = []
    else:
        wins = [n for n in by_rank if low < n < high]
        posts = [low, high]
    loses = [n for n in by_rank if n not in wins and n not in posts]
    described: dict[str, Any] = {
        "game": "chihuoguo",
        "ends": ends,
        "pair": is_pair(ends),
        "only_minimum_bet": is_pair(ends),
        "wins": [by_rank[n] for n in wins],
        "wins_whole_pot": is_pair(ends),
        "posts": [by_rank[n] for n in posts],
        "post_multiplier": 0 if is_pair(ends) else post_multiplier(ends, opts),
        "loses": [by_rank[n] for n in loses],
        "cards_left": {
            "win": sum(left[n] for n in wins),
            "post": sum(left[n] for n in posts),
            "lose": sum(left[n] for n in loses),
        },
    }
    if third is not None:
        bet = int(record.get("bet", opts.min_bet))
        pot = int(record.get("pot", bet))
        outcome = settle_bet(ends, _checked(third), bet, pot, opts)
        described.update(
            third=third,
            bet=bet,
            pot=pot,
            outcome=outcome.kind,
            outcome_zh=OUTCOME_ZH[outcome.kind],
            delta=outcome.delta,
        )
    return described
