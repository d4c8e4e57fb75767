"""变色龙 simulator: a simple legal player on really shuffled decks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH
from compliance.games import cards
from compliance.games.base import Simulated
from compliance.games.bianselong import (
    PRESETS,
    BianselongOptions,
    BianselongPlay,
    Table,
    settle_penalties,
)
from compliance.games.bianselong.record import is_suit
from compliance.games.rake import rake_percent, with_rake

SIM_PRESET = "court10"
MAX_TURNS = 400
MAX_ATTEMPTS = 20


class Stock:
    """The face-down pile in its shuffled order, refilled from the discards when empty."""

    def __init__(self, deck: list[cards.Card], rng: random.Random) -> None:
        self.deck, self.rng = deck, rng

    def draw(self, table: Table, count: int) -> list[cards.Card]:
        count = min(count, table.available())
        drawn: list[cards.Card] = []
        for _ in range(count):
            if not self.deck:
                self.deck = cards.shuffled(table.discard[:-1], self.rng)
            drawn.append(self.deck.pop())
        return drawn


def choose_play(
    table: Table, player: str, stock: Stock, rng: random.Random, cheat: bool
) -> BianselongPlay:
    """Pass a 7 or 8 on when possible; else play a matching card, a J last; else draw.

    With `cheat`, a player who could play draws instead (an illegal action).
    """
    playable = table.playable(player)
    if table.pending_draw:
        if playable:
            return BianselongPlay(player=player, card=rng.choice(playable))
        return BianselongPlay(player=player, draw=tuple(stock.draw(table, table.pending_draw)))
    if table.pending_skip:
        return (
            BianselongPlay(player=player, card=rng.choice(playable))
            if playable
            else BianselongPlay(player=player)
        )
    if playable and not (cheat and table.available()):
        plain = [c for c in playable if cards.rank_of(c) != "J"]
        card = rng.choice(plain or playable)
        if cards.rank_of(card) != "J":
            return BianselongPlay(player=player, card=card)
        rest = Counter(cards.suit_of(c) for c in table.hands[player].elements() if c != card)
        suit = rest.most_common(1)[0][0] if rest else cards.suit_of(card)
        return BianselongPlay(player=player, card=card, suit=suit if is_suit(suit) else None)
    return BianselongPlay(player=player, draw=tuple(stock.draw(table, table.opts.stuck_draw)))


def play_out(
    rng: random.Random, opts: BianselongOptions, order: list[str], decks: int, cheat: bool
) -> tuple[dict[str, Any], Table, bool]:
    """One deal played to the end; retried with a fresh shuffle if the table locks up."""
    for _ in range(MAX_ATTEMPTS):
        deck = cards.shuffled(cards.build_deck(decks), rng)
        hands = dict(zip(order, cards.deal(deck, len(order), opts.hand_size), strict=True))
        starter = deck.pop(0)
        table = Table.deal(opts, order, hands, starter, decks)
        stock, cheated = Stock(deck, rng), False
        plays: list[BianselongPlay] = []
        table.turn = rng.randrange(len(order))
        while table.winner is None and len(plays) < MAX_TURNS:
            player = table.due() or order[0]
            could = (
                bool(table.playable(player)) and not table.pending_draw and not table.pending_skip
            )
            play = choose_play(table, player, stock, rng, cheat and not cheated)
            cheated = cheated or (cheat and could and bool(play.draw))
            table.apply(play)
            plays.append(play)
        if table.winner is not None:
            record = {"hands": hands, "starter": starter, "plays": plays, "decks": decks}
            return record, table, cheated
    raise RuntimeError("变色龙 simulation locked up on every shuffle")


def simulate(
    rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
) -> Simulated:
    """Deals in seat order; a new game starts when one player is left standing."""
    if len(players) < 2:
        raise ValueError("变色龙 needs two or more players")
    base = max(base, 1)
    opts = BianselongOptions(**PRESETS[SIM_PRESET], stake_per_point=base)
    variant = {"preset": SIM_PRESET, "options": {"stake_per_point": base}}
    decks = 1 if len(players) < opts.two_decks_from else 2
    totals = dict.fromkeys(players, 0)
    percent = rake_percent(rng)
    rounds: list[dict[str, Any]] = []
    anomalies: list[tuple[int, str]] = []
    for index in range(1, n_rounds + 1):
        standing = [p for p in players if totals[p] < opts.out_at]
        new_game = len(standing) < 2
        if new_game:
            totals, standing = dict.fromkeys(players, 0), list(players)
        tamper = (
            rng.choice([SETTLEMENT_MISMATCH, ILLEGAL_ACTION])
            if rng.random() < anomaly_rate
            else None
        )
        record, table, cheated = play_out(rng, opts, standing, decks, tamper == ILLEGAL_ACTION)
        penalties = table.penalties()
        claimed = settle_penalties(table.winner, penalties, opts.stake_per_point)
        won = list(claimed.values())
        for player, points in penalties.items():
            totals[player] += points
        if tamper == SETTLEMENT_MISMATCH:
            loser = rng.choice([p for p in standing if p != table.winner])
            claimed[loser] -= base
        record["plays"] = [_play_dict(p) for p in record["plays"]]
        record.update(claimed=claimed, penalties=penalties)
        if new_game:
            record["new_game"] = True
        rounds.append(with_rake(record, percent, won))
        if tamper is not None and (tamper == SETTLEMENT_MISMATCH or cheated):
            anomalies.append((index, tamper))
    return Simulated(variant=variant, rounds=rounds, anomalies=anomalies)


def _play_dict(play: BianselongPlay) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": play.player}
    if play.card is not None:
        entry["card"] = play.card
    if play.suit is not None:
        entry["suit"] = play.suit
    if play.draw:
        entry["draw"] = list(play.draw)
    return entry
