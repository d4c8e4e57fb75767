"""掼蛋一副牌: the tribute (进贡) and the play of one hand, checked card by card.

`check_tribute` verifies the tribute against the previous hand's finishing
order (seed 003 掼蛋 五、进贡); `play_out` replays the logged plays trick by
trick: the right player's turn, cards held, a legal combination that beats the
table, and 借风 when a player goes out unbeaten (四、胜负判定). The first
breach ends the check of a hand; the replay goes on with the log's own order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from compliance.games.cards import rank_of
from compliance.games.guandan import combos

Breach = tuple[str, tuple[str, ...]]  # what went wrong, and who did it


def partner(seats: Sequence[str], player: str) -> str:
    """对门: partners sit opposite."""
    return seats[(seats.index(player) + 2) % 4]


def team(seats: Sequence[str], player: str) -> int:
    return seats.index(player) % 2


def missing(hand: Counter, cards: Sequence[str]) -> list[str]:
    """Cards of the play the player does not hold (two decks: counts matter)."""
    short = Counter(cards) - hand
    return sorted(short.elements())


@dataclass(slots=True)
class PlayOutcome:
    """How the plays went: the finishing order they give, or the first breach."""

    order: list[str] | None
    problem: str | None = None
    trick: int = 0
    player: str | None = None


class Table:
    """牌桌: whose turn it is, the play to beat, and who has gone out (上游 first).

    Cards held are counted per player (`held`) and per team out (`out`) so a play
    costs a few lookups; each play's cards are read once per distinct play (`combos.reading`).
    """

    def __init__(self, hands: dict[str, Counter], seats: Sequence[str], leader: str, level: str):
        self.hands = {p: Counter({c: n for c, n in h.items() if n > 0}) for p, h in hands.items()}
        self.seats = list(seats)
        self.level = level
        self.turn = leader
        self.table: combos.Combo | None = None
        self.owner = leader
        self.passes = 0
        self.trick = 1
        self.finished: list[str] = []
        self.index = {p: i for i, p in enumerate(self.seats)}
        self.after = {p: [*self.seats[i + 1 :], *self.seats[: i + 1]] for i, p in enumerate(seats)}
        self.held = {p: sum(self.hands[p].values()) for p in self.seats}
        self.live = {p: bool(self.hands[p]) for p in self.seats}
        self.active = sum(self.live.values())
        self.out = [0, 0]
        self.done = False
        self.beat: combos.Reading | None = None

    @property
    def over(self) -> bool:
        return self.done

    @property
    def order(self) -> list[str]:
        return self.finished + [p for p in self.seats if p not in self.finished]

    def apply(self, player: str, cards: Sequence[str], declared: str | None = None) -> str | None:
        """One play or pass; the breach it commits, or None and the table moves on."""
        if self.done:
            return f"{player} plays after the hand is over"
        if player != self.turn:
            return f"{player} played out of turn ({self.turn} to play)"
        if not cards:
            if self.table is None:
                return f"{player} passed on the lead"
            self.passes += 1
        else:
            hand = self.hands[player]
            need, readings = combos.reading(tuple(cards), self.level)
            for card, count in need:
                if hand[card] < count:
                    return f"{player} plays {' '.join(missing(hand, cards))} not held"
            chosen = combos.pick(readings, self.beat, declared)
            if chosen is None:
                return f"{player}: {combos.choose(cards, self.level, self.table, declared)[1]}"
            for card, count in need:
                left = hand[card] - count
                if left > 0:
                    hand[card] = left
                else:
                    hand.pop(card)  # dict's own: Counter's __delitem__ is Python
            self.table, self.beat, self.owner, self.passes = chosen.combo, chosen, player, 0
            self.held[player] -= len(cards)
            if self.held[player] <= 0 and self.live[player]:
                self._go_out(player)
                if self.done:
                    return None
        others = self.active - self.live[self.owner]
        if self.passes == others:
            self.turn = (
                self.owner if self.live[self.owner] else partner(self.seats, self.owner)
            )  # 借风
            self.table, self.beat, self.passes, self.trick = None, None, 0, self.trick + 1
        else:
            live = self.live
            for nxt in self.after[player]:
                if live[nxt]:
                    self.turn = nxt
                    break
            else:
                self.turn = player
        return None

    def _go_out(self, player: str) -> None:
        self.finished.append(player)
        self.live[player] = False
        self.active -= 1
        side = self.index[player] % 2
        self.out[side] += 1
        self.done = self.out[side] == 2


def play_out(
    plays: Sequence[Any],
    hands: dict[str, Counter],
    seats: Sequence[str],
    leader: str | None,
    level: str,
) -> PlayOutcome:
    """出牌: replay the plays; each is checked for turn, cards held, shape and beating the table."""
    table = Table(hands, seats, leader or (plays[0].player if plays else seats[0]), level)
    for play in plays:
        problem = table.apply(play.player, play.cards, play.combo)
        if problem:
            return PlayOutcome(None, f"trick {table.trick}: {problem}", table.trick, play.player)
    if not table.over:
        return PlayOutcome(
            None, f"trick {table.trick}: the plays stop before the hand is decided", table.trick
        )
    return PlayOutcome(table.order, None, table.trick)


@dataclass(slots=True)
class TributeOutcome:
    """进贡的结果: the hands after tribute and return, who leads, and any breaches."""

    hands: dict[str, Counter]
    leader: str | None
    problems: list[Breach] = field(default_factory=list)
    resisted: bool = False


def due_tribute(
    previous: Sequence[str], seats: Sequence[str], partner_last: str = "last"
) -> tuple[list[str], list[str]]:
    """Who pays and who receives: the last finisher to the first, both losers after 双下.

    `partner_last = "third"`: when the first and last finishers are partners, the
    third finisher pays the first (guandan-sdk's 对落), not the last.
    """
    first, second = previous[0], previous[1]
    if team(seats, first) == team(seats, second):
        return [previous[2], previous[3]], [first, second]
    if partner_last == "third" and team(seats, first) == team(seats, previous[3]):
        return [previous[2]], [first]
    return [previous[3]], [first]


def check_tribute(
    tributes: Sequence[Any],
    hands: dict[str, Counter],
    seats: Sequence[str],
    previous: Sequence[str] | None,
    level: str,
    return_max: str,
    resist_jokers: int,
    partner_last: str = "last",
) -> TributeOutcome:
    """进贡 / 还贡 / 抗贡 as the previous finishing order demands, verified card by card."""
    hands = {p: Counter(h) for p, h in hands.items()}
    if previous is None:
        payers_logged = tuple(t.payer for t in tributes)
        problems: list[Breach] = (
            [("a tribute in the first hand of a game", payers_logged)] if tributes else []
        )
        return TributeOutcome(hands, None, problems)
    payers, receivers = due_tribute(previous, seats, partner_last)
    big_jokers = sum(hands[p]["RJ"] for p in payers)
    if big_jokers >= resist_jokers:
        text = f"{', '.join(payers)} hold {big_jokers} big jokers: 抗贡, yet a tribute was paid"
        problems = [(text, tuple(payers))] if tributes else []
        return TributeOutcome(hands, previous[0], problems, resisted=True)
    problems = []
    paid = {t.payer: t for t in tributes}
    for t in tributes:
        if t.payer not in payers:
            problems.append((f"{t.payer} pays a tribute but owes none", (t.payer,)))
    unpaid = [p for p in payers if p not in paid]
    if unpaid or len(tributes) != len(payers):
        logged = ", ".join(t.payer for t in tributes) or "nobody"
        problems.append(
            (f"tribute owed by {', '.join(payers)}, logged from {logged}", tuple(payers))
        )
        return TributeOutcome(hands, None, problems)
    broken = False
    for payer in payers:
        t = paid[payer]
        if missing(hands[payer], [t.card]):
            problems.append((f"{payer} pays {t.card} not held", (payer,)))
            broken = True
            continue
        best = combos.highest_value(hands[payer].elements(), level)
        if t.card == combos.wildcard(level):
            problems.append(
                (f"{payer} pays the 逢人配 card {t.card}, which is never paid", (payer,))
            )
        elif combos.value(rank_of(t.card), level) < best:
            higher = combos.rank_name(best, level)
            text = f"{payer} pays {t.card} but keeps a higher card ({higher}): 进贡 is the highest"
            problems.append((text, (payer,)))
    if broken:
        return TributeOutcome(hands, None, problems)
    values = {p: combos.value(rank_of(paid[p].card), level) for p in payers}
    order = sorted(payers, key=lambda p: -values[p])
    equal = len(order) == 2 and values[order[0]] == values[order[1]]
    for place, payer in enumerate(order):
        got = paid[payer].receiver
        if got != receivers[place] and not (equal and got in receivers):
            text = f"{payer}'s tribute goes to {got}, the rules give {receivers[place]}"
            problems.append((text, (payer, got)))
    if len({paid[p].receiver for p in payers}) != len(payers) or not set(receivers) >= {
        paid[p].receiver for p in payers
    }:
        return TributeOutcome(hands, None, problems)
    for payer in payers:
        t = paid[payer]
        hands[payer][t.card] -= 1
        hands[t.receiver][t.card] += 1
    for payer in payers:
        t = paid[payer]
        back = t.returned
        if back is None:
            problems.append((f"{t.receiver} returns no card to {payer}", (t.receiver,)))
            continue
        if missing(hands[t.receiver], [back]):
            problems.append((f"{t.receiver} returns {back} not held", (t.receiver,)))
            return TributeOutcome(hands, None, problems)
        if return_max != "any" and (
            back in ("RJ", "BJ") or combos.NATURAL[rank_of(back)] > combos.NATURAL[return_max]
        ):
            text = f"{t.receiver} returns {back}, above the {return_max} allowed (还贡)"
            problems.append((text, (t.receiver,)))
        hands[t.receiver][back] -= 1
        hands[payer][back] += 1
    leader = next(p for p in payers if paid[p].receiver == previous[0])
    return TributeOutcome({p: +h for p, h in hands.items()}, leader, problems)
