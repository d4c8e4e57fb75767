"""整批结算: 斗牛 sessions settled and tallied a batch at a time, on numpy arrays.

`tally_sessions` gives, for each session, what `tally_session` gives (a
hypothesis test holds the two equal), or None where the arrays do not serve
and the session goes the per-round way, which names what is wrong: rounds
that cannot be decoded or options that cannot be resolved, a round the rules
refuse (seats, cards, players, the banker), figures that int64 might not
hold, or text `columns.read_columns` cannot cut. Hand scores come from a
table indexed by the sorted ranks; money stays in integers. The rounds whose
claims or banker are wrong are written by the reference's own functions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, count

import numpy as np

from compliance.domain.rounds import PlayerTally, SessionTally
from compliance.errors import DecodeError
from compliance.games.base import decode_rounds
from compliance.games.douniu import hands
from compliance.games.douniu.columns import Columns, Unreadable, is_readable, read_columns
from compliance.games.douniu.engine import (
    BANKER_TIE_LEVELS,
    claim_issues,
    hand_scores,
    settle,
    wrong_banker_issue,
)
from compliance.games.douniu.options import DouniuOptions
from compliance.games.douniu.record import DouniuRound
from compliance.logs.bounds import MAX_POINTS
from compliance.logs.records import Session

RANKS = 13
HIGH_AT = hands.OWN_BITS_AT + 1  # bit_length of a hand's sum is this + its highest card
SAFE = 2.0**62  # a session whose figures are bounded below this is exact in int64
SORT_5 = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))
FIVE_SMALL_MAX = (0, 4, 5)
TIE_LOW, TIE_HIGH = min(BANKER_TIE_LEVELS), max(BANKER_TIE_LEVELS)


@lru_cache(maxsize=1)
def score_tables() -> np.ndarray:
    """牌力表: a hand's score less its highest card, by 五小牛 variant and sorted ranks."""
    tables = np.full((len(FIVE_SMALL_MAX), RANKS**5), -1, np.int64)
    for row, small in enumerate(FIVE_SMALL_MAX):
        for key, value in hands.score_table(small).items():
            index = 0
            for rank in hands.ranks_of(key):
                index = index * RANKS + rank - 1
            tables[row, index] = value
    return tables


@dataclass(slots=True)
class Entry:
    """A session the arrays may settle: its place in the batch, rounds, players, options."""

    at: int
    rounds: list[DouniuRound]
    ids: list[str]
    options: DouniuOptions


def tally_sessions(
    sessions: Sequence[Session], player_ids: Sequence[list[str]], options: Sequence[object]
) -> list[SessionTally | None]:
    """Each session's tally as `tally_session` makes it, or None: that one goes the per-round
    way. `options` holds each session's options, or None where they could not be resolved."""
    results: list[SessionTally | None] = [None] * len(sessions)
    entries = []
    for at, (session, ids, chosen) in enumerate(zip(sessions, player_ids, options, strict=True)):
        if not isinstance(chosen, DouniuOptions) or len(set(ids)) != len(ids):
            continue
        try:
            rounds = decode_rounds(session.rounds, DouniuRound)
        except DecodeError:
            continue
        if rounds:
            entries.append(Entry(at, rounds, ids, chosen))
        else:
            results[at] = SessionTally({pid: PlayerTally() for pid in ids})
    if entries:
        try:
            columns = read_columns(list(chain.from_iterable(e.rounds for e in entries)))
        except Unreadable:
            entries = [e for e in entries if is_readable(e.rounds)]
            columns = read_columns(list(chain.from_iterable(e.rounds for e in entries)))
        for entry, summary in zip(entries, _settle(entries, columns), strict=True):
            results[entry.at] = summary
    return results


