"""掼蛋: the two-deck partnership game of seed 003, replayed hand by hand as a match.

The session is the match and each round is one hand (一副牌). Levels per team
run 2 … A and carry from hand to hand; the hand is played at the level of the
team that won the last one. Each hand is checked: the tribute against the
last finishing order, every play (turn, cards held, shape, beating the table),
the finishing order, the level gains and the money (levels × stake per level,
plus a stake per game when a team passes A). Rules, choices and the round
record: docs/games/guandan.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec

from compliance.domain.rounds import ILLEGAL_ACTION, UNVERIFIABLE, Integrity, RoundResult
from compliance.errors import DealError
from compliance.games.base import Engine, compare_claims
from compliance.games.cards import Card, build_deck
from compliance.games.guandan import combos, fast
from compliance.games.guandan.decode import Hand, decode_hands, whole
from compliance.games.guandan.options import GuandanOptions
from compliance.games.guandan.play import Breach, check_tribute, partner, play_out, team
from compliance.games.guandan.record import GuandanHand
from compliance.logs.records import Session, Variant

HAND_SIZE = 27
DECK = Counter(build_deck(2, jokers=True))


LEVEL_GAIN = {1: 3, 2: 2, 3: 1}  # the partner's finishing place (二游, 三游, 下游) → levels
A_FINISH_MIN_GAIN = {"first_not_last": 2, "double_up": 3, "any_win": 1}


def seats_of(index: int, hand: GuandanHand, session_players: list[str]) -> list[str]:
    """Seat order from the session's player list; DealError for a deal that cannot be."""
    seated = list(hand.deal)
    unknown = [p for p in seated if p not in session_players]
    if unknown:
        raise DealError(f"round {index}: player {unknown[0]} is not in the session's players")
    if len(seated) != 4:
        raise DealError(f"round {index}: {len(seated)} players dealt, 掼蛋 needs 4 (seed 003 二)")
    for player, cards in hand.deal.items():
        if len(cards) != HAND_SIZE:
            raise DealError(f"round {index}: {player} holds {len(cards)} cards, not {HAND_SIZE}")
    held: Counter[Card] = Counter()
    for cards in hand.deal.values():
        held.update(cards)
    if max(held.values(), default=0) > 2 or not held.keys() <= DECK.keys():
        over = held - DECK
        if over:
            raise DealError(
                f"round {index}: duplicate card {sorted(over)[0]} (more than two decks hold)"
            )
    named = {*hand.finish, *hand.claimed, *(t.payer for t in hand.tribute)}
    named.update([p.player for p in hand.plays])
    if not named <= hand.deal.keys():
        for name in (
            *hand.finish,
            *hand.claimed,
            *(t.payer for t in hand.tribute),
            *(p.player for p in hand.plays),
        ):
            if name not in seated:
                raise DealError(f"round {index}: {name} is not dealt in")
    if sorted(hand.finish) != sorted(seated):
        raise DealError(
            f"round {index}: the finishing order must name each of the four players once"
        )
    return [p for p in session_players if p in seated]


class Match:
    """一场: the levels of both teams, who won the last hand, and A attempts."""

    def __init__(self, options: GuandanOptions):
        self.options = options
        self.levels = [0, 0]
        self.declarer: int | None = None
        self.previous: list[str] | None = None
        self.a_failures = [0, 0]

    @property
    def level(self) -> str:
        return combos.LEVELS[self.levels[self.declarer] if self.declarer is not None else 0]

    def settle(self, seats: list[str], order: list[str]) -> tuple[int, int, bool]:
        """升级: (winning team, levels earned, passed A); moves the levels and A attempts."""
        winner = team(seats, order[0])
        gain = LEVEL_GAIN[order.index(partner(seats, order[0]))]
        at_a = self.declarer == winner and self.levels[winner] == len(combos.LEVELS) - 1
        passed = False
        if self.declarer is not None and self.levels[self.declarer] == len(combos.LEVELS) - 1:
            if at_a and gain >= A_FINISH_MIN_GAIN[self.options.a_finish]:
                passed = True
            else:
                self.a_failures[self.declarer] += 1
                if at_a:
                    gain = 0
                limit = self.options.a_failures_reset
                if limit and self.a_failures[self.declarer] >= limit:
                    self.levels[self.declarer], self.a_failures[self.declarer] = 0, 0
        if passed:
            self.levels, self.declarer, self.previous, self.a_failures = [0, 0], None, None, [0, 0]
            return winner, gain, True
        self.levels[winner] = min(self.levels[winner] + gain, len(combos.LEVELS) - 1)
        self.declarer, self.previous = winner, order
        return winner, gain, False


