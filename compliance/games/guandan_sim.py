"""掼蛋模拟: whole matches from shuffled decks with a simple legal-move player.

The player leads his lowest group (now and then a straight, 三连对 or 三带二),
follows with the weakest combination that beats the table, bombs now and then
when he cannot, and lets his partner's play stand. Anomalies: a changed payout
(settlement_mismatch), a card played that the player does not hold, or a
tribute that keeps a higher card (illegal_action).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from compliance.games import guandan_combos as combos
from compliance.games.base import ILLEGAL_ACTION, SETTLEMENT_MISMATCH, Simulated
from compliance.games.cards import JOKERS, build_deck, rank_of, shuffled
from compliance.games.guandan import DEFAULT_PRESET, GuandanOptions, Match
from compliance.games.guandan_hand import Table, due_tribute, team

RUN_SHAPES = {combos.STRAIGHT: (1, 5), combos.TUBE: (2, 3), combos.PLATE: (3, 2)}


def fill(
    hand: Counter, need: dict[str, int], level: str, suit: str | None = None
) -> list[str] | None:
    """Cards from the hand for a rank pattern, naturals first, the 逢人配 card for the rest."""
    wild = combos.wildcard(level)
    spare = hand[wild]
    cards: list[str] = []
    for rank, count in need.items():
        held = [
            c
            for c in hand.elements()
            if c != wild and rank_of(c) == rank and (suit is None or c[0] == suit)
        ]
        if rank in JOKERS and len(held) < count:
            return None
        take = held[:count]
        cards += take
        spare -= count - len(take)
        if spare < 0:
            return None
        cards += [wild] * (count - len(take))
    return cards


def candidates(hand: Counter, level: str, kind: str) -> list[list[str]]:
    """Card sets that may make a combination of the kind (validated by the caller)."""
    found: list[list[str]] = []
    ranks = (*combos.LEVELS, *JOKERS)
    if kind in (combos.SINGLE, combos.PAIR, combos.TRIPLE):
        size = {combos.SINGLE: 1, combos.PAIR: 2, combos.TRIPLE: 3}[kind]
        found = [c for r in ranks if (c := fill(hand, {r: size}, level))]
    elif kind == combos.FULL_HOUSE:
        for triple in combos.LEVELS:
            three = fill(hand, {triple: 3}, level)
            if not three:
                continue
            rest = hand - Counter(three)
            two = next((c for r in ranks if r != triple and (c := fill(rest, {r: 2}, level))), None)
            if two:
                found.append(three + two)
    elif kind in RUN_SHAPES:
        count, length = RUN_SHAPES[kind]
        for start in range(1, 16 - length):
            need = {combos.SEQUENCE_NAME[p]: count for p in range(start, start + length)}
            if cards := fill(hand, need, level):
                found.append(cards)
    elif kind in combos.BOMBS:
        wild = combos.wildcard(level)
        for rank in combos.LEVELS:
            held = sum(n for c, n in hand.items() if c != wild and rank_of(c) == rank)
            if held + hand[wild] >= 4 and held >= 2:
                found.append(fill(hand, {rank: max(4, held)}, level) or [])
        for suit in "SHCD":
            for start in range(1, 11):
                need = {combos.SEQUENCE_NAME[p]: 1 for p in range(start, start + 5)}
                if cards := fill(hand, need, level, suit):
                    found.append(cards)
        if hand["BJ"] == 2 and hand["RJ"] == 2:
            found.append(["BJ", "BJ", "RJ", "RJ"])
    return [c for c in found if c]


def weakest(
    hand: Counter, level: str, kinds: tuple[str, ...], table: combos.Combo | None
) -> tuple[list[str], str] | None:
    """The weakest card set of the kinds that is a legal play against the table, and its label."""
    best = None
    for kind in kinds:
        for cards in candidates(hand, level, kind):
            for combo in combos.interpretations(cards, level):
                if combo.kind in kinds and (table is None or combos.beats(combo, table)):
                    strength = (
                        combo.is_bomb,
                        combo.power if combo.is_bomb else (0, combo.key),
                        len(cards),
                    )
                    if best is None or strength < best[0]:
                        best = (strength, cards, combo.label)
    return (best[1], best[2]) if best else None


def choose_play(table: Table, player: str, rng: random.Random) -> tuple[list[str], str | None]:
    """A simple legal move: the cards and, where they are ambiguous, what they are declared as."""
    hand, level = table.hands[player], table.level
    if table.table is None:
        kinds: tuple[str, ...] = (combos.SINGLE, combos.PAIR, combos.TRIPLE)
        roll = rng.random()
        if roll < 0.2:
            kinds = (combos.STRAIGHT, combos.TUBE, combos.PLATE, combos.FULL_HOUSE)
        found = weakest(hand, level, kinds, None) or weakest(hand, level, (combos.SINGLE,), None)
        if found is None:  # only a bomb or the wildcards left
            found = weakest(hand, level, tuple(combos.BOMBS), None) or (list(hand.elements()), None)
    else:
        if team(table.seats, table.owner) == team(table.seats, player) and rng.random() < 0.85:
            return [], None
        found = weakest(hand, level, (table.table.kind,), table.table)
        if found is None and rng.random() < 0.3:
            found = weakest(hand, level, tuple(combos.BOMBS), table.table)
        if found is None:
            return [], None
    cards, label = found
    return cards, (label if len(combos.interpretations(cards, level)) > 1 else None)


def pay_tribute(hands: dict[str, Counter], seats: list[str], previous: list[str], level: str):
    """进贡: each payer's highest card (not 逢人配), the larger to 上游; the lowest ≤ 10 back."""
    payers, receivers = due_tribute(previous, seats)
    if sum(hands[p]["RJ"] for p in payers) >= 2:
        return [], previous[0]
    wild = combos.wildcard(level)
    paid = {}
    for payer in payers:
        paid[payer] = max(
            (c for c in hands[payer] if c != wild), key=lambda c: combos.value(rank_of(c), level)
        )
    order = sorted(payers, key=lambda p: -combos.value(rank_of(paid[p]), level))
    records = []
    for payer, receiver in zip(order, receivers, strict=True):
        hands[payer][paid[payer]] -= 1
        hands[receiver][paid[payer]] += 1
    for payer, receiver in zip(order, receivers, strict=True):
        low = [c for c in +hands[receiver] if c not in JOKERS and combos.NATURAL[rank_of(c)] <= 10]
        back = min(low or list(+hands[receiver]), key=lambda c: combos.value(rank_of(c), level))
        hands[receiver][back] -= 1
        hands[payer][back] += 1
        records.append(
            {"payer": payer, "receiver": receiver, "card": paid[payer], "returned": back}
        )
    return records, order[0]  # the payer of the larger tribute, to 上游, leads


