"""牌九 (paigow) with cards: each player against the banker, seed 003's ranking.

"最大是一個大王加一個黑三，叫至尊寶。其次分別是一對Q, 一對紅2，一對紅8,一對紅4,
三對長牌，四對短牌，四對雜牌": pairs first, then 水牛 (Q+9), 天罡 (Q+8), 地罡
(2+8), then points with 天地人和长短杂 breaking ties. The deck is 扯旋's 32
cards with a black 3 in place of the red one. Rules and choices:
docs/games/paigow.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Annotated, Any, Literal

import msgspec

from compliance.errors import DealError
from compliance.games.base import (
    ILLEGAL_ACTION,
    SETTLEMENT_MISMATCH,
    Integrity,
    RoundResult,
    Simulated,
    compare_claims,
    decode_rounds,
    resolve_options,
)
from compliance.games.cards import duplicates, shuffled
from compliance.games.chexuan_hands import KIND_CARDS, KIND_POINTS
from compliance.games.head_tail import logged_split, smaller_head
from compliance.logs.records import Session, Variant

# 天地人和, 三长, 四短, 杂: the class of each kind; "至尊寶拆開的話也是雜牌".
CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("天", ("天",)), ("地", ("地",)), ("人", ("人",)), ("和", ("和",)),
    ("长", ("梅", "长", "板")), ("短", ("苕", "膏", "斧", "猫")),
    ("杂", ("黑九", "黑八", "黑七", "黑五", "三", "皇")),
)  # fmt: skip
CARD_NAMES = {
    "梅": "黑10",
    "长": "黑6",
    "板": "黑4",
    "苕": "红10",
    "膏": "红7",
    "斧": "黑J",
    "猫": "红6",
    "黑九": "黑9",
    "黑八": "黑8",
    "黑七": "黑7",
    "黑五": "黑5",
}
PAIR_TIERS: tuple[tuple[str, ...], ...] = (
    ("天",),
    ("地",),
    ("人",),
    ("和",),
    ("梅", "长", "板"),
    ("苕", "膏", "斧", "猫"),
    ("黑九", "黑八", "黑七", "黑五"),
)
NAMED: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("水牛", (("天", "黑九"),)),
    ("天罡", (("天", "人"), ("天", "黑八"))),
    ("地罡", (("地", "人"), ("地", "黑八"))),
)
Chips = Annotated[int, msgspec.Meta(ge=0)]


class PaigowOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: 牌九 variants; defaults follow seed 003 where it speaks."""

    black_three: Literal["S3", "C3"] = "S3"
    strict_pairs: bool = False
    hand_size: Literal[2, 4] = 2
    ties_to_banker: bool = False
    max_bet: Chips = 0


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "ties_to_banker": {"ties_to_banker": True},
    "four_cards": {"hand_size": 4},
    "strict": {"strict_pairs": True},
}


class PaigowSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """座位: a player, his cards, his bet against the banker (none for the banker) and the claim."""

    player: str
    cards: list[str]
    bet: Chips = 0
    head: list[str] | None = None
    tail: list[str] | None = None
    claimed: int = 0


class PaigowRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """一局牌九: the banker and the seats, the banker's among them."""

    banker: str
    seats: list[PaigowSeat]


ROUND_TYPE = PaigowRound


@dataclass(frozen=True, slots=True)
class PaigowHand:
    cards: tuple[str, str]
    name: str
    strength: int