def _settle(entries: list[Entry], c: Columns) -> list[SessionTally | None]:
    n_rounds = len(c.rounds)
    n_seats = len(c.player)
    per_session = np.fromiter((len(e.rounds) for e in entries), np.int64, len(entries))
    round_session = np.repeat(np.arange(len(entries)), per_session)
    seats = c.seats_per_round
    seat_round = np.repeat(np.arange(n_rounds), seats)
    seat_session = round_session[seat_round]
    seat_starts = np.cumsum(seats) - seats
    in_round = np.arange(n_seats) - seat_starts[seat_round]

    kinds: dict[int, int] = {}
    chosen = [kinds.setdefault(id(e.options), len(kinds)) for e in entries]
    variants = list({id(e.options): e.options for e in entries}.values())
    mult = np.array([o.multipliers for o in variants], np.int64)
    ties = np.array([o.equal_rank == "banker" for o in variants])
    succession = np.array([o.banker_succession == "niu_nine" for o in variants])
    small = np.array([FIVE_SMALL_MAX.index(o.five_small_max) for o in variants], np.int64)
    round_kind = np.asarray(chosen, np.int64)[round_session]
    seat_kind = round_kind[seat_round]

    # 牌力: ranks sorted by a network of nine exchanges, then the table
    cards = c.cards
    jokers = cards.min(axis=0) < 0
    cards = np.maximum(cards, 0)
    ranks = list(cards >> 2)
    for i, j in SORT_5:
        ranks[i], ranks[j] = np.minimum(ranks[i], ranks[j]), np.maximum(ranks[i], ranks[j])
    index = ranks[0]
    for k in range(1, 5):
        index = index * RANKS + ranks[k]
    tables = score_tables()
    if len(variants) == 1:
        base_score = tables[small[0]][index]
    else:
        base_score = tables.ravel()[small[seat_kind] * RANKS**5 + index]
    score = base_score + HIGH_AT + cards.max(axis=0)
    level = score >> hands.LEVEL_SHIFT

    # 发牌检查: what hand_scores refuses marks the round; the reference names it
    is_banker = c.player == c.banker[seat_round]
    bankers = np.bincount(seat_round[is_banker], minlength=n_rounds)
    banker_seat = np.zeros(n_rounds, np.int64)
    banker_seat[seat_round[is_banker]] = np.flatnonzero(is_banker)
    seated_twice = np.zeros(n_seats, bool)
    for back in range(1, 6):
        seated_twice[back:] |= (c.player[back:] == c.player[:-back]) & (in_round[back:] >= back)
    bits = np.left_shift(np.uint64(1), cards.astype(np.uint64))
    hand_sum = bits.sum(axis=0, dtype=np.uint64)
    hand_or = np.bitwise_or.reduce(bits, axis=0)
    deal_or = np.zeros(n_rounds, np.uint64)
    np.bitwise_or.at(deal_or, seat_round, hand_or)
    slot, players = _slots(entries, c, seat_session)
    bad_seat = jokers | seated_twice | (slot == players)
    bad_round = (
        (seats < 2)
        | (seats > 6)
        | (bankers != 1)
        | (np.bincount(seat_round[bad_seat], minlength=n_rounds) > 0)
        | (_sums(hand_sum, seat_starts, seats) != deal_or)
    )

    # 结算: the banker against each player
    banker_score = score[banker_seat]
    banker_level = banker_score >> hands.LEVEL_SHIFT
    tie_rule = ties[round_kind] & (banker_level >= TIE_LOW) & (banker_level <= TIE_HIGH)
    unit = c.base * c.grab
    stake = unit[seat_round] * c.bet
    wins = (score > banker_score[seat_round]) & ~(
        tie_rule[seat_round] & (level == banker_level[seat_round])
    )
    paid = np.where(wins, mult[seat_kind, level], -mult[seat_kind, banker_level[seat_round]])
    amount = np.where(is_banker, 0, paid * stake)
    banker_total = -_sums(amount, seat_starts, seats)
    banker_stake = np.zeros(n_rounds, np.int64)
    np.maximum.at(banker_stake, seat_round, np.where(is_banker, 0, stake))
    amount = np.where(is_banker, banker_total[seat_round], amount)
    stake = np.where(is_banker, banker_stake[seat_round], stake)
    wrong_claim = (c.rake > np.maximum(amount, 0)) | (c.claimed != amount - c.rake)
    unclean = np.bincount(seat_round[wrong_claim], minlength=n_rounds) > 0

    # 坐庄: the best 牛九 of a round is due to bank the next
    nine = np.where(level == hands.BULL_NINE, score, -1)
    best = np.full(n_rounds, -1, np.int64)
    np.maximum.at(best, seat_round, nine)
    holds = (nine >= 0) & (nine == best[seat_round])
    holder = c.banker.copy()
    holder[seat_round[holds]] = c.player[holds]
    due = np.full(n_rounds, -1, np.int64)
    due[1:] = holder[:-1]
    session_first = np.cumsum(per_session) - per_session
    due[session_first] = -1
    present = np.bincount(seat_round[c.player == due[seat_round]], minlength=n_rounds) > 0
    wrong_banker = succession[round_kind] & (due >= 0) & (due != c.banker) & present

    # 上限: what int64 holds for sure (base × grab × bet × multiplier, summed)
    reach = (
        unit[seat_round].astype(np.float64) * c.bet * mult.max(axis=1)[seat_kind]
        + c.rake
        + MAX_POINTS
    )
    bound = np.bincount(seat_session, weights=reach, minlength=len(entries))
    bad = (np.bincount(round_session[bad_round], minlength=len(entries)) > 0) | (bound >= SAFE)

    session_seats = np.bincount(seat_session, minlength=len(entries))
    rakes = _sums(c.rake, seat_starts[session_first], session_seats).tolist()
    totals = _player_totals(slot, players, is_banker, stake, amount)
    flagged = np.flatnonzero((unclean | wrong_banker) & ~bad[round_session])
    sessions = round_session[flagged]
    marks = zip(
        flagged.tolist(),
        sessions.tolist(),
        (flagged - session_first[sessions] + 1).tolist(),
        unclean[flagged].tolist(),
        wrong_banker[flagged].tolist(),
        due[flagged].tolist(),
    )
    issues: dict[int, list] = defaultdict(list)
    names = list(c.names)
    for at, entry_at, index, claims, banker, due_number in marks:
        entry, rnd = entries[entry_at], c.rounds[at]
        found = issues[entry_at]
        if claims:
            options = entry.options
            scores = hand_scores(index, rnd, set(entry.ids), hands.score_table(options.five_small_max))
            deltas = settle(rnd, scores, options.multipliers, options.equal_rank == "banker")[0]
            found.extend(claim_issues(index, rnd, deltas))
        if banker:
            found.append(wrong_banker_issue(index, rnd.banker, names[due_number]))
    summaries: list[SessionTally | None] = []
    offset = 0
    for i, (entry, refused, rake) in enumerate(zip(entries, bad.tolist(), rakes, strict=True)):
        n = len(entry.ids)
        if refused:
            summaries.append(None)
        else:
            players_of = dict(zip(entry.ids, totals[offset : offset + n], strict=True))
            summaries.append(SessionTally(players_of, len(entry.rounds), rake, issues.get(i, [])))
        offset += n
    return summaries