def lower_tribute(record: dict[str, Any], dealt: list[str], level: str) -> bool:
    """Tamper: pay a lower card than the highest one held."""
    top = combos.value(rank_of(record["card"]), level)
    wild = combos.wildcard(level)
    lower = [c for c in dealt if c != wild and combos.value(rank_of(c), level) < top]
    if not lower:
        return False
    record["card"] = lower[0]
    return True


def simulate(
    rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
) -> Simulated:
    if len(players) < 4:
        raise ValueError("掼蛋 needs four players")
    seats = list(players[:4])
    options = GuandanOptions(stake_per_level=base)
    match = Match(options)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    for index in range(1, n_rounds + 1):
        level = match.level
        deck = shuffled(build_deck(2, jokers=True), rng)
        deal = {p: deck[i * 27 : (i + 1) * 27] for i, p in enumerate(seats)}
        hands = {p: Counter(cards) for p, cards in deal.items()}
        tribute, leader = [], rng.choice(seats)
        if match.previous is not None:
            tribute, leader = pay_tribute(hands, seats, match.previous, level)
        table = Table(hands, seats, leader, level)
        plays: list[dict[str, Any]] = []
        while not table.over:
            player = table.turn
            cards, label = choose_play(table, player, rng)
            problem = table.apply(player, cards, label)
            assert problem is None, problem
            plays.append({"player": player, "cards": cards} | ({"combo": label} if label else {}))
        order = table.order
        winner, gain, passed = match.settle(seats, order)
        amount = gain * base + (options.stake_per_game if passed else 0)
        claimed = {p: amount if team(seats, p) == winner else -amount for p in seats}
        record: dict[str, Any] = {"level": level, "deal": deal, "finish": order, "claimed": claimed}
        if tribute:
            record["tribute"] = tribute
        record["plays"] = plays
        if rng.random() < anomaly_rate:
            _tamper(rng, record, index, anomalies, level)
        rounds.append(record)
    variant = {"preset": DEFAULT_PRESET, "options": {"stake_per_level": base}}
    return Simulated(variant, rounds, anomalies)


def _tamper(
    rng: random.Random, record: dict[str, Any], index: int, anomalies: list, level: str
) -> None:
    kind = rng.choice(("payout", "play", "tribute"))
    if kind == "tribute" and record.get("tribute"):
        first = record["tribute"][0]
        if lower_tribute(first, record["deal"][first["payer"]], level):
            anomalies.append((index, ILLEGAL_ACTION))
            return
    if kind == "play":
        plays = [p for p in record["plays"] if p["cards"]]
        play = rng.choice(plays)
        held = set(record["deal"][play["player"]]).union(
            *([t["card"], t["returned"]] for t in record.get("tribute", []))
        )
        absent = next(c for c in build_deck(1, jokers=True) if c not in held)
        play["cards"] = [absent]
        play.pop("combo", None)
        anomalies.append((index, ILLEGAL_ACTION))
        return
    player = rng.choice(list(record["claimed"]))
    record["claimed"][player] += rng.choice((-1, 1)) * max(1, abs(record["claimed"][player]) or 1)
    anomalies.append((index, SETTLEMENT_MISMATCH))
