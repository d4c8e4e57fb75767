"""牌九 (paigow) with cards: each player against the banker, seed 003's ranking.

"最大是一個大王加一個黑三，叫至尊寶。其次分別是一對Q, 一對紅2，一對紅8,一對紅4,
三對長牌，四對短牌，四對雜牌": pairs first, then 水牛 (Q+9), 天罡 (Q+8), 地罡
(2+8), then points with 天地人和长短杂 breaking ties. The deck is 扯旋's 32
cards with a black 3 in place of the red one. Rules and choices:
docs/games/paigow.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from compliance.domain.rounds import ILLEGAL_ACTION, Integrity, RoundResult
from compliance.errors import DealError
from compliance.games.base import Engine, compare_claims, decode_rounds
from compliance.games.cards import duplicates
from compliance.games.head_tail import logged_split, smaller_head
from compliance.games.paigow.hands import PaigowHand, PaigowRanking, ranking_for
from compliance.games.paigow.options import PaigowOptions
from compliance.games.paigow.record import PaigowRound, PaigowSeat
from compliance.logs.records import Session, Variant


def _sign(a: int, b: int, ties_to_banker: bool) -> int:
    return 1 if a > b else -1 if a < b or ties_to_banker else 0


def versus_banker(player: tuple[int, ...], banker: tuple[int, ...], ties_to_banker: bool) -> int:
    """比牌: +1 the player wins, -1 he loses, 0 a push.

    Two halves (4-card play) go by seed 001's rule: both or one with the other
    equal wins, both or one with the other equal loses, one each is a push.
    """
    signs = [_sign(p, b, ties_to_banker) for p, b in zip(player, banker, strict=True)]
    total = sum(signs)
    return (total > 0) - (total < 0)


def _halves(
    index: int,
    seat: PaigowSeat,
    ranking: PaigowRanking,
    options: PaigowOptions,
    issues: list[Integrity],
) -> tuple[int, ...]:
    if options.hand_size == 2:
        return (ranking.two(*seat.cards).strength,)
    head_cards, tail_cards = logged_split(index, seat, "has no split")
    head, rest = ranking.two(*head_cards), ranking.two(*tail_cards)
    issue = smaller_head(index, seat.player, head, rest)
    if issue:
        issues.append(issue)
        head, rest = rest, head
    return (head.strength, rest.strength)


def settle_round(
    index: int, rnd: PaigowRound, options: PaigowOptions, players: set[str]
) -> RoundResult:
    """One round: each player's bet against the banker, the claim compared."""
    ranking = ranking_for(options.black_three, options.strict_pairs, options.di_wang)
    names = [s.player for s in rnd.seats]
    for name in names:
        if name not in players:
            raise DealError(f"round {index}: player {name} is not in the session")
    if duplicates(names):
        raise DealError(f"round {index}: player {duplicates(names)[0]} seated twice")
    if rnd.banker not in names:
        raise DealError(f"round {index}: banker {rnd.banker} is not seated")
    cards = [c for s in rnd.seats for c in s.cards]
    for card in cards:
        if card not in ranking.kinds:
            raise DealError(f"round {index}: card {card} is not in the 牌九 deck")
    if duplicates(cards):
        raise DealError(f"round {index}: duplicate card {duplicates(cards)[0]}")
    for s in rnd.seats:
        if len(s.cards) != options.hand_size:
            raise DealError(f"round {index}: wrong card count {len(s.cards)} for {s.player}")
    issues: list[Integrity] = []
    halves = {s.player: _halves(index, s, ranking, options, issues) for s in rnd.seats}
    deltas = dict.fromkeys(names, 0)
    stakes = dict.fromkeys(names, 0)
    for s in rnd.seats:
        if s.player == rnd.banker:
            if s.bet:
                issues.append(
                    Integrity(
                        index,
                        ILLEGAL_ACTION,
                        f"banker {s.player} bet {s.bet} against himself",
                        (s.player,),
                    )
                )
            continue
        if options.max_bet and s.bet > options.max_bet:
            issues.append(
                Integrity(
                    index,
                    ILLEGAL_ACTION,
                    f"{s.player} bet {s.bet} above the table limit {options.max_bet}",
                    (s.player,),
                )
            )
        won = s.bet * versus_banker(halves[s.player], halves[rnd.banker], options.ties_to_banker)
        deltas[s.player] += won
        deltas[rnd.banker] -= won
        stakes[s.player] = s.bet
        stakes[rnd.banker] = max(stakes[rnd.banker], s.bet)
    claim = compare_claims(index, deltas, {s.player: s.claimed for s in rnd.seats})
    if claim:
        issues.append(claim)
    return RoundResult(
        index=index, deltas=deltas, stakes=stakes, banker=rnd.banker, rake=rnd.rake, issues=issues
    )


class Paigow(Engine):
    """牌九 engine."""

    def replay(self, session: Session) -> Iterator[RoundResult]:
        options = self.options_for(session.variant)
        players = {p.id for p in session.players}
        for index, rnd in enumerate(decode_rounds(session.rounds, PaigowRound), start=1):
            yield settle_round(index, rnd, options, players)

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """The name of two cards, or the three splits of four with both halves named."""
        cards = list(hand["cards"] if isinstance(hand, dict) else hand)
        options = self.options_for(variant)
        ranking = ranking_for(options.black_three, options.strict_pairs, options.di_wang)
        for card in cards:
            if card not in ranking.kinds:
                raise DealError(f"card {card} is not in the 牌九 deck")
        if duplicates(cards) or len(cards) not in (2, 4):
            raise DealError(f"牌九 hands have 2 or 4 distinct cards, not {cards}")

        def named(two: PaigowHand) -> dict[str, Any]:
            return {"cards": list(two.cards), "name": two.name, "strength": two.strength}

        if len(cards) == 2:
            return {"game": self.code, **named(ranking.two(*cards))}
        a, b, c, d = cards
        splits = []
        for one, other in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            x, y = sorted((ranking.two(*one), ranking.two(*other)), key=lambda h: -h.strength)
            splits.append({"head": named(x), "tail": named(y)})
        splits.sort(key=lambda s: (s["tail"]["strength"], s["head"]["strength"]), reverse=True)
        return {"game": self.code, "cards": cards, "splits": splits}
