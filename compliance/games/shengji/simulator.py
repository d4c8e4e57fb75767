"""升级模拟: matches from shuffled decks with a simple legal-move player.

The declarer names his longest side suit as trump (now and then 无主), buries
his lowest cards (sometimes points, to test the kitty), leads singles, pairs
and tractors, and everybody follows with the lowest cards the rules allow,
ruffing a side-suit single or pair when void. Anomalies: a changed payout
(settlement_mismatch) and a revoke or a card not held (illegal_action).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.games.base import Simulated
from compliance.games.cards import build_deck, rank_of, shuffled
from compliance.games.rake import rake_percent, with_rake
from compliance.games.shengji import (
    DEFAULT_PRESET,
    HAND_SIZE,
    LEVELS,
    ShengjiHand,
    ShengjiOptions,
    level_change,
    play_tricks,
    tricks,
)


def _pairs(cards: list[str], trumps: tricks.Trumps) -> list[str]:
    """One card of each identical pair, low to high."""
    counts = Counter(cards)
    return sorted((c for c, n in counts.items() if n >= 2), key=trumps.position)


def _tractor(cards: list[str], trumps: tricks.Trumps, length: int) -> list[str] | None:
    """The lowest tractor of `length` pairs among the cards, as its cards."""
    by_position = {trumps.position(c): c for c in _pairs(cards, trumps)}
    for low in sorted(by_position):
        run = [by_position[low + i] for i in range(length) if low + i in by_position]
        if len(run) == length:
            return [c for c in run for _ in (0, 1)]
    return None


def lead(hand: Counter, trumps: tricks.Trumps, rng: random.Random) -> list[str]:
    cards = list(hand.elements())
    suit = rng.choice(cards)
    suited = sorted(trumps.of_suit(cards, trumps.suit(suit)), key=trumps.position)
    if rng.random() < 0.5 and (run := _tractor(suited, trumps, 2)):
        return run
    pairs = _pairs(suited, trumps)
    if pairs and rng.random() < 0.5:
        return [pairs[0], pairs[0]]
    return [suited[-1] if rng.random() < 0.4 else suited[0]]


def follow(
    hand: Counter,
    shape: tricks.Shape,
    trumps: tricks.Trumps,
    rng: random.Random,
    tractor_follow: bool,
) -> list[str]:
    """The lowest legal follow: suit first, pairs for pairs, a tractor for a tractor."""
    size = sum(shape.units)
    cards = list(hand.elements())
    suited = sorted(trumps.of_suit(cards, shape.suit), key=trumps.position)
    if len(suited) <= size:
        others = sorted(
            (c for c in cards if trumps.suit(c) != shape.suit),
            key=lambda c: _discard_key(c, trumps),
        )
        if (
            not suited
            and shape.suit != tricks.TRUMP
            and shape.kind in ("single", "pair")
            and rng.random() < 0.6
        ):
            trump_cards = sorted(trumps.of_suit(cards, tricks.TRUMP), key=trumps.position)
            if shape.kind == "single" and trump_cards:
                return [trump_cards[0]]
            if shape.kind == "pair" and (pairs := _pairs(trump_cards, trumps)):
                return [pairs[0], pairs[0]]
        return suited + others[: size - len(suited)]
    chosen: list[str] = []
    pool = Counter(suited)
    pairs_wanted = shape.pairs
    if tractor_follow and shape.kind == "tractor":
        run = _tractor(suited, trumps, shape.units[0] // 2)
        if run:
            chosen += run
            pool -= Counter(run)
            pairs_wanted -= len(run) // 2
    for card in _pairs(list(pool.elements()), trumps)[
        : max(0, min(pairs_wanted, (size - len(chosen)) // 2))
    ]:
        chosen += [card, card]
        pool[card] -= 2
    rest = sorted((+pool).elements(), key=trumps.position)
    return chosen + rest[: size - len(chosen)]


def _discard_key(card: str, trumps: tricks.Trumps) -> tuple:
    return (trumps.suit(card) == tricks.TRUMP, tricks.points([card]), trumps.position(card))


def deal_hand(rng: random.Random, seats: list[str], declarer: str, level: str) -> dict[str, Any]:
    """Deal, name the trump and bury, as the declarer would."""
    deck = shuffled(build_deck(2, jokers=True), rng)
    deal = {p: deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i, p in enumerate(seats)}
    kitty = deck[4 * HAND_SIZE :]
    plain = [c[0] for c in deal[declarer] if c not in ("RJ", "BJ") and rank_of(c) != level]
    trump = "NT" if rng.random() < 0.1 else Counter(plain).most_common(1)[0][0]
    trumps = tricks.Trumps(level, None if trump == "NT" else trump)
    pool = deal[declarer] + kitty
    greedy = rng.random() < 0.3
    pool.sort(
        key=lambda c: (
            trumps.suit(c) == tricks.TRUMP,
            -tricks.points([c]) if greedy else tricks.points([c]),
            trumps.position(c),
        )
    )
    return {
        "declarer": declarer,
        "trump": trump,
        "level": level,
        "deal": deal,
        "kitty": kitty,
        "buried": pool[:8],
    }


def play_hand(
    rng: random.Random, record: dict[str, Any], seats: list[str], options: ShengjiOptions
) -> None:
    level, trump, declarer = record["level"], record["trump"], record["declarer"]
    trumps = tricks.Trumps(level, None if trump == "NT" else trump)
    hands = {p: Counter(cards) for p, cards in record["deal"].items()}
    hands[declarer] += Counter(record["kitty"])
    hands[declarer] -= Counter(record["buried"])
    leader, played = declarer, []
    while hands[leader]:
        start = seats.index(leader)
        led = lead(hands[leader], trumps, rng)
        shape = tricks.shape(led, trumps)
        assert shape is not None  # lead() leads cards of one suit
        trick = [(leader, led)]
        for i in range(1, 4):
            player = seats[(start + i) % 4]
            trick.append(
                (player, follow(hands[player], shape, trumps, rng, options.tractor_follow))
            )
        for player, cards in trick:
            hands[player] -= Counter(cards)
        leader = trick[tricks.trick_winner(trick, trumps)][0]
        played.append([{"player": p, "cards": c} for p, c in trick])
    record["tricks"] = played


def simulate(
    rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
) -> Simulated:
    if len(players) < 4:
        raise ValueError("升级 needs four players")
    seats = list(players[:4])
    options = ShengjiOptions(stake_per_level=base)
    levels = [0, 0]
    declarer = rng.choice(seats)
    percent = rake_percent(rng)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    for index in range(1, n_rounds + 1):
        team = seats.index(declarer) % 2
        record = deal_hand(rng, seats, declarer, LEVELS[levels[team]])
        play_hand(rng, record, seats, options)
        hand = msgspec.convert({**record, "claimed": {}}, ShengjiHand)
        held = {p: Counter(hand.deal[p]) for p in seats}
        held[declarer] += Counter(hand.kitty)
        held[declarer] -= Counter(hand.buried)
        trumps = tricks.Trumps(
            record["level"], None if record["trump"] == "NT" else record["trump"]
        )
        outcome = play_tricks(hand, held, seats, trumps, options)
        assert outcome.problem is None and outcome.points is not None, outcome.problem
        side, gain = level_change(outcome.points, options.step)
        gainer = team if side == "holders" else 1 - team
        levels[gainer] = min(levels[gainer] + gain, len(LEVELS) - 1)
        record["points"] = outcome.points
        record["claimed"] = {
            p: (gain if seats.index(p) % 2 == gainer else -gain) * base for p in seats
        }
        with_rake(record, percent, record["claimed"].values())
        if rng.random() < anomaly_rate:
            _tamper(rng, record, index, anomalies, trumps)
        rounds.append(record)
        partner = seats[(seats.index(declarer) + 2) % 4]
        declarer = partner if gainer == team else seats[(seats.index(declarer) + 1) % 4]
    variant = {"preset": DEFAULT_PRESET, "options": {"stake_per_level": base}}
    return Simulated(variant, rounds, anomalies)


def _tamper(
    rng: random.Random, record: dict[str, Any], index: int, anomalies: list, trumps: tricks.Trumps
) -> None:
    if rng.random() < 0.5:
        player = rng.choice(list(record["claimed"]))
        record["claimed"][player] += rng.choice((-1, 1)) * max(1, abs(record["claimed"][player]))
        anomalies.append((index, SETTLEMENT_MISMATCH))
        return
    if not _revoke(record, trumps):
        play = rng.choice([p for trick in record["tricks"] for p in trick])
        dealt = set(record["deal"][play["player"]]) | set(record["kitty"])
        play["cards"] = [next(c for c in build_deck(1, jokers=True) if c not in dealt)] + play[
            "cards"
        ][1:]
    anomalies.append((index, ILLEGAL_ACTION))


def _revoke(record: dict[str, Any], trumps: tricks.Trumps) -> bool:
    """Swap a followed card with a later card of another suit: the follower revokes."""
    tricks_ = record["tricks"]
    for t, trick in enumerate(tricks_[:-1]):
        suit = trumps.suit(trick[0]["cards"][0])
        for play in trick[1:]:
            mine = [c for c in play["cards"] if trumps.suit(c) == suit]
            if not mine:
                continue
            for later in tricks_[t + 1 :]:
                theirs = next(p for p in later if p["player"] == play["player"])
                other = next((c for c in theirs["cards"] if trumps.suit(c) != suit), None)
                if other:
                    play["cards"][play["cards"].index(mine[0])] = other
                    theirs["cards"][theirs["cards"].index(other)] = mine[0]
                    return True
    return False
