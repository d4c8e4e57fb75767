"""斗牛 (牛牛): the banker game of seeds 000 and 004, replayed round by round.

Each seat holds five cards; the banker (庄家) compares with every player
(闲家) and never do players compare with each other (seed 004 rule 4). The
winner's hand multiplier × base × grab × the player's bet changes hands.
The banker passes by 牛九 (rule 3) unless the variant grabs it each round.
Rules, choices and the round record: docs/games/douniu.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from compliance.domain.rounds import (
    ILLEGAL_ACTION,
    SETTLEMENT_MISMATCH,
    WRONG_BANKER,
    Integrity,
    RoundResult,
)
from compliance.errors import DealError
from compliance.games.base import Engine, decode_rounds
from compliance.games.cards import JOKERS, duplicates
from compliance.games.douniu import hands
from compliance.games.douniu.options import DouniuOptions
from compliance.games.douniu.record import DouniuRound
from compliance.logs.records import Session, Variant

BANKER_TIE_LEVELS = frozenset(range(1, hands.BULL_BULL + 1))
MAX_PRESETS_KEPT = 64


def _check_deal(index: int, rnd: DouniuRound, known: set[str]) -> None:
    """发牌检查: raise DealError naming the round and what is impossible (the slow path)."""
    seats = rnd.seats
    if not 2 <= len(seats) <= 6:
        raise DealError(f"round {index}: {len(seats)} seats, 斗牛 seats 2 to 6 (seed 004 rule 2)")
    for seat in seats:
        if len(seat.cards) != 5:
            raise DealError(f"round {index}: {seat.player} holds {len(seat.cards)} cards, not 5")
    dup = duplicates(c for seat in seats for c in seat.cards)
    if dup:
        raise DealError(f"round {index}: duplicate card {', '.join(dict.fromkeys(dup))}")
    for seat in seats:
        for card in seat.cards:
            if card in JOKERS:
                raise DealError(
                    f"round {index}: joker {card} is not in the 斗牛 deck (seed 004 rule 1)"
                )
    names = [s.player for s in seats]
    for name in names:
        if names.count(name) > 1:
            raise DealError(f"round {index}: player {name} is seated twice")
        if name not in known:
            raise DealError(f"round {index}: player {name} is not in the session's players")
    if rnd.banker not in names:
        raise DealError(f"round {index}: banker {rnd.banker} is not seated")


def hand_scores(
    index: int, rnd: DouniuRound, known: set[str], table: dict[int, int] = hands.SCORE_BASE
) -> list[int]:
    """牌力: every seat's hand score (hot path); DealError naming the round if the deal is impossible."""
    seats = rnd.seats
    names = [s.player for s in seats]
    n = len(seats)
    if (
        not 2 <= n <= 6
        or rnd.banker not in names
        or len(set(names)) != n
        or not known.issuperset(names)
    ):
        _check_deal(index, rnd, known)
    bits, mask, own = hands.CARD_BITS, hands.RANK_MASK, hands.OWN_BITS_AT
    scores = []
    own_bits = 0
    try:
        for seat in seats:
            a, b, c, d, e = seat.cards
            total = bits[a] + bits[b] + bits[c] + bits[d] + bits[e]
            own_bits += total >> own
            scores.append(table[total & mask] + total.bit_length())
    except (ValueError, KeyError):
        _check_deal(index, rnd, known)
        raise
    if own_bits.bit_count() != 5 * n:
        _check_deal(index, rnd, known)
    return scores


def settle(
    rnd: DouniuRound, scores: list[int], mult: tuple[int, ...], banker_ties: bool
) -> tuple[dict[str, int], dict[str, int]]:
    """结算: the banker against each player (rule 4); the winner's multiplier × stake is paid.

    Returns (deltas, stakes). A stake (DESIGN §5) is base × grab × bet; the
    banker's stake is the largest stake he faces.
    """
    unit = rnd.base * rnd.grab
    banker = rnd.banker
    banker_score = scores[[seat.player for seat in rnd.seats].index(banker)]
    banker_level = banker_score >> hands.LEVEL_SHIFT
    banker_wins_ties = banker_ties and banker_level in BANKER_TIE_LEVELS
    deltas: dict[str, int] = {}
    stakes: dict[str, int] = {}
    banker_total = banker_stake = 0
    for seat, player_score in zip(rnd.seats, scores, strict=True):
        player = seat.player
        if player == banker:
            continue
        stake = unit * seat.bet
        level = player_score >> hands.LEVEL_SHIFT
        if player_score > banker_score and not (banker_wins_ties and level == banker_level):
            amount = mult[level] * stake
        else:
            amount = -mult[banker_level] * stake
        deltas[player] = amount
        stakes[player] = stake
        banker_total -= amount
        if stake > banker_stake:
            banker_stake = stake
    deltas[banker] = banker_total
    stakes[banker] = banker_stake
    return deltas, stakes


