"""吃火锅模拟: sessions of turns from a deck reshuffled every orbit, with recorded tampering."""

from __future__ import annotations

import random
from typing import Any

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.games import cards
from compliance.games.base import Simulated
from compliance.games.chihuoguo import ChihuoguoOptions, is_pair, settle_bet
from compliance.games.rake import rake_percent, with_rake

STARTING_CHIPS_IN_BASES = 1000
ANTE_IN_BASES = 10


def choose_bet(
    rng: random.Random, ends: list[str], chips: int, pot: int, opts: ChihuoguoOptions
) -> int:
    """A cautious player: bets on wide spreads, never more than a quarter of his chips.

    A quarter keeps a four-fold 牛角尖 within what he holds; 0 is a pass.
    """
    ceiling = min(pot, chips // 4, opts.max_bet)
    if ceiling < opts.min_bet:
        return 0
    if is_pair(ends):
        return opts.min_bet if rng.random() < 0.5 else 0
    low, high = sorted(cards.rank_number(c) for c in ends)
    spread = high - low - 1
    if spread < 7:
        return 0
    share = (spread - 6) / 5 * rng.uniform(0.2, 1.0)
    step = max(opts.min_bet, 1)
    return max(opts.min_bet, min(ceiling, int(ceiling * share)) // step * step)


def simulate(
    rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
) -> Simulated:
    """Turns from a deck reshuffled every orbit; the table breaks up when someone cannot ante."""
    base = max(base, 1)
    ante = ANTE_IN_BASES * base
    opts = ChihuoguoOptions(seats=len(players), min_bet=base, ante=ante)
    variant: dict[str, Any] = {
        "preset": "seed",
        "options": {"min_bet": opts.min_bet, "ante": ante},
    }
    if len(players) != 4:
        variant["options"]["seats"] = len(players)
    chips = dict.fromkeys(players, STARTING_CHIPS_IN_BASES * base)
    pot, first = 0, rng.randrange(len(players))
    percent = rake_percent(rng)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    deck: list[str] = []
    for i in range(n_rounds):
        index = i + 1
        if i % len(players) == 0:
            deck = cards.shuffled(cards.build_deck(), rng)
        player = players[(first + i) % len(players)]
        record: dict[str, Any] = {"player": player, "pot": pot, "chips": dict(chips)}
        deltas = dict.fromkeys(players, 0)
        if pot < opts.min_bet:
            if any(chips[p] < ante for p in players):
                break
            record["antes"] = dict.fromkeys(players, ante)
            for p in players:
                chips[p] -= ante
                deltas[p] -= ante
            pot += ante * len(players)
        ends = [deck.pop(), deck.pop()]
        record["ends"] = ends
        tamper = (
            rng.choice([SETTLEMENT_MISMATCH, ILLEGAL_ACTION])
            if rng.random() < anomaly_rate
            else None
        )
        bet = choose_bet(rng, ends, chips[player], pot, opts)
        if tamper == ILLEGAL_ACTION:
            bet = max(chips[player] // 2 + base, opts.min_bet)
        if bet:
            third = deck.pop()
            outcome = settle_bet(ends, third, bet, pot, opts)
            chips[player] += outcome.delta
            pot -= outcome.delta
            deltas[player] += outcome.delta
            record.update(action="bet", bet=bet, third=third)
        else:
            record["action"] = "pass"
        claimed = dict(deltas)
        if tamper == SETTLEMENT_MISMATCH:
            claimed[player] += base if rng.random() < 0.5 else -base
        record["claimed"] = claimed
        rounds.append(with_rake(record, percent, deltas.values()))
        if tamper:
            anomalies.append((index, tamper))
    return Simulated(variant=variant, rounds=rounds, anomalies=anomalies)