def replay_hands(
    hands: list[Hand], players: list[str], options: GuandanOptions
) -> Iterator[RoundResult]:
    """The match hand by hand (`decode.decode_hands` gives `hands`)."""
    match = Match(options)
    per_game = options.stake_per_game
    for index, (hand, plays) in enumerate(hands, 1):
        level = match.level
        clean = fast.clean_hand(hand, players, match.previous, level, options, plays)
        if clean is None:
            seats, order, problems = checked_hand(
                index, whole(hand, plays), players, match, level, options
            )
            issues = [
                Integrity(index, ILLEGAL_ACTION, f"hand {index}: {text}", players=who)
                for text, who in problems
            ]
        else:
            (seats, order), issues = clean, []
        winner, gain, passed = match.settle(seats, order)
        per_level = options.stake_per_level if hand.stake is None else hand.stake
        amount = gain * per_level + (per_game if passed else 0)
        # seats alternate teams (team 0 first), so the winners' and losers' amounts do too
        won = (amount, -amount) if winner == 0 else (-amount, amount)
        deltas = dict(zip(seats, won * 2, strict=True))
        stakes = dict.fromkeys(seats, per_level + per_game)
        if not plays:
            issues.append(unplayed(index, order))
        mismatch = compare_claims(index, deltas, hand.claimed)
        if mismatch:
            issues.append(mismatch)
        yield RoundResult(index, deltas, stakes, None, hand.rake, 0, issues)


def checked_hand(
    index: int,
    hand: GuandanHand,
    players: list[str],
    match: Match,
    level: str,
    options: GuandanOptions,
) -> tuple[list[str], list[str], list[Breach]]:
    """The reference checks of one hand: its seats, the finishing order to settle on, and
    the breaches named (the tribute, then the plays trick by trick)."""
    seats = seats_of(index, hand, players)
    problems: list[Breach] = []
    if hand.level is not None and hand.level != level:
        problems.append((f"played at level {hand.level}, the levels give {level}", ()))
    dealt = {p: Counter(hand.deal[p]) for p in seats}
    tribute = check_tribute(
        hand.tribute,
        dealt,
        seats,
        match.previous,
        level,
        options.return_max,
        options.resist_jokers,
        options.partner_last_tribute,
    )
    problems += tribute.problems
    order = list(hand.finish)
    if hand.plays and (match.previous is None or tribute.leader is not None):
        outcome = play_out(hand.plays, tribute.hands, seats, tribute.leader, level)
        if outcome.problem:
            problems.append((outcome.problem, (outcome.player,) if outcome.player else ()))
        elif outcome.order is not None and _places(outcome.order, seats) != _places(order, seats):
            logged, played = ", ".join(order), ", ".join(outcome.order)
            problems.append((f"finishing order logged {logged}, the plays give {played}", ()))
            order = outcome.order
    return seats, order, problems


def unplayed(index: int, order: list[str]) -> Integrity:
    """无法核验: a hand without its plays is settled on a finishing order nothing checks."""
    return Integrity(
        index,
        UNVERIFIABLE,
        f"hand {index}: logged without its plays; settled from the logged finishing order "
        f"{', '.join(order)}, which the cards cannot confirm",
    )


def _places(order: list[str], seats: list[str]) -> tuple:
    """What matters of an order: first, the partner's place, and the double-down pair."""
    return (
        order[0],
        order.index(partner(seats, order[0])),
        frozenset(order[2:]) if order.index(partner(seats, order[0])) == 1 else order[3],
    )


class Guandan(Engine):
    """掼蛋: the Game engine."""

    def replay(self, session: Session) -> Iterator[RoundResult]:
        options = self.options_for(session.variant)
        hands = decode_hands(session.rounds)
        yield from replay_hands(hands, [p.id for p in session.players], options)

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """牌型: the combination the cards make at a level, and whether they beat `over`."""
        variant = variant or Variant()
        level = str(variant.options.get("level", "2"))
        over = None
        given: Any = hand  # card strings, or a JSON record's "cards" (checked by _cards)
        if isinstance(hand, dict):
            level = str(hand.get("level", level))
            over = hand.get("over")
            given = hand.get("cards")
        if level not in combos.LEVELS:
            raise DealError(f"level {level!r} is not a 掼蛋 level (2 … A)")
        cards = _cards(given, "a 掼蛋 hand is a list of card strings (S10, HQ, BJ, RJ …)")
        found = combos.interpretations(cards, level)
        best = combos.strongest(found)
        result: dict[str, Any] = {
            "game": self.code,
            "level": level,
            "wildcard": combos.wildcard(level),
            "cards": cards,
            "rank": best.label if best else None,
            "name_zh": combos.NAMES_ZH[best.kind] if best else "不成牌型",
            "combination": best.kind if best else None,
            "top": best.rank if best else None,
            "bomb": best.is_bomb if best else False,
            "interpretations": [{"as": c.label, "name_zh": combos.NAMES_ZH[c.kind]} for c in found],
        }
        if over is not None:
            table = combos.strongest(
                combos.interpretations(msgspec.convert(over, list[Card]), level)
            )
            result["over"] = table.label if table else None
            result["beats"] = bool(best and table and combos.choose(cards, level, table, None)[0])
        return result


def _cards(hand: Any, reason: str) -> list[str]:
    """Card strings from the command line or a record (any case), or DealError."""
    try:
        return msgspec.convert([str(c).upper() for c in hand], list[Card])
    except (msgspec.ValidationError, TypeError):
        raise DealError(reason) from None