def next_banker(rnd: DouniuRound, scores: list[int]) -> str:
    """坐庄: the holder of the best 牛九 is the next banker, else the banker stays (rule 3)."""
    best = -1
    holder = rnd.banker
    for seat, hand_score in zip(rnd.seats, scores, strict=True):
        if hand_score >> hands.LEVEL_SHIFT == hands.BULL_NINE and hand_score > best:
            best, holder = hand_score, seat.player
    return holder


def claim_issues(index: int, rnd: DouniuRound, deltas: dict[str, int]) -> list[Integrity]:
    """The log's claims against the rules: settlement_mismatch and rake on a loss (illegal_action)."""
    issues: list[Integrity] = []
    wrong = [s for s in rnd.seats if s.claimed != deltas[s.player] - s.rake]
    if wrong:
        issues.append(
            Integrity(
                round=index,
                check=SETTLEMENT_MISMATCH,
                detail="; ".join(
                    f"{s.player} claimed {s.claimed}, rules give {deltas[s.player] - s.rake}"
                    + (f" ({deltas[s.player]} less rake {s.rake})" if s.rake else "")
                    for s in wrong
                ),
                players=tuple(s.player for s in wrong),
                claimed={s.player: s.claimed for s in wrong},
                expected={s.player: deltas[s.player] - s.rake for s in wrong},
            )
        )
    raked = [s for s in rnd.seats if s.rake > max(deltas[s.player], 0)]
    if raked:
        issues.append(
            Integrity(
                round=index,
                check=ILLEGAL_ACTION,
                detail="; ".join(
                    f"{s.player} raked {s.rake} from a result of {deltas[s.player]}" for s in raked
                ),
                players=tuple(s.player for s in raked),
            )
        )
    return issues


def replay_rounds(
    rounds: list[DouniuRound], known: set[str], options: DouniuOptions
) -> Iterator[RoundResult]:
    """Settle the rounds in order, carrying the banker from round to round."""
    mult = options.multipliers
    banker_ties = options.equal_rank == "banker"
    check_succession = options.banker_succession == "niu_nine"
    table = hands.score_table(options.five_small_max)
    due: str | None = None
    for index, rnd in enumerate(rounds, 1):
        scores = hand_scores(index, rnd, known, table)
        deltas, stakes = settle(rnd, scores, mult, banker_ties)
        rake = 0
        clean = True
        for seat in rnd.seats:
            seat_rake = seat.rake
            if seat_rake:
                rake += seat_rake
                if seat_rake > deltas[seat.player]:
                    clean = False
            if seat.claimed != deltas[seat.player] - seat_rake:
                clean = False
        issues = [] if clean else claim_issues(index, rnd, deltas)
        if due is not None and due != rnd.banker and due in deltas:
            issues.append(wrong_banker_issue(index, rnd.banker, due))
        if check_succession:
            due = next_banker(rnd, scores)
        yield RoundResult(index, deltas, stakes, rnd.banker, rake, 0, issues)


def wrong_banker_issue(index: int, banker: str, due: str) -> Integrity:
    return Integrity(
        round=index,
        check=WRONG_BANKER,
        detail=f"banker {banker}, but the 牛九 rule (seed 004 rule 3) gives {due}",
        players=(banker, due),
    )


class Douniu(Engine):
    """斗牛: the Game engine."""

    def __init__(self, spec):
        super().__init__(spec)
        self._presets: dict[str | None, DouniuOptions] = {}

    def options_for(self, variant: Variant | None) -> DouniuOptions:
        """玩法: a preset written without overrides is resolved once (the options are
        frozen); anything else as every engine resolves it."""
        if variant is not None and variant.options:
            return super().options_for(variant)
        preset = variant.preset if variant is not None else None
        found = self._presets.get(preset)
        if found is None:
            found = super().options_for(variant)
            if len(self._presets) < MAX_PRESETS_KEPT:
                self._presets[preset] = found
        return found

    def replay(self, session: Session) -> Iterator[RoundResult]:
        options = self.options_for(session.variant)
        rounds = decode_rounds(session.rounds, DouniuRound)
        known = {p.id for p in session.players}
        yield from replay_rounds(rounds, known, options)

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """牌型: rank, Chinese name and multiplier of five cards under the variant."""
        if isinstance(hand, dict):
            if "cards" not in hand or not isinstance(hand["cards"], list):
                raise DealError('a 斗牛 hand record needs "cards": a list of 5 card strings')
            hand = hand["cards"]
        cards = hands.check_hand(hand)
        options = self.options_for(variant)
        level = hands.level_of(hands.score(cards, options.five_small_max))
        return {
            "game": self.code,
            "cards": cards,
            "rank": hands.RANK_CODES[level],
            "name_zh": hands.NAMES_ZH[level],
            "multiplier": options.multipliers[level],
        }
