"""扯旋 (chexuan): Sichuan's 32-card game of head and tail, settled 尾大吃皮.

Seed 001 throughout. Each player sets his 簸簸 (the most he may put in a
round) and pays the 皮 (ante); cards come 2 + 1 + 1 with a betting round
after each deal; the players still in split four cards into head and tail
and settle by tail order, each winner taking from a loser at most his own
stake. The rules and every choice behind them: docs/games/chexuan.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from compliance.domain.rounds import ILLEGAL_ACTION, Integrity, RoundResult
from compliance.errors import DealError
from compliance.games.base import Engine, compare_claims, decode_rounds
from compliance.games.cards import duplicates
from compliance.games.chexuan.betting import Betting, replay_betting
from compliance.games.chexuan.fast_betting import fast_betting
from compliance.games.chexuan.hands import Ranking
from compliance.games.chexuan.options import ChexuanOptions
from compliance.games.chexuan.record import ChexuanRound, ChexuanSeat
from compliance.games.chexuan.settle import (
    Contender,
    groups_of,
    share,
    showdown_deltas,
    tail_order,
)
from compliance.games.head_tail import logged_split, smaller_head
from compliance.logs.records import Session, Variant


def _validate(index: int, rnd: ChexuanRound, players: set[str], deck: set[str]) -> None:
    names = [s.player for s in rnd.seats]
    if len(names) < 2:
        raise DealError(f"round {index}: {len(names)} seat(s), 扯旋 needs 2 to 6 players")
    for name in names:
        if name not in players:
            raise DealError(f"round {index}: player {name} is not in the session")
    if duplicates(names):
        raise DealError(f"round {index}: player {duplicates(names)[0]} seated twice")
    if rnd.dealer not in names:
        raise DealError(f"round {index}: dealer {rnd.dealer} is not seated")
    cards = [c for s in rnd.seats for c in s.cards]
    for card in cards:
        if card not in deck:
            raise DealError(f"round {index}: card {card} is not in the 扯旋 deck")
    if duplicates(cards):
        raise DealError(f"round {index}: duplicate card {duplicates(cards)[0]}")
    counts = {len(s.cards) for s in rnd.seats}
    if len(counts) != 1 or not counts <= {2, 3, 4}:
        raise DealError(
            f"round {index}: wrong card count {sorted(len(s.cards) for s in rnd.seats)}"
        )
    if len(rnd.betting) > counts.pop() - 1:
        raise DealError(f"round {index}: {len(rnd.betting)} betting rounds for the cards dealt")
    for action in (a for actions in rnd.betting for a in actions):
        if action.player not in names:
            raise DealError(f"round {index}: action by {action.player}, who is not seated")


def _well_formed(rnd: ChexuanRound, players: set[str], deck: frozenset[str]) -> bool:
    """What `_validate` checks, as one test; `_validate` says what is wrong."""
    seats = rnd.seats
    if len(seats) < 2:
        return False
    names = {s.player for s in seats}
    size = len(seats[0].cards)
    cards = []
    for s in seats:
        if len(s.cards) != size:
            return False
        cards += s.cards
    return (
        len(names) == len(seats)
        and players.issuperset(names)
        and rnd.dealer in names
        and deck.issuperset(cards)
        and len(set(cards)) == len(cards)
        and 2 <= size <= 4
        and len(rnd.betting) <= size - 1
        and names.issuperset([a.player for actions in rnd.betting for a in actions])
    )


def _contender(
    index: int, seat: ChexuanSeat, special: int, ranking: Ranking, issues: list[Integrity]
) -> Contender:
    """分牌: the logged split, swapped when its head is smaller ("服務器直接按該分牌自動排列")."""
    head, tail = logged_split(index, seat, "reached the showdown without a split")
    by_cards = ranking.by_cards
    one, other = by_cards[head[0], head[1]], by_cards[tail[0], tail[1]]
    if one.strength < other.strength:
        issue = smaller_head(index, seat.player, one, other)
        if issue:
            issues.append(issue)
        one, other = other, one
    single, kinds = ranking.single, ranking.kinds
    first, second = one.cards
    a, b = single[kinds[first]], single[kinds[second]]
    return Contender(
        seat.player, special, one.strength, other.strength, (a, b) if a >= b else (b, a)
    )


def settle_round(
    index: int,
    rnd: ChexuanRound,
    options: ChexuanOptions,
    players: set[str],
    pool: int = 0,
    ranking: Ranking | None = None,
) -> tuple[RoundResult, int]:
    """One round: betting replayed, the showdown settled, the claim compared; returns the pool
    too. `ranking` is `options.ranking()`, passed by a replay that looked it up once."""
    if ranking is None:
        ranking = options.ranking()
    if not _well_formed(rnd, players, ranking.deck):
        _validate(index, rnd, players, set(ranking.kinds))
    names = [s.player for s in rnd.seats]
    issues: list[Integrity] = []
    if len(names) > options.max_players:
        issues.append(
            Integrity(
                index,
                ILLEGAL_ACTION,
                f"{len(names)} players at a table of at most {options.max_players}",
                tuple(names),
            )
        )
    ante_in_stake = options.ante_mode == "stake"
    rooms = {s.player: s.cap - (rnd.ante if ante_in_stake else 0) for s in rnd.seats}
    if min(rooms.values()) < 0:
        for p, room in rooms.items():
            if room < 0:
                issues.append(
                    Integrity(index, ILLEGAL_ACTION, f"{p}'s 簸簸 is below the 皮 {rnd.ante}", (p,))
                )
                rooms[p] = 0
    deal_rounds, escape_folds = len(rnd.seats[0].cards) - 1, options.escape == "fold"
    betting = fast_betting(names, rnd.dealer, rooms, rnd.betting, deal_rounds, escape_folds)
    if betting is None:  # a breach: the reference words it
        betting = replay_betting(names, rnd.dealer, rooms, rnd.betting, deal_rounds, escape_folds)
    if betting.problem:
        issues.append(Integrity(index, ILLEGAL_ACTION, betting.problem))
    stakes = {p: rnd.ante + betting.bets[p] for p in names}
    chips = stakes if ante_in_stake else dict(betting.bets)
    deltas = dict.fromkeys(names, 0)
    rake = rnd.rake
    carried = 0
    escaped = betting.escaped
    if escaped:
        table = sum(stakes.values())
        deltas[escaped] = -table
        rake += table
    elif betting.void:
        if options.ante_mode == "carried":
            deltas = {p: -rnd.ante for p in names}
            carried = rnd.ante * len(names)
    else:
        deltas, carried = _showdown(index, rnd, options, ranking, betting, chips, pool, issues)
    result = RoundResult(
        index=index,
        deltas=deltas,
        stakes=stakes,
        rake=rake,
        carried=carried,
        issues=issues,
        caps={s.player: s.cap for s in rnd.seats},
    )
    claimed = {s.player: s.claimed for s in rnd.seats}
    claim = compare_claims(index, deltas, claimed) if claimed != deltas else None
    if claim:
        issues.append(claim)
    return result, pool + carried


def _showdown(
    index: int,
    rnd: ChexuanRound,
    options: ChexuanOptions,
    ranking: Ranking,
    betting: Betting,
    chips: dict[str, int],
    pool: int,
    issues: list[Integrity],
) -> tuple[dict[str, int], int]:
    """比大小: the players still in split and settle 尾大吃皮; folded chips go to the strongest tail."""
    names = [s.player for s in rnd.seats]
    out = betting.folded
    live = [s for s in rnd.seats if s.player not in out]
    contenders: list[Contender] = []
    refunded: list[str] = []
    if len(live) >= 2:
        if len(rnd.seats[0].cards) != 4:
            raise DealError(f"round {index}: showdown with {len(rnd.seats[0].cards)} cards each")
        specials = ranking.specials
        for seat in live:
            special, sanhua = specials(seat.cards)
            if sanhua:
                refunded.append(seat.player)
            else:
                contenders.append(_contender(index, seat, special, ranking, issues))
    else:
        contenders = [Contender(s.player, 0, 0, 0) for s in live]
    folded = [p for p in names if p in out] if contenders and out else []
    deltas = showdown_deltas(
        {p: chips[p] for p in names if p not in refunded} if refunded else dict(chips),
        contenders,
        folded,
        tail_decides=options.split_rule == "tail",
        by_head=options.settle_order == "head",
        share_by_stake=options.tie_share == "stake",
    )
    if refunded:
        deltas.update(dict.fromkeys(refunded, 0))
    if options.ante_mode == "stake" or not contenders:
        return deltas, 0
    in_pot = [p for p in names if p not in refunded]
    return _eat_ante(deltas, in_pot, rnd.ante, pool, contenders), -pool


def _eat_ante(
    deltas: dict[str, int], in_pot: list[str], ante: int, pool: int, contenders: list[Contender]
) -> dict[str, int]:
    """尾大吃皮 read literally: the antes (and a carried pool) go to the strongest tail still in."""
    pot = ante * len(in_pot) + pool
    top = [c.player for c in groups_of(tail_order(contenders))[0]]
    wins = share(top, dict.fromkeys(top, pot), pot)
    return {p: d - (ante if p in in_pot else 0) + wins.get(p, 0) for p, d in deltas.items()}


class Chexuan(Engine):
    """扯旋 engine."""

    def replay(self, session: Session) -> Iterator[RoundResult]:
        options = self.options_for(session.variant)
        players = {p.id for p in session.players}
        pool = 0
        ranking = options.ranking()
        for index, rnd in enumerate(decode_rounds(session.rounds, ChexuanRound), start=1):
            result, pool = settle_round(index, rnd, options, players, pool, ranking)
            yield result

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """The hand's name (two cards) or all three splits with both halves' names (four cards)."""
        cards = list(hand["cards"] if isinstance(hand, dict) else hand)
        ranking = self.options_for(variant).ranking()
        for card in cards:
            if card not in ranking.kinds:
                raise DealError(f"card {card} is not in the 扯旋 deck")
        if duplicates(cards):
            raise DealError(f"duplicate card {duplicates(cards)[0]}")
        if len(cards) == 2:
            two = ranking.two(*cards)
            return {
                "game": self.code,
                "cards": list(two.cards),
                "name": two.name,
                "strength": two.strength,
            }
        if len(cards) != 4:
            raise DealError(f"扯旋 hands have 2 or 4 cards, not {len(cards)}")
        four = ranking.four(cards)

        def half(two: Any) -> dict[str, Any]:
            return {"cards": list(two.cards), "name": two.name, "strength": two.strength}

        splits = sorted(four.splits, key=lambda s: (s.tail.strength, s.head.strength), reverse=True)
        return {
            "game": self.code,
            "cards": ranking.order_cards(cards),
            "special": four.special,
            "sanhua": four.sanhua,
            "splits": [{"head": half(s.head), "tail": half(s.tail)} for s in splits],
        }
