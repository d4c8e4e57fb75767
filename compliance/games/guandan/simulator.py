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

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.games.base import Simulated
from compliance.games.cards import JOKERS, build_deck, rank_of, shuffled
from compliance.games.guandan import DEFAULT_PRESET, GuandanOptions, Match, combos
from compliance.games.guandan.play import Table, due_tribute, team
from compliance.games.rake import rake_percent, with_rake

RUN_SHAPES = {combos.STRAIGHT: (1, 5), combos.TUBE: (2, 3), combos.PLATE: (3, 2)}
GROUP_SIZES = {combos.SINGLE: 1, combos.PAIR: 2, combos.TRIPLE: 3}
Candidate = tuple[list[str], combos.Combo]


class Holding:
    """A hand indexed by rank for the player's search: natural cards per rank and wildcards."""

    def __init__(self, hand: Counter, level: str):
        self.level = level
        self.wild = combos.wildcard(level)
        self.wilds = hand[self.wild]
        self.by_rank: dict[str, list[str]] = {}
        for card, count in hand.items():
            if card != self.wild and count > 0:
                self.by_rank.setdefault(rank_of(card), []).extend([card] * count)

    def fill(
        self, need: dict[str, int], suit: str | None = None, taken: Counter | None = None
    ) -> list[str] | None:
        """Cards for a rank pattern, naturals first, the 逢人配 card for the rest."""
        spare = self.wilds - (taken[self.wild] if taken else 0)
        cards: list[str] = []
        for rank, count in need.items():
            pool = self.by_rank.get(rank, [])
            if suit is not None:
                pool = [c for c in pool if c[0] == suit]
            if taken:
                pool = list((Counter(pool) - taken).elements())
            take = pool[:count]
            short = count - len(take)
            spare -= short
            if spare < 0 or (short and rank in JOKERS):
                return None
            cards += take + [self.wild] * short
        return cards

    def candidates(self, kind: str, above: int = 0) -> list[Candidate]:
        """Card sets for a combination of the kind with a key above `above`, and its meaning."""
        value = combos.value
        level = self.level
        found: list[Candidate] = []
        if kind in GROUP_SIZES:
            size = GROUP_SIZES[kind]
            for rank in (*combos.LEVELS, *JOKERS):
                if value(rank, level) <= above:
                    continue
                if cards := self.fill({rank: size}):
                    found.append((cards, combos.Combo(kind, value(rank, level), size, rank)))
        elif kind == combos.FULL_HOUSE:
            for triple in combos.LEVELS:
                if value(triple, level) <= above:
                    continue
                three = self.fill({triple: 3})
                if not three:
                    continue
                pairs = (self.fill({r: 2}, taken=Counter(three)) for r in (*combos.LEVELS, *JOKERS))
                two = next((c for c in pairs if c and rank_of(c[0]) != triple), None)
                if two:
                    combo = combos.Combo(kind, value(triple, level), 5, triple)
                    found.append((three + two, combo))
        elif kind in RUN_SHAPES:
            count, length = RUN_SHAPES[kind]
            for top, ranks in combos.RUN_SETS[length]:
                if top <= above:
                    continue
                if cards := self.fill({r: count for r in ranks}):
                    name = combos.SEQUENCE_NAME[top]
                    found.append((cards, combos.Combo(kind, top, count * length, name)))
        elif kind in combos.BOMBS:
            found = self._bombs()
        return found

    def _bombs(self) -> list[Candidate]:
        found: list[Candidate] = []
        for rank in combos.LEVELS:
            held = len(self.by_rank.get(rank, ()))
            if held >= 2 and held + self.wilds >= 4:
                size = max(4, held)
                cards = self.fill({rank: size}) or []
                combo = combos.Combo(combos.BOMB, combos.value(rank, self.level), size, rank)
                found.append((cards, combo))
        for suit in "SHCD":
            for top, ranks in combos.RUN_SETS[5]:
                if run := self.fill(dict.fromkeys(ranks, 1), suit):
                    name = combos.SEQUENCE_NAME[top]
                    found.append((run, combos.Combo(combos.STRAIGHT_FLUSH, top, 5, name)))
        if len(self.by_rank.get("BJ", ())) == 2 and len(self.by_rank.get("RJ", ())) == 2:
            found.append((["BJ", "BJ", "RJ", "RJ"], combos.Combo(combos.JOKER_BOMB, 17, 4, "RJ")))
        return [c for c in found if c[0]]


def weakest(
    holding: Holding, kinds: tuple[str, ...], table: combos.Combo | None, whole: bool = False
) -> tuple[list[str], str] | None:
    """The weakest candidate of the kinds that beats the table, and its label; of equal
    strength the fewest cards, or with `whole` (a lead: a rank's group played whole) the
    fewest 逢人配 cards and then the most cards."""
    best = None
    above = table.key if table is not None and not table.is_bomb else 0
    for kind in kinds:
        for cards, combo in holding.candidates(kind, 0 if kind in combos.BOMBS else above):
            if table is None or combos.beats(combo, table):
                strength = (combo.is_bomb, combo.power if combo.is_bomb else (0, combo.key))
                order = (
                    (strength, cards.count(holding.wild), -len(cards))
                    if whole
                    else (strength, 0, len(cards))
                )
                if best is None or order < best[0]:
                    best = (order, cards, combo.label)
    return (best[1], best[2]) if best else None


def choose_play(table: Table, player: str, rng: random.Random) -> tuple[list[str], str | None]:
    """A simple legal move: the cards and, where they are ambiguous, what they are declared as."""
    hand, level = table.hands[player], table.level
    holding = Holding(hand, level)
    found: tuple[list[str], str | None] | None
    if table.table is None:
        kinds: tuple[str, ...] = (combos.SINGLE, combos.PAIR, combos.TRIPLE)
        if rng.random() < 0.2:
            kinds = (combos.STRAIGHT, combos.TUBE, combos.PLATE, combos.FULL_HOUSE)
        found = weakest(holding, kinds, None, whole=True) or weakest(
            holding, (combos.SINGLE,), None
        )
    else:
        if team(table.seats, table.owner) == team(table.seats, player) and rng.random() < 0.85:
            return [], None
        found = weakest(holding, (table.table.kind,), table.table)
        if found is None and rng.random() < 0.3:
            found = weakest(holding, tuple(sorted(combos.BOMBS)), table.table)
    if found is None or combos.choose(found[0], level, table.table, found[1])[0] is None:
        if table.table is not None:
            return [], None
        found = ([min(hand, key=lambda c: combos.value(rank_of(c), level))], None)
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
    percent = rake_percent(rng)
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
        with_rake(record, percent, claimed.values())
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
