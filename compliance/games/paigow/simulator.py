"""牌九模拟: rounds of 牌九 from shuffled decks, with recorded tampering."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.games.base import Simulated
from compliance.games.cards import shuffled
from compliance.games.paigow import PaigowOptions, PaigowRound, ranking_for, settle_round
from compliance.games.rake import rake_percent, with_rake


def simulate(
    rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
) -> Simulated:
    """模拟: the banker rotates; bets of 1 to 5 units under a table limit of 10; claims tampered."""
    if len(players) < 2:
        raise ValueError("牌九 needs at least 2 players")
    options = PaigowOptions(max_bet=10 * base)
    ranking = ranking_for()
    percent = rake_percent(rng)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    for index in range(1, n_rounds + 1):
        seated = list(players) if len(players) <= 8 else rng.sample(players, 8)
        banker = seated[index % len(seated)]
        deck = shuffled(list(ranking.kinds), rng)
        record: dict[str, Any] = {"banker": banker, "seats": []}
        for i, p in enumerate(seated):
            seat: dict[str, Any] = {"player": p, "cards": deck[2 * i : 2 * i + 2]}
            if p != banker:
                seat["bet"] = base * rng.choice((1, 1, 2, 3, 5))
            record["seats"].append(seat)
        check = None
        if rng.random() < anomaly_rate:
            check = rng.choice((SETTLEMENT_MISMATCH, ILLEGAL_ACTION))
        if check == ILLEGAL_ACTION:
            rng.choice([s for s in record["seats"] if s["player"] != banker])["bet"] = (
                options.max_bet + base * rng.randint(1, 5)
            )
        result = settle_round(index, msgspec.convert(record, PaigowRound), options, set(players))
        for seat in record["seats"]:
            seat["claimed"] = result.deltas[seat["player"]]
        if check == SETTLEMENT_MISMATCH:
            rng.choice(record["seats"])["claimed"] += rng.choice((-1, 1)) * base * rng.randint(1, 3)
        if check:
            anomalies.append((index, check))
        rounds.append(with_rake(record, percent, result.deltas.values()))
    return Simulated(
        variant={"preset": "seed", "options": {"max_bet": options.max_bet}},
        rounds=rounds,
        anomalies=anomalies,
    )
