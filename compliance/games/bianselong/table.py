"""变色龙 table: the play-by-play state machine, and the penalty points of a card.

The replay and the simulator drive the same `Table`, so a simulated round is
legal by construction and a logged one is checked play by play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from compliance.errors import DealError
from compliance.games import cards
from compliance.games.bianselong.options import BianselongOptions
from compliance.games.bianselong.record import BianselongPlay


def card_points(card: str, opts: BianselongOptions) -> int:
    """罚分: 2–10 at face value, J 20, Q 3, K and A as the variant says."""
    rank = cards.rank_of(card)
    named = {"J": opts.jack_points, "Q": opts.queen_points, "K": opts.king_points}
    return named.get(rank, opts.ace_points if rank == "A" else int(rank) if rank.isdigit() else 0)


@dataclass
class Table:
    """牌桌: hands, stock, discard pile, turn, direction and pending 7s and 8s."""

    opts: BianselongOptions
    order: list[str]
    hands: dict[str, Counter[cards.Card]]
    stock: Counter[cards.Card]
    discard: list[cards.Card]
    named: str | None = None
    direction: int = 1
    turn: int | None = None
    pending_draw: int = 0
    pending_skip: bool = False
    winner: str | None = None
    last_card: cards.Card | None = None
    problems: list[str] = field(default_factory=list)

    @classmethod
    def deal(
        cls,
        opts: BianselongOptions,
        order: list[str],
        hands: dict[str, list[cards.Card]],
        starter: cards.Card,
        decks: int,
    ) -> Table:
        stock = Counter(cards.build_deck(decks))
        for card in [starter, *(c for p in order for c in hands[p])]:
            if stock[card] == 0:
                raise DealError(f"card {card} dealt more often than {decks} deck(s) hold")
            stock[card] -= 1
        table = cls(opts, order, {p: Counter(hands[p]) for p in order}, +stock, [starter])
        if cards.rank_of(starter) == "J":
            table.named = cards.suit_of(starter)
        return table

    @property
    def top(self) -> cards.Card:
        return self.discard[-1]

    def due(self) -> str | None:
        return None if self.turn is None else self.order[self.turn]

    def available(self) -> int:
        return sum(self.stock.values()) + len(self.discard) - 1

    def can_play(self, card: str) -> bool:
        """跟牌: same suit or rank; J on anything but a J; 7 or 8 to pass one on."""
        rank, top_rank = cards.rank_of(card), cards.rank_of(self.top)
        if self.pending_draw:
            return rank == "7"
        if self.pending_skip:
            return rank == "8"
        if rank == "J":
            return top_rank != "J"
        if top_rank == "J":
            return cards.suit_of(card) == self.named
        return rank == top_rank or cards.suit_of(card) == cards.suit_of(self.top)

    def playable(self, player: str) -> list[cards.Card]:
        return sorted(c for c in self.hands[player] if self.hands[player][c] and self.can_play(c))

    def apply(self, play: BianselongPlay) -> list[str]:
        """Carry out one turn; what it breaks, in words (an empty list if nothing)."""
        self.problems = []
        if self.winner is not None:
            return [f"{play.player} plays after {self.winner} went out"]
        if play.player not in self.hands:
            raise DealError(f"{play.player} plays but was not dealt in")
        due = self.due()
        if due is not None and play.player != due:
            self.problems.append(f"{play.player} plays out of turn ({due}'s turn)")
        self.turn = self.order.index(play.player)
        if self.pending_draw:
            self._answer_seven(play)
        elif self.pending_skip:
            self._answer_eight(play)
        else:
            self._take_turn(play)
        if self.winner is None:
            self.turn = (self.turn + self.direction) % len(self.order)
        return self.problems

    def _answer_seven(self, play: BianselongPlay) -> None:
        """7 (rule 罚牌): draw the accumulated cards and lose the turn, or pass it on with a 7."""
        owed = self.pending_draw
        if play.card is not None and not play.draw:
            if cards.rank_of(play.card) != "7":
                self.problems.append(
                    f"{play.player} answers a pending draw of {owed} with {play.card}; only a 7 passes it on"
                )
                self.pending_draw = 0
            self._play_card(play)
            return
        need = min(owed, self.available())
        if play.card is not None or len(play.draw) != need:
            self.problems.append(f"{play.player} owes a draw of {need} and logs {self._what(play)}")
        self.pending_draw = 0
        self._draw(play.player, play.draw)
        if play.card is not None:
            self._play_card(play)

    def _answer_eight(self, play: BianselongPlay) -> None:
        """8 (禁止牌): lose the turn, or pass it on with an 8."""
        self.pending_skip = False
        if play.card is None and not play.draw:
            return
        if play.draw or cards.rank_of(play.card or "") != "8":
            self.problems.append(f"{play.player} is skipped by an 8 and logs {self._what(play)}")
        self._draw(play.player, play.draw)
        if play.card is not None:
            self._play_card(play)

    def _take_turn(self, play: BianselongPlay) -> None:
        if play.card is None and not play.draw:
            if self.available() or self.playable(play.player):
                self.problems.append(f"{play.player} passes without playing or drawing")
            return
        if play.draw:
            could = self.playable(play.player)
            if could:
                self.problems.append(
                    f"{play.player} draws while holding a playable card ({could[0]})"
                )
            need = min(self.opts.stuck_draw, self.available())
            if len(play.draw) != need:
                self.problems.append(f"{play.player} draws {len(play.draw)} cards, not {need}")
            if play.card is not None and not self.opts.play_after_draw:
                self.problems.append(f"{play.player} plays {play.card} after drawing")
            self._draw(play.player, play.draw)
        if play.card is not None:
            if not self.can_play(play.card):
                self.problems.append(f"{play.player} plays {play.card} on {self._top_words()}")
            self._play_card(play)

    def _play_card(self, play: BianselongPlay) -> None:
        card, hand = play.card, self.hands[play.player]
        if card is None or hand[card] == 0:
            raise DealError(f"{play.player} plays {card or ''}, which is not in his hand")
        hand[card] -= 1
        self.discard.append(card)
        rank = cards.rank_of(card)
        if rank == "7":
            self.pending_draw += self.opts.seven_draw
        elif rank == "8":
            self.pending_skip = True
        elif rank == "A":
            self.direction = -self.direction
        elif rank == "J":
            if play.suit is None and hand.total():
                self.problems.append(f"{play.player} plays {card} without naming a suit")
            self.named = play.suit or cards.suit_of(card)
        if play.suit is not None and rank != "J":
            self.problems.append(f"{play.player} names a suit with {card}, which is not a J")
        if hand.total() == 0:
            self.winner, self.last_card = play.player, card

    def _draw(self, player: str, drawn: Sequence[cards.Card]) -> None:
        for card in drawn:
            if not self.stock.total() and len(self.discard) > 1:
                self.stock = Counter(self.discard[:-1])
                self.discard = self.discard[-1:]
            if self.stock[card] == 0:
                raise DealError(f"{player} draws {card}, which is not in the stock")
            self.stock[card] -= 1
            self.stock = +self.stock
            self.hands[player][card] += 1

    def _top_words(self) -> str:
        if cards.rank_of(self.top) == "J":
            return f"{self.top} naming {self.named} (no J on a J)"
        return f"{self.top} (must match its suit or rank)"

    @staticmethod
    def _what(play: BianselongPlay) -> str:
        if play.card is None and not play.draw:
            return "a pass"
        drawn = f"a draw of {len(play.draw)}" if play.draw else ""
        played = f"{play.card}" if play.card else ""
        return " and ".join(x for x in (drawn, played) if x)

    def penalties(self) -> dict[str, int]:
        """罚分: cards left at face value, doubled when the winner went out on a J."""
        if self.winner is None:
            return dict.fromkeys(self.order, 0)
        double = cards.rank_of(self.last_card or "") == "J"
        factor = self.opts.last_jack_multiplier if double else 1
        return {
            p: 0
            if p == self.winner
            else factor * sum(card_points(c, self.opts) * n for c, n in hand.items())
            for p, hand in self.hands.items()
        }
