"""快速下注: the betting of a round replayed in one loop, for rounds that break no rule.

Equal to `betting.replay_betting` wherever it returns a `Betting`: the same
chips, folds, 敲, escape and void. At the first action that `DealRound` would
flag (out of turn, 休 after a bet, an amount that does not fit, a deal round
left open) it returns None and the caller replays the round with the
reference, which words the breach. `tests/unit/games/test_chexuan_fast.py`
holds the two equal.
"""

from __future__ import annotations

from collections.abc import Sequence

from compliance.games.chexuan.betting import (
    ALL_IN,
    CALL,
    CHECK,
    ESCAPE,
    FOLD,
    RAISE,
    TIMEOUT,
    Betting,
    ChexuanAction,
)


def fast_betting(
    seats: list[str],
    dealer: str,
    rooms: dict[str, int],
    rounds: Sequence[Sequence[ChexuanAction]],
    deal_rounds: int,
    escape_folds: bool = False,
) -> Betting | None:
    """`replay_betting` for a round without breaches; None where the reference would flag one."""
    n = len(seats)
    bets = dict.fromkeys(seats, 0)
    folded: list[str] = []
    all_in = {p for p in seats if rooms[p] <= 0}
    state = Betting(bets, folded, all_in, escape_folds=escape_folds)
    position = {p: i for i, p in enumerate(seats)}
    start = seats.index(dealer)
    for number in range(1, deal_rounds + 1):
        actions = rounds[number - 1] if number <= len(rounds) else None
        level = max(bets.values())
        active = [p for p in seats if p not in folded and p not in all_in]
        if n - len(folded) <= 1 or not active or (len(active) < 2 and bets[active[0]] >= level):
            if actions:
                return None
            continue
        if actions is None:
            return None
        last = start
        opened = closed = False
        checks_only = True
        to_act = set(active)
        for action in actions:
            p, act = action.player, action.act
            if act != CHECK:
                checks_only = False
            if closed or p in folded or p in all_in:
                return None
            if act != ESCAPE:  # p must be the first of `to_act` after the last to act
                if p not in to_act:
                    return None
                at = position[p]
                i = last + 1 if last + 1 < n else 0
                while i != at:
                    if seats[i] in to_act:
                        return None
                    i = i + 1 if i + 1 < n else 0
            bet, room = bets[p], rooms[p]
            chips = 0
            if act == CHECK:
                if opened:
                    return None
            elif act == CALL:
                chips = level - bet
                if (
                    chips <= 0
                    or level > room
                    or (action.amount is not None and action.amount != chips)
                ):
                    return None
            elif act == RAISE:
                chips = action.amount or 0
                if chips <= 0 or bet + chips <= level or bet + chips > room:
                    return None
            elif act == ALL_IN:
                chips = room - bet
                if chips <= 0 or (action.amount is not None and action.amount != chips):
                    return None
            elif act in (FOLD, TIMEOUT) or escape_folds:
                folded.append(p)
            else:
                state.escaped = p
            if chips:
                bets[p] = bet = bet + chips
                opened = True
                if bet > level:
                    level = bet
                    to_act = {q for q in seats if q != p and q not in folded and q not in all_in}
            if act == ALL_IN:
                all_in.add(p)
            to_act.discard(p)
            last = position[p]
            if bets[p] >= room and p not in folded:
                all_in.add(p)
            if state.escaped:
                return state
            if n - len(folded) <= 1 or not to_act:
                closed = True
        if not closed and to_act:
            return None
        if checks_only and not any(p in all_in for p in seats if p not in folded):
            state.void = True
            return state
    return state
