"""吃火锅: the four-player pot game of seed 004 (in-between, 射龙门-like).

Each player antes a share (底料) into the pot (火锅); in turn a player sees two
cards face up and passes (放弃) or bets (添菜). A third card strictly between
the two wins the bet from the pot, one outside pays the bet into it, one equal
to an end (牛角尖) pays twice the bet (four times on A and K); with a pair, only
the room's minimum may be bet and a third of that rank takes the whole pot.

One round record is one turn. The pot and every player's chips carry from turn
to turn; the engine keeps its own and checks the log's against them, so pot +
chips stays constant (the `carried` of each result is what went into the pot).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from compliance.domain.rounds import (
    ILLEGAL_ACTION,
    SETTLEMENT_MISMATCH,
    Integrity,
    RoundResult,
)
from compliance.errors import DealError, LogError
from compliance.games import cards
from compliance.games.base import Engine, compare_claims, decode_rounds
from compliance.games.chihuoguo.bets import describe_turn, is_pair, settle_bet
from compliance.games.chihuoguo.options import ChihuoguoOptions
from compliance.games.chihuoguo.record import ChihuoguoTurn
from compliance.logs.records import Session, Variant

# Not a breach of the log: the seed lets a 牛角尖 cost more than a player holds.
NEGATIVE_CHIPS = "negative_chips"
MAX_ANTE = 10**12
"""The largest 底料 share a table takes, in points: beyond it a figure means nothing."""


def bet_breaches(turn: ChihuoguoTurn, chips: int, pot: int, opts: ChihuoguoOptions) -> list[str]:
    """添菜 limits of rules 7, 8, 9 and 14, in the seed's words where it has them."""
    if turn.action == "pass":
        return [f"a pass carries a bet of {turn.bet}"] if turn.bet else []
    bet, found = turn.bet, []
    if is_pair(turn.ends) and bet != opts.min_bet:
        found.append(f"bet {bet} on a pair; only the minimum {opts.min_bet} may be bet")
    if bet < opts.min_bet:
        found.append(f"bet {bet} is below the room's minimum {opts.min_bet}")
    if bet > pot:
        found.append(f"bet {bet} is over the pot of {pot}")
    if bet * 2 > chips:
        found.append(f"bet {bet} is over half of the player's {chips} chips")
    if bet > opts.max_bet:
        found.append(f"bet {bet} is over the cap of {opts.max_bet}")
    return found


