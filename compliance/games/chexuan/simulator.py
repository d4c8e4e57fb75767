"""扯旋模拟: realistic 扯旋 rounds from shuffled decks, with recorded tampering.

Players bet by the strength of the cards they hold so far; a weak hand folds
to a bet, a strong one raises or 敲; at the showdown most players keep the
strongest tail (尾大吃皮 pays the tail). The claimed result is the rules' own.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.games.base import Simulated
from compliance.games.cards import shuffled
from compliance.games.chexuan import GAME, ChexuanRound, settle_round
from compliance.games.chexuan.betting import (
    ALL_IN,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    TIMEOUT,
    Act,
    Betting,
    ChexuanAction,
    DealRound,
    can_bet,
)
from compliance.games.chexuan.hands import Ranking
from compliance.games.rake import rake_percent, with_rake

MAX_SEATS = 6
CAPS = (20, 30, 50, 50, 100, 200)  # 簸簸 in units of the base
RAISES = (1, 1, 2, 2, 3, 5)


def _strength(ranking: Ranking, cards: list[str]) -> float:
    """How good the cards so far look, 0 to 1: the best two-card hand they hold."""
    top = max(ranking.two(a, b).strength for i, a in enumerate(cards) for b in cards[i + 1 :])
    return top / 100


def _choose(
    rng: random.Random, strength: float, bet: int, level: int, room: int, raises: int, base: int
) -> tuple[Act, int]:
    need, left = level - bet, room - bet
    if need <= 0:
        if raises < 3 and rng.random() < 0.2 + 0.6 * strength:
            if strength > 0.9 and rng.random() < 0.3:
                return (ALL_IN, left)
            amount = level + base * rng.choice(RAISES) - bet
            return (ALL_IN, left) if amount >= left else (RAISE, amount)
        return (CHECK, 0)
    if need >= left:
        return (ALL_IN, left) if strength > 0.6 else (FOLD, 0)
    if strength < 0.35 and rng.random() < 0.6:
        return (FOLD, 0)
    if strength > 0.8 and raises < 3 and rng.random() < 0.35:
        amount = level + base * rng.choice(RAISES) - bet
        return (ALL_IN, left) if amount >= left else (RAISE, amount)
    return (CALL, need)


def _play(
    rng: random.Random,
    ranking: Ranking,
    seats: list[str],
    dealer: str,
    rooms: dict[str, int],
    hands: dict[str, list[str]],
    base: int,
) -> tuple[list, int]:
    """The betting of one round: action lists per deal round, and how many cards were dealt."""
    state = Betting(bets=dict.fromkeys(seats, 0))
    start = seats.index(dealer)
    logged: list[list[dict[str, Any]]] = []
    for number, dealt in enumerate((2, 3, 4), start=1):
        if len(state.live(seats)) <= 1:
            return logged, dealt - 1
        if not can_bet(state, seats):
            logged.append([])
            continue
        deal_round = DealRound(state, seats, rooms, number, start, strict=False)
        actions: list[dict[str, Any]] = []
        raises = 0
        while not deal_round.closed:
            p = deal_round.expected()
            assert p is not None  # an open deal round has a player to act
            act, amount = _choose(
                rng,
                _strength(ranking, hands[p][:dealt]),
                state.bets[p],
                deal_round.level,
                rooms[p],
                raises,
                base,
            )
            if act == FOLD and rng.random() < 0.1:
                act = TIMEOUT
            raises += act in (RAISE, ALL_IN)
            row: dict[str, Any] = {"player": p, "act": act}
            if amount:
                row["amount"] = amount
            actions.append(row)
            deal_round.apply(ChexuanAction(p, act, amount or None))
        logged.append(actions)
        if all(a["act"] == CHECK for a in actions) and not set(state.live(seats)) & state.all_in:
            return logged, dealt
    return logged, 4


def _split(rng: random.Random, ranking: Ranking, cards: list[str]) -> tuple[list[str], list[str]]:
    splits = ranking.four(cards).splits
    if rng.random() < 0.8:
        best = max(splits, key=lambda s: (s.tail.strength, s.head.strength))
    else:
        best = rng.choice(splits)
    return list(best.head.cards), list(best.tail.cards)


def _tamper_betting(rng: random.Random, record: dict[str, Any]) -> bool:
    """An illegal 休: a 跟 after a bet logged as 休; else a split logged head-down."""
    calls = [
        (r, i)
        for r, acts in enumerate(record["betting"])
        for i, a in enumerate(acts)
        if a["act"] == CALL
    ]
    if calls:
        r, i = rng.choice(calls)
        record["betting"][r][i] = {"player": record["betting"][r][i]["player"], "act": CHECK}
        return True
    return False


def _tamper_split(record: dict[str, Any], ranking: Ranking) -> bool:
    for seat in record["seats"]:
        if (
            "head" in seat
            and ranking.two(*seat["head"]).strength > ranking.two(*seat["tail"]).strength
        ):
            seat["head"], seat["tail"] = seat["tail"], seat["head"]
            return True
    return False


def simulate(
    rng: random.Random,
    players: list[str],
    n_rounds: int,
    base: int,
    anomaly_rate: float,
) -> Simulated:
    """模拟: seed-preset rounds with 2 to 6 seats, the dealer rotating, claims tampered at random."""
    if len(players) < 2:
        raise ValueError("扯旋 needs at least 2 players")
    options = GAME.options_for(None)
    ranking = options.ranking()
    caps = {p: base * rng.choice(CAPS) for p in players}
    percent = rake_percent(rng)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    for index in range(1, n_rounds + 1):
        seats = list(players) if len(players) <= MAX_SEATS else rng.sample(players, MAX_SEATS)
        if rng.random() < 0.1:
            caps[rng.choice(seats)] = base * rng.choice(CAPS)
        dealer = seats[index % len(seats)]
        deck = shuffled(list(ranking.kinds), rng)
        hands = {p: deck[4 * i : 4 * i + 4] for i, p in enumerate(seats)}
        rooms = {p: caps[p] - base for p in seats}
        betting, dealt = _play(rng, ranking, seats, dealer, rooms, hands, base)
        record: dict[str, Any] = {"dealer": dealer, "ante": base, "seats": [], "betting": betting}
        folded = {a["player"] for acts in betting for a in acts if a["act"] in (FOLD, TIMEOUT)}
        for p in seats:
            seat: dict[str, Any] = {"player": p, "cap": caps[p], "cards": hands[p][:dealt]}
            if dealt == 4 and p not in folded:
                seat["head"], seat["tail"] = _split(rng, ranking, hands[p])
            record["seats"].append(seat)
        check = None
        if rng.random() < anomaly_rate:
            check = SETTLEMENT_MISMATCH
            if rng.random() < 0.5 and (
                _tamper_betting(rng, record) or _tamper_split(record, ranking)
            ):
                check = ILLEGAL_ACTION
        result, _ = settle_round(
            index, msgspec.convert(record, ChexuanRound), options, set(players)
        )
        for seat in record["seats"]:
            seat["claimed"] = result.deltas[seat["player"]]
        if check == SETTLEMENT_MISMATCH:
            rng.choice(record["seats"])["claimed"] += rng.choice((-1, 1)) * base * rng.randint(1, 5)
        if check:
            anomalies.append((index, check))
        rounds.append(with_rake(record, percent, result.deltas.values()))
    return Simulated(variant={"preset": "seed"}, rounds=rounds, anomalies=anomalies)
