"""斗牛 in one pass: the replay and the tally together, the audit's hot path.

`tally_rounds` adds to a SessionTally exactly what `tally(replay_rounds(...))`
gives (a hypothesis test holds the two together), without a RoundResult or a
dict per round: one loop over the seats with the banker scored first, hand
scores inline from the rank table, the deal checked by bit counts, and the
slow checks of `douniu.engine` (which name what is wrong) only when something is off.
"""

from __future__ import annotations

from functools import lru_cache

from compliance.domain.rounds import PlayerTally, SessionTally
from compliance.games.base import decode_rounds
from compliance.games.douniu import hands
from compliance.games.douniu.engine import (
    BANKER_TIE_LEVELS,
    claim_issues,
    hand_scores,
    settle,
    wrong_banker_issue,
)
from compliance.games.douniu.options import DouniuOptions
from compliance.games.douniu.record import DouniuRound
from compliance.logs.records import Session


def tally_session(session: Session, player_ids: list[str], options: DouniuOptions) -> SessionTally:
    """The replay summed up in one pass: what tally(replay(session)) gives, faster."""
    summary = SessionTally({pid: PlayerTally() for pid in player_ids})
    rounds = decode_rounds(session.rounds, DouniuRound)
    tally_rounds(rounds, set(player_ids), options, summary)
    return summary


@lru_cache(maxsize=64)
def multipliers_of(options: DouniuOptions) -> tuple[int, ...]:
    """翻倍: the multiplier by level of a variant's options (frozen, so kept)."""
    return options.multipliers


def tally_rounds(
    rounds: list[DouniuRound], known: set[str], options: DouniuOptions, summary: SessionTally
) -> None:
    """Settle `rounds` in order and add each seat's stake and result to `summary`."""
    mult = multipliers_of(options)
    banker_ties = options.equal_rank == "banker"
    succession = options.banker_succession == "niu_nine"
    players, issues = summary.players, summary.issues
    shift, nine, tie_levels = hands.LEVEL_SHIFT, hands.BULL_NINE, BANKER_TIE_LEVELS
    bits, mask, own = hands.CARD_BITS, hands.RANK_MASK, hands.OWN_BITS_AT
    table = hands.score_table(options.five_small_max)
    due: str | None = None
    rake = index = 0
    for rnd in rounds:
        index += 1
        seats, banker = rnd.seats, rnd.banker
        n = len(seats)
        names = {seat.player for seat in seats}
        banker_seat = None
        for seat in seats:
            if seat.player == banker:
                banker_seat = seat
                break
        if banker_seat is None or len(names) != n or not (2 <= n <= 6 and names <= known):
            hand_scores(index, rnd, known)  # raises DealError naming what is wrong
            assert banker_seat is not None  # a banker without a seat raised above
        unit = rnd.base * rnd.grab
        banker_total = banker_stake = own_bits = 0
        clean = True
        best, holder = -1, banker
        try:
            a, b, c, d, e = banker_seat.cards
            total = bits[a] + bits[b] + bits[c] + bits[d] + bits[e]
            banker_score = table[total & mask] + total.bit_length()
            banker_level = banker_score >> shift
            banker_mult = mult[banker_level]
            banker_wins_ties = banker_ties and banker_level in tie_levels
            for seat in seats:
                a, b, c, d, e = seat.cards
                total = bits[a] + bits[b] + bits[c] + bits[d] + bits[e]
                own_bits += total >> own
                score = table[total & mask] + total.bit_length()
                level = score >> shift
                if level == nine and score > best:
                    best, holder = score, seat.player
                if seat is banker_seat:
                    continue
                stake = unit * seat.bet
                if score > banker_score and not (banker_wins_ties and level == banker_level):
                    amount = mult[level] * stake
                else:
                    amount = -banker_mult * stake
                banker_total -= amount
                if stake > banker_stake:
                    banker_stake = stake
                seat_rake = seat.rake
                if seat_rake:
                    rake += seat_rake
                    if seat_rake > amount:
                        clean = False
                if seat.claimed != amount - seat_rake:
                    clean = False
                t = players[seat.player]  # PlayerTally.add, inline: once per seat and round
                t.rounds += 1
                t.staked += stake
                if stake > t.max_stake:
                    t.max_stake = stake
                t.net += amount
                if amount > 0:
                    t.won += amount
                    if amount > t.max_round_swing:
                        t.max_round_swing = amount
                elif -amount > t.max_round_swing:
                    t.max_round_swing = -amount
        except (ValueError, KeyError):
            hand_scores(index, rnd, known)  # an unknown card or a short hand: raises, naming it
            raise
        if own_bits.bit_count() != 5 * n:
            hand_scores(index, rnd, known)  # a card dealt twice: raises, naming it
        seat_rake = banker_seat.rake
        rake += seat_rake
        if banker_seat.claimed != banker_total - seat_rake or seat_rake > max(banker_total, 0):
            clean = False
        t = players[banker]
        t.banker_rounds += 1
        t.add(banker_stake, banker_total)
        if not clean:
            deltas = settle(rnd, hand_scores(index, rnd, known, table), mult, banker_ties)[0]
            issues.extend(claim_issues(index, rnd, deltas))
        if due is not None and due != banker and due in names:
            issues.append(wrong_banker_issue(index, banker, due))
        if succession:
            due = holder
    summary.rounds += index
    summary.rake += rake
