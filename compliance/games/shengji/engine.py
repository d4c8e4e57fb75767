"""升级 (拖拉机, 打80): the two-deck trick game of seed 003, replayed hand by hand.

The session is the match and each round is one hand. The holders (庄家方)
play at their level; the declarer takes the 8-card kitty and buries 8 cards;
every trick is checked (turn, cards held, following suit, pairs and tractors)
and won by the rules; the attackers' points, with the kitty multiplied when
they take the last trick, give the level change, and the money is levels ×
the stake per level. Rules, choices and the round record: docs/games/shengji.md.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from itertools import chain, cycle
from typing import TYPE_CHECKING, Any, cast

import msgspec

from compliance.domain.rounds import (
    ILLEGAL_ACTION,
    SETTLEMENT_MISMATCH,
    UNVERIFIABLE,
    WRONG_BANKER,
    Integrity,
    RoundResult,
)
from compliance.errors import DealError
from compliance.games.base import Engine, compare_claims, decode_rounds
from compliance.games.cards import Card, build_deck
from compliance.games.shengji import tricks
from compliance.games.shengji.holdings import holding_of, play_trick
from compliance.games.shengji.options import ShengjiOptions
from compliance.games.shengji.record import HAND_SIZE, KITTY_SIZE, LightHand, ShengjiHand
from compliance.logs.records import Session, Variant

if TYPE_CHECKING:
    from compliance.games.shengji.batch import Checked


# The checks in arrays (`batch`, `many`) load numpy: with the first hands checked, not with
# the engine, whose spec alone `games list` and `logs schema` read.
def check_session(
    hands: Sequence[ShengjiHand], players: Sequence[str], options: ShengjiOptions
) -> list[Checked | None]:
    """`batch.check_session`."""
    from compliance.games.shengji import batch

    return batch.check_session(hands, players, options)


def light_checks(
    decoded: Sequence[tuple[list[LightHand], list[str], ShengjiOptions]], most: int
) -> list[list[Checked] | None]:
    """`many.light_checks`."""
    from compliance.games.shengji import many

    return many.light_checks(decoded, most)


def checked_in_batches(
    decoded: Sequence[tuple[list[ShengjiHand], list[str], ShengjiOptions]], most: int
) -> list[list[Checked | None]]:
    """`many.checked_in_batches`."""
    from compliance.games.shengji import many

    return many.checked_in_batches(decoded, most)


LEVELS = tricks.NATURAL_ORDER
DECK = Counter(build_deck(2, jokers=True))


def level_change(points: int, step: int = 40) -> tuple[str, int]:
    """升级表: ("holders" | "attackers", levels) from the attackers' points; the line is 2 × step.

    0 → holders +3; under one step → +2; under the line → +1; from the line the
    attackers take the bank, +1 per further step (80 → 0, 120 → 1, 160 → 2 …).
    """
    if points <= 0:
        return "holders", 3
    if points < step:
        return "holders", 2
    if points < 2 * step:
        return "holders", 1
    return "attackers", (points - 2 * step) // step


@dataclass(slots=True)
class Played:
    """How the tricks went: the attackers' points, or the first breach and its trick."""

    points: int | None
    problem: str | None = None
    trick_points: int = 0
    kitty_points: int = 0
    player: str | None = None


