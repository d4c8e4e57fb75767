"""扯旋下注: the betting of one round replayed action by action.

Seed 001: speaking starts with the player after the dealer (莊家的下一家);
大 raises without reaching the 簸簸, 跟 matches, 敲 puts in the whole 簸簸 and
ends that player's betting, 休 passes only while nobody has bet in that deal
round ("如果有玩家下注，就不能休"), 丢 folds and a timeout is a 丢, a deal
round where everyone 休 voids the game. The first breach is reported with its
deal round and action; the rest of the round is then applied as logged,
without further checks, so the chips still add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

import msgspec

from compliance.logs.bounds import Points

Act = Literal["大", "跟", "敲", "休", "丢", "超时", "逃跑"]
RAISE: Final = "大"
CALL: Final = "跟"
ALL_IN: Final = "敲"
CHECK: Final = "休"
FOLD: Final = "丢"
TIMEOUT: Final = "超时"
ESCAPE: Final = "逃跑"


class ChexuanAction(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """发话: one action; `amount` is the chips it adds (required for 大)."""

    player: str
    act: Act
    amount: Points | None = None


@dataclass(slots=True)
class Betting:
    """What the betting left on the table: chips bet (beyond the ante) and who is still in."""

    bets: dict[str, int]
    folded: list[str] = field(default_factory=list)
    all_in: set[str] = field(default_factory=set)
    escaped: str | None = None
    void: bool = False
    escape_folds: bool = False
    problem: str | None = None

    def live(self, seats: Sequence[str]) -> list[str]:
        return [p for p in seats if p not in self.folded]


class DealRound:
    """One deal round's betting, checked as it goes."""

    def __init__(
        self,
        state: Betting,
        seats: list[str],
        rooms: dict[str, int],
        number: int,
        start: int,
        strict: bool,
    ) -> None:
        self.state, self.seats, self.rooms, self.number = state, seats, rooms, number
        self.strict = strict
        self.level = max(state.bets.values())
        self.last = start
        self.opened = False
        self.to_act = [p for p in self._cycle() if self._active(p)]
        self.closed = False

    def _cycle(self) -> list[str]:
        n = len(self.seats)
        return [self.seats[(self.last + 1 + i) % n] for i in range(n)]

    def _active(self, p: str) -> bool:
        return p not in self.state.folded and p not in self.state.all_in

    def flag(self, message: str) -> None:
        if self.strict and self.state.problem is None:
            self.state.problem = f"deal round {self.number}: {message}"
        self.strict = False

    def expected(self) -> str | None:
        n = len(self.seats)
        for i in range(1, n + 1):
            p = self.seats[(self.last + i) % n]
            if p in self.to_act:
                return p
        return None

    def apply(self, action: ChexuanAction) -> None:
        p, act, st = action.player, action.act, self.state
        if self.closed or p in st.folded or p in st.all_in:
            why = "after the betting closed" if self.closed else "after leaving the betting"
            self.flag(f"{p} {act} {why}")
        elif act != ESCAPE and p != self.expected():
            self.flag(f"{p} {act} out of turn ({self.expected()} to act)")
        bet, room = st.bets[p], self.rooms[p]
        if act == CHECK:
            if self.opened:
                self.flag(f"{p} 休 after a bet")
        elif act == CALL:
            need = self.level - bet
            if need <= 0:
                self.flag(f"{p} 跟 with nothing to match")
            elif self.level > room:
                self.flag(f"{p} 跟 {need} beyond the 簸簸 ({room - bet} left), must 敲 or 丢")
            elif action.amount is not None and action.amount != need:
                self.flag(f"{p} 跟 {action.amount} where {need} was to match")
            self._put(p, min(max(need, 0), room - bet))
        elif act == RAISE:
            amount = action.amount or 0
            if amount <= 0:
                self.flag(f"{p} 大 without an amount")
            elif bet + amount <= self.level:
                self.flag(f"{p} 大 {amount} does not exceed {self.level - bet}")
            elif bet + amount > room:
                self.flag(f"{p} 大 {amount} beyond the 簸簸 ({room - bet} left)")
            self._put(p, max(amount, 0))
        elif act == ALL_IN:
            need = room - bet
            if need <= 0:
                self.flag(f"{p} 敲 with nothing left")
            elif action.amount is not None and action.amount != need:
                self.flag(f"{p} 敲 {action.amount} where the 簸簸 leaves {need}")
            self._put(p, max(need, 0))
            st.all_in.add(p)
        elif act in (FOLD, TIMEOUT) or st.escape_folds:
            if p not in st.folded:
                st.folded.append(p)
        else:
            st.escaped = p
        if p in self.to_act:
            self.to_act.remove(p)
        self.last = self.seats.index(p)
        if st.bets[p] >= room and p not in st.folded:
            st.all_in.add(p)
        if len(self.seats) - len(st.folded) <= 1 or st.escaped or not self.to_act:
            self.closed = True

    def _put(self, p: str, chips: int) -> None:
        st = self.state
        st.bets[p] += chips
        if chips > 0:
            self.opened = True
        if st.bets[p] > self.level:
            self.level = st.bets[p]
            self.to_act = [q for q in self._cycle() if q != p and self._active(q)]


def can_bet(state: Betting, seats: Sequence[str]) -> bool:
    """Whether a deal round has any betting: two players who can still act, or one owing chips."""
    level = max(state.bets.values())
    live = state.live(seats)
    active = [p for p in live if p not in state.all_in]
    if len(live) <= 1 or not active:
        return False
    return len(active) >= 2 or state.bets[active[0]] < level


def replay_betting(
    seats: list[str],
    dealer: str,
    rooms: dict[str, int],
    rounds: Sequence[Sequence[ChexuanAction]],
    deal_rounds: int,
    escape_folds: bool = False,
) -> Betting:
    """Replay the logged deal rounds; `rooms` is what each player may bet beyond the ante."""
    state = Betting(bets=dict.fromkeys(seats, 0), escape_folds=escape_folds)
    state.all_in = {p for p in seats if rooms[p] <= 0}
    start = seats.index(dealer)
    strict = True
    for number in range(1, deal_rounds + 1):
        actions = rounds[number - 1] if number <= len(rounds) else None
        if not can_bet(state, seats):
            if actions:
                strict = _flag(
                    state,
                    strict,
                    f"deal round {number}: {actions[0].player} "
                    f"{actions[0].act} when no betting was open",
                )
            continue
        if actions is None:
            _flag(state, strict, f"deal round {number}: no actions logged")
            break
        betting = DealRound(state, seats, rooms, number, start, strict)
        for action in actions:
            betting.apply(action)
            if state.escaped:
                return state
        strict = betting.strict
        if not betting.closed and betting.to_act:
            strict = _flag(
                state,
                strict,
                f"deal round {number}: ended with {', '.join(betting.to_act)} still to act",
            )
        if (
            actions
            and all(a.act == CHECK for a in actions)
            and not (set(state.live(seats)) & state.all_in)
        ):
            state.void = True
            return state
    return state


def _flag(state: Betting, strict: bool, message: str) -> bool:
    if strict and state.problem is None:
        state.problem = message
    return False