@dataclass
class Table:
    """火锅桌: the carried state, the pot and each player's chips."""

    seats: list[str]
    opts: ChihuoguoOptions
    chips: dict[str, int]
    pot: int = 0
    last_player: str | None = None
    orbit_cards: dict[str, int] = field(default_factory=dict)

    def play(self, index: int, turn: ChihuoguoTurn) -> RoundResult:
        self._check_structure(index, turn)
        issues = self._check_figures(index, turn)
        issues += self._check_order(index, turn)
        before = dict(self.chips)
        deltas = dict.fromkeys(self.seats, 0)
        issues += self._take_antes(index, turn, deltas)
        breaches = bet_breaches(turn, self.chips[turn.player], self.pot, self.opts)
        if breaches:
            detail = f"round {index}: {turn.player}: " + "; ".join(breaches)
            issues.append(Integrity(index, ILLEGAL_ACTION, detail, (turn.player,)))
        stakes = dict.fromkeys(self.seats, 0)
        if turn.action == "bet" and turn.third is not None:
            outcome = settle_bet(turn.ends, turn.third, turn.bet, self.pot, self.opts)
            deltas[turn.player] += outcome.delta
            self.chips[turn.player] += outcome.delta
            self.pot -= outcome.delta
            stakes[turn.player] = turn.bet
        issues += self._negative_chips(index, before, turn)
        mismatch = compare_claims(index, deltas, turn.claimed)
        if mismatch:
            issues.append(mismatch)
        self.last_player = turn.player
        return RoundResult(
            index, deltas, stakes, rake=turn.rake, carried=-sum(deltas.values()), issues=issues
        )

    def _check_structure(self, index: int, turn: ChihuoguoTurn) -> None:
        named = [turn.player, *turn.antes, *(turn.chips or {})]
        strangers = [p for p in named if p not in self.chips]
        if strangers:
            raise DealError(f"round {index}: player {strangers[0]} is not in the session")
        for player, amount in turn.antes.items():
            if amount > MAX_ANTE:
                raise DealError(
                    f"round {index}: antes: {player}'s ante {amount} is beyond any table's "
                    f"(at most {MAX_ANTE:,} points)"
                )
        if len(turn.ends) != 2:
            raise DealError(f"round {index}: {len(turn.ends)} face-up cards, need 2")
        if (turn.action == "bet") != (turn.third is not None):
            want = (
                "a bet needs a third card" if turn.action == "bet" else "a pass gets no third card"
            )
            raise DealError(f"round {index}: {want}")
        dealt = [*turn.ends, *([turn.third] if turn.third else [])]
        for card in dealt:
            if card in cards.JOKERS:
                raise DealError(f"round {index}: joker {card} is not in the 52-card deck")
        if (index - 1) % self.opts.seats == 0:
            self.orbit_cards = {}
        for card in dealt:
            if card in self.orbit_cards:
                first = self.orbit_cards[card]
                raise DealError(
                    f"round {index}: card {card} already dealt in round {first} of the same orbit"
                )
            self.orbit_cards[card] = index

    def _check_figures(self, index: int, turn: ChihuoguoTurn) -> list[Integrity]:
        """The log's pot and chips against the carried ones (pot + chips constant)."""
        found = []
        if turn.pot is not None and turn.pot != self.pot:
            detail = f"round {index}: pot before the turn logged as {turn.pot}, carried {self.pot}"
            found.append(Integrity(index, SETTLEMENT_MISMATCH, detail))
        wrong = {p: n for p, n in (turn.chips or {}).items() if n != self.chips[p]}
        if wrong:
            detail = f"round {index}: chips before the turn: " + "; ".join(
                f"{p} logged {n}, carried {self.chips[p]}" for p, n in wrong.items()
            )
            expected = {p: self.chips[p] for p in wrong}
            found.append(
                Integrity(index, SETTLEMENT_MISMATCH, detail, tuple(wrong), wrong, expected)
            )
        return found

    def _check_order(self, index: int, turn: ChihuoguoTurn) -> list[Integrity]:
        """Rule 4: turns go round the table in seat order."""
        if self.last_player is None:
            return []
        due = self.seats[(self.seats.index(self.last_player) + 1) % len(self.seats)]
        if turn.player == due:
            return []
        detail = f"round {index}: {turn.player} dealt out of turn ({due}'s turn)"
        return [Integrity(index, ILLEGAL_ACTION, detail, (turn.player,))]

    def _take_antes(
        self, index: int, turn: ChihuoguoTurn, deltas: dict[str, int]
    ) -> list[Integrity]:
        """底料 (rule 3): one equal share each."""
        found = []
        shares = set(turn.antes.values())
        if self.opts.ante is not None:
            shares.add(self.opts.ante)
        if len(shares) > 1:
            paid = ", ".join(f"{p} {n}" for p, n in turn.antes.items())
            detail = f"round {index}: unequal antes ({paid}; the room's share is {self.opts.ante})"
            found.append(Integrity(index, ILLEGAL_ACTION, detail, tuple(turn.antes)))
        for player, amount in turn.antes.items():
            self.chips[player] -= amount
            self.pot += amount
            deltas[player] -= amount
        return found

    def _negative_chips(
        self, index: int, before: dict[str, int], turn: ChihuoguoTurn
    ) -> list[Integrity]:
        found = []
        for player in self.seats:
            if self.chips[player] < 0 <= before[player]:
                detail = (
                    f"round {index}: {player}'s chips fall from {before[player]} to "
                    f"{self.chips[player]} (the seed allows a loss beyond his chips up to the "
                    f"{self.opts.loss_cap} cap)"
                )
                found.append(Integrity(index, NEGATIVE_CHIPS, detail, (player,)))
        return found


def starting_chips(session: Session, turns: list[ChihuoguoTurn]) -> dict[str, int]:
    """Chips before round 1: the players' buy-ins, else round 1's logged chips."""
    seats = [p.id for p in session.players]
    buy_ins = {p.id: p.buy_in for p in session.players if p.buy_in is not None}
    if len(buy_ins) == len(seats):
        return {p: int(n) for p, n in buy_ins.items()}
    logged = (turns[0].chips or {}) if turns else {}
    if set(logged) >= set(seats):
        return {p: logged[p] for p in seats}
    raise LogError("吃火锅 needs every player's chips: give buy_in or round 1's chips")


class Chihuoguo(Engine):
    """吃火锅 engine."""

    def replay(self, session: Session) -> Iterator[RoundResult]:
        opts = self.options_for(session.variant)
        seats = [p.id for p in session.players]
        if len(seats) != opts.seats:
            raise LogError(
                f"吃火锅 is played by {opts.seats} players, the session has {len(seats)}"
            )
        turns = decode_rounds(session.rounds, ChihuoguoTurn)
        if not turns:
            return
        table = Table(seats, opts, starting_chips(session, turns), turns[0].pot or 0)
        for index, turn in enumerate(turns, 1):
            yield table.play(index, turn)

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """Which third cards win, post or lose for two ends; the outcome if a third is given."""
        return describe_turn(hand, self.options_for(variant))