def play_tricks(
    hand: ShengjiHand,
    hands: dict[str, Counter],
    seats: list[str],
    trumps: tricks.Trumps,
    options: ShengjiOptions,
) -> Played:
    """出牌: every trick in turn order from the declarer, checked; the attackers' points."""
    holders = {hand.declarer, seats[(seats.index(hand.declarer) + 2) % 4]}
    held = {p: holding_of(hands[p], trumps) for p in seats}
    turns = {p: [seats[(i + k) % 4] for k in range(4)] for i, p in enumerate(seats)}
    card_points = tricks.CARD_POINTS
    leader = hand.declarer
    total = counted = 0
    last_winner, last_lead = leader, None
    for number, trick in enumerate(hand.tricks, 1):
        won_by = play_trick(trick, turns[leader], seats, held, trumps, options)
        if isinstance(won_by, tuple):
            return Played(None, f"trick {number}: {won_by[0]}", player=won_by[1])
        winner = trick[won_by].player
        won = 0
        for play in trick:
            for card in play.cards:
                won += card_points.get(card, 0)
        counted += won
        if winner not in holders:
            total += won
        leader, last_winner, last_lead = winner, winner, tricks.shape(trick[0].cards, trumps)
    if any(cards for p in seats for cards in held[p].values()):
        return Played(None, f"trick {len(hand.tricks)}: the tricks end with cards still held")
    kitty = tricks.points(hand.buried)
    if last_lead is not None and last_winner not in holders:
        total += kitty * tricks.kitty_multiplier(last_lead, options.kitty_multiplier)
    return Played(total, None, counted, kitty)


def seats_of(index: int, hand: ShengjiHand, session_players: list[str]) -> list[str]:
    """Seat order from the session's players; DealError for a deal that cannot be."""
    seated = list(hand.deal)
    for name in (*seated, hand.declarer, *hand.claimed):
        if name not in session_players:
            raise DealError(f"round {index}: player {name} is not in the session's players")
    if len(seated) != 4 or hand.declarer not in seated:
        raise DealError(f"round {index}: 升级 deals four players and the declarer is one of them")
    for player, cards in hand.deal.items():
        if len(cards) != HAND_SIZE:
            raise DealError(f"round {index}: {player} holds {len(cards)} cards, not {HAND_SIZE}")
    if len(hand.kitty) != KITTY_SIZE or len(hand.buried) != KITTY_SIZE:
        raise DealError(
            f"round {index}: the kitty and the buried cards are {KITTY_SIZE} cards each"
        )
    copies = Counter(chain(*hand.deal.values(), hand.kitty))
    over = [card for card, n in copies.items() if n > DECK[card]]
    if over:
        raise DealError(f"round {index}: duplicate card {min(over)} (more than two decks hold)")
    for trick in hand.tricks:
        for play in trick:
            if play.player not in seated:
                raise DealError(f"round {index}: {play.player} plays but is not dealt in")
    return [p for p in session_players if p in seated]


def hand_points(
    hand: ShengjiHand, seats: list[str], trumps: tricks.Trumps, options: ShengjiOptions
) -> tuple[int | None, list[tuple[str, str, tuple[str, ...]]]]:
    """The attackers' points (None if unknown) and the breaches, as (check, text, players)."""
    held = {p: Counter(hand.deal[p]) for p in seats}
    held[hand.declarer] += Counter(hand.kitty)
    short = Counter(hand.buried) - held[hand.declarer]
    if short:
        buried = " ".join(sorted(short.elements()))
        return hand.points, [
            (ILLEGAL_ACTION, f"{hand.declarer} buries {buried} not held", (hand.declarer,))
        ]
    if not hand.tricks:
        logged = "no points either" if hand.points is None else f"points {hand.points}"
        text = f"logged without its tricks ({logged}); settled from the log, which the cards cannot confirm"
        return hand.points, [(UNVERIFIABLE, text, ())]
    held[hand.declarer] -= Counter(hand.buried)
    played = play_tricks(hand, held, seats, trumps, options)
    if played.problem:
        who = (played.player,) if played.player else ()
        return hand.points, [(ILLEGAL_ACTION, played.problem, who)]
    return checked_points(hand, played.points)


def checked_points(
    hand: ShengjiHand | LightHand, points: int | None
) -> tuple[int | None, list[tuple[str, str, tuple[str, ...]]]]:
    """The points the tricks give, and a mismatch when the log says other."""
    if hand.points is not None and hand.points != points:
        text = f"attackers' points logged {hand.points}, the tricks give {points}"
        return points, [(SETTLEMENT_MISMATCH, text, ())]
    return points, []