class PaigowRanking:
    """Strengths of all 496 two-card hands for one set of options."""

    def __init__(self, black_three: str, strict_pairs: bool) -> None:
        self.kinds = {
            card: kind for kind, cards in KIND_CARDS.items() if kind != "丁" for card in cards
        }
        self.kinds[black_three] = "三"
        self.points = {**KIND_POINTS, "三": 3}
        self.cls = {
            kind: len(CLASSES) - i for i, (_, kinds) in enumerate(CLASSES) for kind in kinds
        }
        self.cls_name = {kind: name for name, kinds in CLASSES for kind in kinds}
        tiers = [(k,) for tier in PAIR_TIERS for k in tier] if strict_pairs else list(PAIR_TIERS)
        self.pair_rank = {k: len(tiers) - i for i, tier in enumerate(tiers) for k in tier}
        self.named = {
            tuple(sorted(c)): (name, len(NAMED) - i)
            for i, (name, combos) in enumerate(NAMED)
            for c in combos
        }
        keyed = {frozenset(p): self._key(*p) for p in combinations(self.kinds, 2)}
        order = {key: i for i, key in enumerate(sorted({k for _, k in keyed.values()}))}
        self.hands = {
            pair: PaigowHand(tuple(sorted(pair, key=self._card_order)), name, order[key])
            for pair, (name, key) in keyed.items()
        }

    def _card_order(self, card: str) -> tuple[int, int]:
        kind = self.kinds[card]
        return (-self.cls[kind], -self.pair_rank.get(kind, 0))

    def _key(self, a: str, b: str) -> tuple[str, tuple[int, ...]]:
        ka, kb = self.kinds[a], self.kinds[b]
        if {ka, kb} == {"三", "皇"}:
            return "至尊宝", (3,)
        if ka == kb:
            group = self.cls_name[ka]
            name = f"{group}牌对" if group in "天地人和" else f"{group}牌对·{CARD_NAMES[ka]}"
            return name, (2, self.pair_rank[ka])
        named = self.named.get(tuple(sorted((ka, kb))))
        if named:
            return named[0], (1, named[1])
        points = (self.points[ka] + self.points[kb]) % 10
        best = max((ka, kb), key=lambda k: self.cls[k])
        return f"{self.cls_name[best]}{points}", (0, points, self.cls[best])

    def two(self, a: str, b: str) -> PaigowHand:
        return self.hands[frozenset((a, b))]


@lru_cache(maxsize=8)
def ranking_for(black_three: str = "S3", strict_pairs: bool = False) -> PaigowRanking:
    return PaigowRanking(black_three, strict_pairs)


def options_for(variant: Variant | None) -> PaigowOptions:
    return resolve_options(variant or Variant(), PRESETS, "seed", PaigowOptions)


def _sign(a: int, b: int, ties_to_banker: bool) -> int:
    return 1 if a > b else -1 if a < b or ties_to_banker else 0


def versus_banker(player: tuple[int, ...], banker: tuple[int, ...], ties_to_banker: bool) -> int:
    """比牌: +1 the player wins, -1 he loses, 0 a push.

    Two halves (4-card play) go by seed 001's rule: both or one with the other
    equal wins, both or one with the other equal loses, one each is a push.
    """
    signs = [_sign(p, b, ties_to_banker) for p, b in zip(player, banker, strict=True)]
    total = sum(signs)
    return (total > 0) - (total < 0)


def _halves(
    index: int,
    seat: PaigowSeat,
    ranking: PaigowRanking,
    options: PaigowOptions,
    issues: list[Integrity],
) -> tuple[int, ...]:
    if options.hand_size == 2:
        return (ranking.two(*seat.cards).strength,)
    head_cards, tail_cards = logged_split(index, seat, "has no split")
    head, rest = ranking.two(*head_cards), ranking.two(*tail_cards)
    issue = smaller_head(index, seat.player, head, rest)
    if issue:
        issues.append(issue)
        head, rest = rest, head
    return (head.strength, rest.strength)


