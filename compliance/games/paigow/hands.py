"""牌九牌型: the two-card ranking of seed 003 over 扯旋's 32 cards with a black 3."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from compliance.games.card_kinds import KIND_CARDS, KIND_POINTS

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
# 地王 (option `di_wang`): 地 with a 9, between 天王 (the seed's 水牛) and 天罡.
DI_WANG = ("地王", (("地", "黑九"),))


def named_hands(di_wang: bool) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The named hands below the pairs, highest first."""
    return (NAMED[0], DI_WANG, *NAMED[1:]) if di_wang else NAMED


@dataclass(frozen=True, slots=True)
class PaigowHand:
    cards: tuple[str, str]
    name: str
    strength: int


class PaigowRanking:
    """Strengths of all 496 two-card hands for one set of options."""

    def __init__(self, black_three: str, strict_pairs: bool, di_wang: bool = False) -> None:
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
        named = named_hands(di_wang)
        self.named = {
            tuple(sorted(c)): (name, len(named) - i)
            for i, (name, combos) in enumerate(named)
            for c in combos
        }
        keyed = {frozenset(p): self._key(*p) for p in combinations(self.kinds, 2)}
        order = {key: i for i, key in enumerate(sorted({k for _, k in keyed.values()}))}
        self.hands = {
            pair: PaigowHand(self._in_order(pair), name, order[key])
            for pair, (name, key) in keyed.items()
        }

    def _in_order(self, pair: frozenset[str]) -> tuple[str, str]:
        """The two cards of a pair, higher class first."""
        a, b = sorted(pair, key=self._card_order)
        return a, b

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
def ranking_for(
    black_three: str = "S3", strict_pairs: bool = False, di_wang: bool = False
) -> PaigowRanking:
    return PaigowRanking(black_three, strict_pairs, di_wang)


def deck(black_three: str = "S3") -> tuple[str, ...]:
    """牌九 32 cards: 扯旋's pairs, a black 3 and the big joker."""
    return tuple(ranking_for(black_three).kinds)