class NeedsReference(Exception):
    """A hand decoded without its tricks (`LightHand`) needs the reference rules."""


def replay_hands(
    hands: Sequence[ShengjiHand | LightHand],
    players: list[str],
    options: ShengjiOptions,
    checked: Sequence[Checked | None] | None = None,
) -> Iterator[RoundResult]:
    """The hands of a session settled in order; `checked`: their `check_session`, if known.
    NeedsReference when a `LightHand` would need the reference rules."""
    levels = [0, 0]
    holding: int | None = None
    resync = False
    if checked is None:
        checked = check_session(cast(Sequence[ShengjiHand], hands), players, options)
    for index, hand in enumerate(hands, 1):
        known = checked[index - 1]
        if known is not None:
            seats = known[0]
        elif isinstance(hand, LightHand):
            raise NeedsReference
        else:
            seats = seats_of(index, hand, players)
        team = seats.index(hand.declarer) % 2
        per_level = options.stake_per_level if hand.stake is None else hand.stake
        issues: list[Integrity] = []
        if holding is not None and team != holding:
            detail = (
                f"hand {index}: declarer {hand.declarer} is on the attacking side; "
                "the last hand left the bank with the other team"
            )
            issues.append(Integrity(index, WRONG_BANKER, detail, players=(hand.declarer,)))
        if resync and hand.level is not None:
            levels[team], resync = LEVELS.index(hand.level), False
        level = LEVELS[levels[team]]
        problems: list[tuple[str, str, tuple[str, ...]]] = []
        if hand.level is not None and hand.level != level:
            text = f"played at level {hand.level}, the levels give {level}"
            problems.append((ILLEGAL_ACTION, text, ()))
        if known is not None and known[1] is not None and hand.level == level:
            points, breaches = checked_points(hand, known[1])
        elif isinstance(hand, LightHand):
            raise NeedsReference
        else:
            trumps = tricks.trumps_for(level, None if hand.trump == "NT" else hand.trump)
            points, breaches = hand_points(hand, seats, trumps, options)
        problems += breaches
        if problems:
            issues += [
                Integrity(index, check, f"hand {index}: {text}", players=who)
                for check, text, who in problems
            ]
        if points is None:  # the result cannot be known: take the claim, resync on the next level
            deltas = dict(hand.claimed)
            holding, resync = None, True
        else:
            side, gain = level_change(points, options.step)
            gainer = team if side == "holders" else 1 - team
            amount = gain * per_level
            deltas = dict(
                zip(seats, cycle((amount, -amount) if gainer == 0 else (-amount, amount)))
            )
            levels[gainer] = min(levels[gainer] + gain, len(LEVELS) - 1)
            holding = gainer
            if hand.claimed != deltas:
                mismatch = compare_claims(index, deltas, hand.claimed)
                if mismatch:
                    issues.append(mismatch)
        stakes = dict.fromkeys(seats, per_level)
        yield RoundResult(index, deltas, stakes, hand.declarer, hand.rake, 0, issues)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while the rounds are decoded: about a hundred lists a
    hand, of strings, in no cycle, so a collection then frees nothing, and each one would
    walk every object the process keeps (a tenth of a `games settle`, measured)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Shengji(Engine):
    """升级: the Game engine."""

    def replay(self, session: Session) -> Iterator[RoundResult]:
        """The hands settled in order: from their text when `light_checks` vouches for
        every one of them, else decoded whole, one by one (an error where it arises)."""
        options = self.options_for(session.variant)
        players = [p.id for p in session.players]
        done: list[RoundResult] | None = None
        with collector_paused():
            try:
                light = decode_rounds(session.rounds, LightHand)
                known = light_checks([(light, players, options)], BATCH_HANDS)[0]
                if known is not None:
                    done = list(replay_hands(light, players, options, known))
            except Exception:  # noqa: BLE001 - decoded whole below, which tells the error
                done = None
        if done is not None:
            yield from done
        else:
            yield from self.replay_decoded(session)

    def replay_decoded(self, session: Session) -> Iterator[RoundResult]:
        """`replay` with every hand decoded whole (`ShengjiHand`): the reference."""
        options = self.options_for(session.variant)
        with collector_paused():
            hands = decode_rounds(session.rounds, ShengjiHand)
        yield from replay_hands(hands, [p.id for p in session.players], options)

    def replay_many(self, sessions: Sequence[Session]) -> list[list[RoundResult]]:
        """Every round of each session, as `replay` gives it; the hands of sessions with
        the same options checked together, some thousands at a time (numpy's work per
        call is paid per batch, not per session). Whatever fails before the replays
        begin is left to `replay`, session by session, so it fails as that does. The
        cyclic collector waits until the decoded hands are let go: none of it makes a
        cycle, and one collection walking all of them cost more than the check of a tenth.
        The hands are decoded first with their tricks as text (`LightHand`, read by
        `scan`); a session not clean that way is decoded whole and judged as before."""
        with collector_paused():
            try:
                results = _replayed(self, sessions)
            except Exception:
                results = []
        if len(results) == len(sessions):
            return results
        return [list(self.replay_decoded(session)) for session in sessions]

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """牌型: what a lead is (single, pair, tractor, throw) at a level and trump; its points."""
        opts = dict((variant or Variant()).options)
        given: Any = hand  # card strings, or a JSON record's "cards" (checked below)
        if isinstance(hand, dict):
            opts.update({k: hand[k] for k in ("level", "trump") if k in hand})
            given = hand.get("cards")
        level, trump = str(opts.get("level", "2")), str(opts.get("trump", "NT"))
        if level not in LEVELS or trump not in ("S", "H", "C", "D", "NT"):
            raise DealError("升级 needs a level 2 … A and a trump S, H, C, D or NT")
        try:
            cards = msgspec.convert([str(c).upper() for c in given], list[Card])
        except (msgspec.ValidationError, TypeError):
            raise DealError("a 升级 play is a list of card strings (S10, HQ, BJ, RJ …)") from None
        trumps = tricks.Trumps(level, None if trump == "NT" else trump)
        found = tricks.shape(cards, trumps)
        return {
            "game": self.code,
            "level": level,
            "trump": trump,
            "cards": cards,
            "shape": found.kind if found else "mixed",
            "suit": (("trump" if found.suit == tricks.TRUMP else found.suit) if found else None),
            "units": list(found.units) if found else [],
            "points": tricks.points(cards),
            "trumps": [c for c in cards if trumps.suit(c) == tricks.TRUMP],
        }


BATCH_HANDS = 4096  # hands checked in one pass of `check_sessions`


def _replayed(engine: Shengji, sessions: Sequence[Session]) -> list[list[RoundResult]]:
    """`replay_many`'s results, or an exception for `replay` to tell session by session."""
    light = [
        (
            decode_rounds(session.rounds, LightHand),
            [p.id for p in session.players],
            engine.options_for(session.variant),
        )
        for session in sessions
    ]
    results: list[list[RoundResult] | None] = []
    for (hands, players, options), known in zip(
        light, light_checks(light, BATCH_HANDS), strict=True
    ):
        replayed = None
        if known is not None:
            with suppress(NeedsReference):
                replayed = list(replay_hands(hands, players, options, known))
        results.append(replayed)
    rest = [i for i, done in enumerate(results) if done is None]
    whole = [
        (decode_rounds(sessions[i].rounds, ShengjiHand), light[i][1], light[i][2]) for i in rest
    ]
    del light  # before the collector may run again
    for i, (hands, players, options), verdicts in zip(
        rest, whole, checked_in_batches(whole, BATCH_HANDS), strict=True
    ):
        results[i] = list(replay_hands(hands, players, options, verdicts))
    return results  # type: ignore[return-value]
