"""变色龙: the shedding game of seed 003 (Crazy Eights-like), scored by penalty points.

Five cards each; a play matches the top card's suit or rank; 7 makes the next
player draw two and lose his turn, 8 skips him (both can be passed on with
the same rank), J is wild and names a suit (no J on a J), A reverses. Whoever
goes out first wins the deal; the others score the cards they hold, doubled
when his last card was a J; a player whose running total reaches 100 is out.
Money per deal: each loser pays his penalty points × the stake per point to
the winner.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH, Integrity, RoundResult
from compliance.errors import DealError, LogError
from compliance.games import cards
from compliance.games.base import Engine, compare_claims, decode_rounds
from compliance.games.bianselong.fast import fast_deal, points_table
from compliance.games.bianselong.options import (
    DEFAULT_PRESET,
    PRESETS,
    BianselongOptions,
    missing_values,
)
from compliance.games.bianselong.record import BianselongDeal
from compliance.games.bianselong.table import Table, card_points
from compliance.logs.records import Session, Variant


def settle_penalties(winner: str | None, penalties: dict[str, int], stake: int) -> dict[str, int]:
    """Each loser pays his penalty points × the stake per point to the winner."""
    deltas = {p: -points * stake for p, points in penalties.items()}
    if winner is not None:
        deltas[winner] = -sum(deltas.values())
    return deltas


def deck_breaches(index: int, players: int, decks: int, opts: BianselongOptions) -> list[str]:
    """两个人玩一幅牌, 四个人玩两到三幅牌: more players, more decks."""
    if players >= opts.two_decks_from and decks < 2:
        return [f"round {index}: {players} players share one deck (the seed wants two or three)"]
    if decks > opts.max_decks:
        return [f"round {index}: {decks} decks, more than {opts.max_decks}"]
    return []


class Bianselong(Engine):
    """变色龙 engine."""

    def options_for(self, variant: Variant | None) -> BianselongOptions:
        """玩法: as for every game, once the variant gives the penalty points of A and K."""
        variant = variant or Variant()
        missing = missing_values(variant)
        if missing and (variant.preset or DEFAULT_PRESET) in PRESETS:
            raise LogError(
                "变色龙 needs the penalty points of A and K: the seed lists no value for A and "
                f"breaks off at K; the variant must give {' and '.join(missing)}"
            )
        return super().options_for(variant)

    def replay(self, session: Session) -> Iterator[RoundResult]:
        opts = self.options_for(session.variant)
        values = points_table(opts)
        seats = [p.id for p in session.players]
        totals = dict.fromkeys(seats, 0)
        for index, deal in enumerate(decode_rounds(session.rounds, BianselongDeal), 1):
            if deal.new_game:
                totals = dict.fromkeys(seats, 0)
            yield self._replay_deal(index, deal, seats, totals, opts, values)

    def _replay_deal(
        self,
        index: int,
        deal: BianselongDeal,
        seats: list[str],
        totals: dict[str, int],
        opts: BianselongOptions,
        values: dict[str, int],
    ) -> RoundResult:
        strangers = [p for p in deal.hands if p not in totals]
        if strangers:
            raise DealError(f"round {index}: player {strangers[0]} is not in the session")
        order = [p for p in seats if p in deal.hands]
        if len(order) < 2:
            raise DealError(f"round {index}: {len(order)} player(s) dealt in, need two or more")
        for player in order:
            if len(deal.hands[player]) != opts.hand_size:
                size = len(deal.hands[player])
                raise DealError(
                    f"round {index}: {player} is dealt {size} cards, not {opts.hand_size}"
                )
        problems = deck_breaches(index, len(order), deal.decks, opts)
        out_at = opts.out_at
        if any(totals[p] >= out_at for p in order):
            problems += [
                f"round {index}: {p} is out (penalty total {totals[p]}) but is dealt in"
                for p in order
                if totals[p] >= out_at
            ]
        issues = [Integrity(index, ILLEGAL_ACTION, text) for text in problems] if problems else []
        played = fast_deal(opts, order, deal.hands, deal.starter, deal.decks, deal.plays, values)
        if played is None:  # a breach or an impossible play: `Table` words it
            played = self._play_out(index, deal, order, opts, issues)
        winner, penalties = played
        if winner is None:
            issues.append(Integrity(index, ILLEGAL_ACTION, f"round {index}: no player went out"))
        deltas = settle_penalties(winner, penalties, opts.stake_per_point)
        for player, points in penalties.items():
            totals[player] += points
        if deal.claimed != deltas:  # equal dicts: no claim to compare
            mismatch = compare_claims(index, deltas, deal.claimed)
            if mismatch:
                issues.append(mismatch)
        if deal.penalties is not None and deal.penalties != penalties:
            issues += self._check_penalties(index, penalties, deal.penalties)
        stakes = dict.fromkeys(order, opts.stake_per_point)
        return RoundResult(index, deltas, stakes, rake=deal.rake, issues=issues)

    @staticmethod
    def _play_out(
        index: int,
        deal: BianselongDeal,
        order: list[str],
        opts: BianselongOptions,
        issues: list[Integrity],
    ) -> tuple[str | None, dict[str, int]]:
        """The deal driven through `Table` play by play, every breach an issue."""
        try:
            table = Table.deal(opts, order, deal.hands, deal.starter, deal.decks)
            for number, play in enumerate(deal.plays, 1):
                for text in table.apply(play):
                    detail = f"round {index} play {number}: {text}"
                    issues.append(Integrity(index, ILLEGAL_ACTION, detail, (play.player,)))
        except DealError as exc:
            raise DealError(f"round {index}: {exc}") from None
        return table.winner, table.penalties()

    @staticmethod
    def _check_penalties(
        index: int, rules: dict[str, int], logged: dict[str, int]
    ) -> list[Integrity]:
        wrong = tuple(p for p in rules if logged.get(p, 0) != rules[p])
        if not wrong:
            return []
        detail = f"round {index}: penalty points " + "; ".join(
            f"{p} logged {logged.get(p, 0)}, rules give {rules[p]}" for p in wrong
        )
        claimed = {p: logged.get(p, 0) for p in wrong}
        expected = {p: rules[p] for p in wrong}
        return [Integrity(index, SETTLEMENT_MISMATCH, detail, wrong, claimed, expected)]

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """Penalty points of the cards held; with a top card, which of them may be played."""
        record: dict[str, Any] = hand if isinstance(hand, dict) else {"hand": hand}
        held = list(record.get("hand", []))
        for card in held:
            if card not in cards.STANDARD_52:
                raise DealError(f"unknown card {card!r} (变色龙 uses 52-card decks without jokers)")
        variant = variant or Variant()
        described: dict[str, Any] = {"game": self.code, "hand": held}
        missing = missing_values(variant)
        unscored = [c for c in held if cards.rank_of(c) in ("A", "K")]
        if missing and unscored:
            described["penalty_points"] = None
            described["reason"] = f"the variant gives no value for {' and '.join(missing)}"
        else:
            filled = {k: 0 for k in missing}
            opts = super().options_for(
                Variant(preset=variant.preset, options={**filled, **variant.options})
            )
            points = sum(card_points(c, opts) for c in held)
            factor = opts.last_jack_multiplier if record.get("winner_last_card_j") else 1
            described["penalty_points"] = points * factor
        top = record.get("top")
        if top is not None:
            if top not in cards.STANDARD_52:
                raise DealError(f"unknown card {top!r} (变色龙 uses 52-card decks without jokers)")
            named = record.get("named") or cards.suit_of(top)
            blank = BianselongOptions(ace_points=0, king_points=0)
            table = Table(blank, ["you"], {"you": Counter(held)}, Counter(), [top], named=named)
            described["playable"] = table.playable("you")
        return described
