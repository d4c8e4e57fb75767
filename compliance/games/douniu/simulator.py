"""斗牛模拟: realistic 斗牛 sessions from shuffled decks, with recorded tampering."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from compliance.domain.rounds import SETTLEMENT_MISMATCH, WRONG_BANKER
from compliance.games.base import Simulated
from compliance.games.cards import STANDARD_52, deal, shuffled
from compliance.games.douniu import GAME, DouniuRound, DouniuSeat, hands, next_banker, settle

MAX_SEATS = 6
GRABS = (1, 1, 1, 2, 2, 3, 4)  # 抢庄: most rounds are not grabbed high
BETS = (1, 1, 1, 2, 2, 3)  # 闲家 bet multipliers
RAKE_PERCENTS = (0, 0, 3, 5)  # 抽水 from winners, per session


def _seat(rng: random.Random, players: list[str], keep: str | None) -> list[str]:
    """Everyone when the room has six or fewer; else six of them, the due banker among them."""
    if len(players) <= MAX_SEATS:
        return list(players)
    others = [p for p in players if p != keep]
    chosen = rng.sample(others, MAX_SEATS - (keep is not None))
    return chosen + [keep] if keep is not None else chosen


def _record(rnd: DouniuRound) -> dict[str, Any]:
    seats = []
    for seat in rnd.seats:
        row: dict[str, Any] = {"player": seat.player, "cards": list(seat.cards)}
        if seat.player != rnd.banker:
            row["bet"] = seat.bet
        row["claimed"] = seat.claimed
        if seat.rake:
            row["rake"] = seat.rake
        seats.append(row)
    return {"banker": rnd.banker, "base": rnd.base, "grab": rnd.grab, "seats": seats}


Steer = Callable[[dict[str, int], bool], bool]
STEER_TRIES = 200


def simulate(
    rng: random.Random,
    players: list[str],
    n_rounds: int,
    base: int,
    anomaly_rate: float,
    steer: Steer | None = None,
) -> Simulated:
    """模拟: rounds of the classic preset, the banker passed by 牛九, payouts tampered at random.

    `steer(won, last_try)` (each player's result of the deal, before rake) keeps a round when it returns True, else the round is dealt
    again from a fresh shuffle, with the same due banker (so the 牛九 chain holds); it must
    keep the round on its last try. Each round stays an honest deal: only which deals are
    kept is chosen (the simulator's dumping pairs and lucky winners, issue 24)."""
    if len(players) < 2:
        raise ValueError("斗牛 needs at least 2 players")
    rake_percent = rng.choice(RAKE_PERCENTS)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    due: str | None = None
    for index in range(1, n_rounds + 1):
        tries = STEER_TRIES if steer is not None else 1
        for attempt in range(tries):
            rnd, scores, anomaly = _round(rng, players, due, base, anomaly_rate, rake_percent)
            won = {seat.player: seat.claimed + seat.rake for seat in rnd.seats}
            if steer is None or steer(won, attempt == tries - 1):
                break
        if anomaly:
            anomalies.append((index, anomaly))
        due = next_banker(rnd, scores)
        rounds.append(_record(rnd))
    return Simulated(variant={"preset": "classic"}, rounds=rounds, anomalies=anomalies)


def _round(rng, players, due, base, anomaly_rate, rake_percent):
    options = GAME.options_for(None)
    seated = _seat(rng, players, due)
    rng.shuffle(seated)
    dealt = deal(shuffled(STANDARD_52, rng), len(seated), 5)
    anomaly = None
    if rng.random() < anomaly_rate:
        anomaly = rng.choice((SETTLEMENT_MISMATCH, WRONG_BANKER) if due else (SETTLEMENT_MISMATCH,))
    banker = due if due is not None else rng.choice(seated)
    if anomaly == WRONG_BANKER:
        banker = rng.choice([p for p in seated if p != due])
    rnd = DouniuRound(
        banker=banker,
        base=base,
        grab=rng.choice(GRABS),
        seats=[
            DouniuSeat(player=p, cards=cards, claimed=0, bet=1 if p == banker else rng.choice(BETS))
            for p, cards in zip(seated, dealt, strict=True)
        ],
    )
    scores = [hands.score(seat.cards) for seat in rnd.seats]
    deltas, _ = settle(rnd, scores, options.multipliers, options.equal_rank == "banker")
    for seat in rnd.seats:
        won = deltas[seat.player]
        seat.rake = won * rake_percent // 100 if won > 0 else 0
        seat.claimed = won - seat.rake
    if anomaly == SETTLEMENT_MISMATCH:
        rng.choice(rnd.seats).claimed += rng.choice((-1, 1)) * base * rng.randint(1, 3)
    return rnd, scores, anomaly