def _sums(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each run's sum, by differences of a running sum: exact modulo 2^64, so exact wherever
    the run's own sum fits, whatever the running sum did before it."""
    running = np.zeros(len(values) + 1, values.dtype)
    np.cumsum(values, out=running[1:])
    return running[starts + counts] - running[starts]


def _slots(entries: list[Entry], c: Columns, seat_session: np.ndarray) -> tuple[np.ndarray, int]:
    """Each seat's player as a slot of the batch's players (session by session, in their
    order), or the one past the last for a player who is not among his session's."""
    number = c.names.__getitem__
    known = np.fromiter(map(number, chain.from_iterable(e.ids for e in entries)), np.int64)
    players = len(known)
    if not players:
        return np.zeros(len(c.player), np.int64), 0
    width = len(c.names)
    sizes = np.fromiter((len(e.ids) for e in entries), np.int64, len(entries))
    keys = np.repeat(np.arange(len(entries)), sizes) * width + known
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    wanted = seat_session * width + c.player
    at = np.minimum(np.searchsorted(ordered, wanted), players - 1)
    return np.where(ordered[at] == wanted, order[at], players), players


def _player_totals(
    slot: np.ndarray, players: int, is_banker: np.ndarray, stake: np.ndarray, amount: np.ndarray
) -> list[PlayerTally]:
    """Every slot's PlayerTally: what PlayerTally.add sums, seat by seat, as unbuffered sums."""
    size = players + 1
    staked = np.zeros(size, np.int64)
    np.add.at(staked, slot, stake)
    net = np.zeros(size, np.int64)
    np.add.at(net, slot, amount)
    won = np.zeros(size, np.int64)
    np.add.at(won, slot, np.maximum(amount, 0))
    max_stake = np.zeros(size, np.int64)
    np.maximum.at(max_stake, slot, stake)
    swing = np.zeros(size, np.int64)
    np.maximum.at(swing, slot, np.abs(amount))
    return list(
        map(
            PlayerTally,
            max_stake.tolist(),
            swing.tolist(),
            net.tolist(),
            staked.tolist(),
            won.tolist(),
            np.bincount(slot, minlength=size).tolist(),
            np.bincount(slot[is_banker], minlength=size).tolist(),
        )
    )