def settle_round(
    index: int, rnd: PaigowRound, options: PaigowOptions, players: set[str]
) -> RoundResult:
    """One round: each player's bet against the banker, the claim compared."""
    ranking = ranking_for(options.black_three, options.strict_pairs)
    names = [s.player for s in rnd.seats]
    for name in names:
        if name not in players:
            raise DealError(f"round {index}: player {name} is not in the session")
    if duplicates(names):
        raise DealError(f"round {index}: player {duplicates(names)[0]} seated twice")
    if rnd.banker not in names:
        raise DealError(f"round {index}: banker {rnd.banker} is not seated")
    cards = [c for s in rnd.seats for c in s.cards]
    for card in cards:
        if card not in ranking.kinds:
            raise DealError(f"round {index}: card {card} is not in the 牌九 deck")
    if duplicates(cards):
        raise DealError(f"round {index}: duplicate card {duplicates(cards)[0]}")
    for s in rnd.seats:
        if len(s.cards) != options.hand_size:
            raise DealError(f"round {index}: wrong card count {len(s.cards)} for {s.player}")
    issues: list[Integrity] = []
    halves = {s.player: _halves(index, s, ranking, options, issues) for s in rnd.seats}
    deltas = dict.fromkeys(names, 0)
    stakes = dict.fromkeys(names, 0)
    for s in rnd.seats:
        if s.player == rnd.banker:
            if s.bet:
                issues.append(
                    Integrity(
                        index,
                        ILLEGAL_ACTION,
                        f"banker {s.player} bet {s.bet} against himself",
                        (s.player,),
                    )
                )
            continue
        if options.max_bet and s.bet > options.max_bet:
            issues.append(
                Integrity(
                    index,
                    ILLEGAL_ACTION,
                    f"{s.player} bet {s.bet} above the table limit {options.max_bet}",
                    (s.player,),
                )
            )
        won = s.bet * versus_banker(halves[s.player], halves[rnd.banker], options.ties_to_banker)
        deltas[s.player] += won
        deltas[rnd.banker] -= won
        stakes[s.player] = s.bet
        stakes[rnd.banker] = max(stakes[rnd.banker], s.bet)
    claim = compare_claims(index, deltas, {s.player: s.claimed for s in rnd.seats})
    if claim:
        issues.append(claim)
    return RoundResult(index=index, deltas=deltas, stakes=stakes, banker=rnd.banker, issues=issues)


class Paigow:
    """牌九 engine."""

    code = "paigow"
    name_zh = "牌九"
    name_en = "Pai gow (32-card)"

    def replay(self, session: Session) -> Iterator[RoundResult]:
        options = options_for(session.variant)
        players = {p.id for p in session.players}
        for index, rnd in enumerate(decode_rounds(session.rounds, PaigowRound), start=1):
            yield settle_round(index, rnd, options, players)

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """The name of two cards, or the three splits of four with both halves named."""
        cards = list(hand["cards"] if isinstance(hand, dict) else hand)
        options = options_for(variant)
        ranking = ranking_for(options.black_three, options.strict_pairs)
        for card in cards:
            if card not in ranking.kinds:
                raise DealError(f"card {card} is not in the 牌九 deck")
        if duplicates(cards) or len(cards) not in (2, 4):
            raise DealError(f"牌九 hands have 2 or 4 distinct cards, not {cards}")

        def named(two: PaigowHand) -> dict[str, Any]:
            return {"cards": list(two.cards), "name": two.name, "strength": two.strength}

        if len(cards) == 2:
            return {"game": self.code, **named(ranking.two(*cards))}
        a, b, c, d = cards
        splits = []
        for one, other in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            x, y = sorted((ranking.two(*one), ranking.two(*other)), key=lambda h: -h.strength)
            splits.append({"head": named(x), "tail": named(y)})
        splits.sort(key=lambda s: (s["tail"]["strength"], s["head"]["strength"]), reverse=True)
        return {"game": self.code, "cards": cards, "splits": splits}

    def simulate(
        self, rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
    ) -> Simulated:
        """模拟: the banker rotates; bets of 1 to 5 units under a table limit of 10; claims tampered."""
        if len(players) < 2:
            raise ValueError("牌九 needs at least 2 players")
        options = PaigowOptions(max_bet=10 * base)
        ranking = ranking_for()
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
            result = settle_round(
                index, msgspec.convert(record, PaigowRound), options, set(players)
            )
            for seat in record["seats"]:
                seat["claimed"] = result.deltas[seat["player"]]
            if check == SETTLEMENT_MISMATCH:
                rng.choice(record["seats"])["claimed"] += (
                    rng.choice((-1, 1)) * base * rng.randint(1, 3)
                )
            if check:
                anomalies.append((index, check))
            rounds.append(record)
        return Simulated(
            variant={"preset": "seed", "options": {"max_bet": options.max_bet}},
            rounds=rounds,
            anomalies=anomalies,
        )


def deck(black_three: str = "S3") -> tuple[str, ...]:
    """牌九 32 cards: 扯旋's pairs, a black 3 and the big joker."""
    return tuple(ranking_for(black_three).kinds)


GAME = Paigow()
