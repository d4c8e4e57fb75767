"""扯旋牌型: the 32-card deck, the two-card ladder and the four-card specials, as data.

Seed 001 names every card by a kind (天 = red Q, 地 = red 2, 丁 = the red 3,
皇 = the big joker …). The ladder below is the seed's, high to low; each tier
holds hands the seed calls equal ("（梅十=板凳=長三）"). A strict ladder splits
every tier into its members in the order listed. Everything else is 散牌:
the last digit of the points, ties broken by the single-card order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from compliance.games.card_kinds import KIND_CARDS, KIND_POINTS

# "紅Q>紅2>紅8>紅4>（黑10=黑4=黑6）>（黑J=紅10=紅6=紅7）>（黑5=黑7=黑8=黑9=紅桃3=大王）"
SINGLE_TIERS: tuple[tuple[str, ...], ...] = (
    ("天",), ("地",), ("人",), ("和",), ("梅", "板", "长"), ("斧", "苕", "猫", "膏"),
    ("黑九", "黑八", "黑七", "黑五", "丁", "皇"),
)  # fmt: skip
STRICT_SINGLE_TIERS: tuple[tuple[str, ...], ...] = tuple(
    (kind,) for kind in ("天", "地", "人", "和", "梅", "板", "长", "斧", "苕", "猫", "膏",
                         "黑九", "黑八", "黑七", "黑五")
) + (("丁", "皇"),)  # fmt: skip

Combo = tuple[str, str]
Named = tuple[str, tuple[Combo, ...]]

# 比大小 (seed 001), high to low; one tuple per group of equals.
LADDER: tuple[tuple[Named, ...], ...] = (
    (("丁皇", (("丁", "皇"),)),),
    (("天牌", (("天", "天"),)),),
    (("地牌", (("地", "地"),)),),
    (("人牌", (("人", "人"),)),),
    (("和牌", (("和", "和"),)),),
    (("梅十", (("梅", "梅"),)), ("板凳", (("板", "板"),)), ("长三", (("长", "长"),))),
    (("虎头", (("斧", "斧"),)), ("苕十", (("苕", "苕"),)), ("猫猫", (("猫", "猫"),)),
     ("膏药", (("膏", "膏"),))),
    (("杂九对", (("黑九", "黑九"),)), ("杂八对", (("黑八", "黑八"),)),
     ("杂七对", (("黑七", "黑七"),)), ("杂五对", (("黑五", "黑五"),))),
    (("奶狗", (("天", "黑九"),)),),
    (("天杠", (("天", "人"), ("天", "黑八"))),),
    (("地杠", (("地", "人"), ("地", "黑八"))),),
    (("天关九", (("天", "膏"), ("天", "黑七"))),),
    (("地关九", (("地", "膏"), ("地", "黑七"))),),
    (("灯笼九", (("人", "斧"),)),),
    (("和五九", (("和", "黑五"),)),),
    (("板五九", (("板", "黑五"),)), ("丁长九", (("丁", "长"),)), ("梅十九", (("梅", "黑九"),))),
    (("丁猫九", (("丁", "猫"),)), ("乌龙九", (("斧", "黑八"),)), ("苕十九", (("苕", "黑九"),))),
)  # fmt: skip

# 地九王 (research notes, off by default): placed just below 丁皇; the seed is silent.
DI_JIU_WANG: tuple[Named, ...] = (("地九王", (("地", "黑九"),)),)

# Four-card specials, high to low: (name, option that enables it).
SPECIALS: tuple[tuple[str, str], ...] = (
    ("天皇", "huang_pairs"),
    ("地皇", "huang_pairs"),
    ("天地公子", "tiandi_gongzi"),
    ("朵朵", "duoduo"),
    ("王对", "wang_dui"),
    ("杠对", "gang_dui"),
    ("9对", "jiu_dui"),
)
SANHUA: dict[str, tuple[str, ...]] = {"三花十": ("梅", "苕", "斧"), "三花六": ("长", "猫", "皇")}


@dataclass(frozen=True, slots=True)
class RankingRules:
    """The parts of the options that change how hands rank."""

    red_three: str = "H3"
    strict_ladder: bool = False
    zero_points_ties: bool = False
    di_jiu_wang: bool = False
    specials: frozenset[str] = frozenset(option for _, option in SPECIALS)
    sanhua: bool = True


@dataclass(frozen=True, slots=True)
class TwoCards:
    """一手: two cards with their name and strength (higher wins, equal ties)."""

    cards: tuple[str, str]
    name: str
    strength: int


@dataclass(frozen=True, slots=True)
class Split:
    """分牌: head (头) and tail (尾), head never weaker than tail."""

    head: TwoCards
    tail: TwoCards


@dataclass(frozen=True, slots=True)
class FourCards:
    """Four cards: their three splits, any special hand, and whether 三花 voids them."""

    cards: tuple[str, ...]
    splits: tuple[Split, Split, Split]
    special: str | None
    special_rank: int
    sanhua: str | None


def kind_of_card(red_three: str = "H3") -> dict[str, str]:
    kinds = {card: kind for kind, cards in KIND_CARDS.items() for card in cards}
    if red_three != "H3":
        del kinds["H3"]
        kinds[red_three] = "丁"
    return kinds


def deck(red_three: str = "H3") -> tuple[str, ...]:
    """扯旋 32 cards: the seed's fifteen pairs, the red 3 and the big joker."""
    return tuple(kind_of_card(red_three))


def _ordered(a: str, b: str) -> tuple[str, str]:
    """Two kinds in sorted order, the key of a named combo."""
    return (a, b) if a <= b else (b, a)


class Ranking:
    """Strength tables for one set of ranking rules (496 pairs, 35,960 hands memoised,
    the specials by kinds)."""

    def __init__(self, rules: RankingRules) -> None:
        self.rules = rules
        self.kinds = kind_of_card(rules.red_three)
        self.deck = frozenset(self.kinds)
        singles = STRICT_SINGLE_TIERS if rules.strict_ladder else SINGLE_TIERS
        self.single = {kind: len(singles) - i for i, tier in enumerate(singles) for kind in tier}
        ladder: list[tuple[Named, ...]] = list(LADDER)
        if rules.di_jiu_wang:
            ladder.insert(1, DI_JIU_WANG)
        if rules.strict_ladder:
            ladder = [(named,) for tier in ladder for named in tier]
        self.named: dict[tuple[str, str], tuple[str, int]] = {}
        for i, tier in enumerate(ladder):
            for name, combos in tier:
                for a, b in combos:
                    self.named[_ordered(a, b)] = (name, len(ladder) - i)
        self.pairs: dict[frozenset[str], TwoCards] = self._pair_table()
        self.by_cards: dict[tuple[str, str], TwoCards] = {}
        for pair, two in self.pairs.items():
            a, b = pair
            self.by_cards[a, b] = self.by_cards[b, a] = two
        self._fours: dict[frozenset[str], FourCards] = {}
        kinds = sorted(set(self.kinds.values()))
        weights = {kind: 1 << (3 * i) for i, kind in enumerate(kinds)}  # 3 bits: up to 7 of a kind
        self.weight = {card: weights[kind] for card, kind in self.kinds.items()}
        self._special_of = self._special_table(kinds, weights)

    def _key(self, a: str, b: str) -> tuple[str, tuple[int, ...]]:
        ka, kb = self.kinds[a], self.kinds[b]
        named = self.named.get(_ordered(ka, kb))
        if named:
            return named[0], (1, named[1])
        points = (KIND_POINTS[ka] + KIND_POINTS[kb]) % 10
        high, low = sorted((self.single[ka], self.single[kb]), reverse=True)
        if points == 0 and not self.rules.zero_points_ties:
            high = low = 0
        return f"{points}点", (0, points, high, low)

    def _pair_table(self) -> dict[frozenset[str], TwoCards]:
        keyed = {frozenset(p): self._key(*p) for p in combinations(self.kinds, 2)}
        order = {key: i for i, key in enumerate(sorted({k for _, k in keyed.values()}))}
        return {
            pair: TwoCards(self._in_order(pair), name, order[key])
            for pair, (name, key) in keyed.items()
        }

    def _in_order(self, pair: frozenset[str]) -> tuple[str, str]:
        """The two cards of a pair, higher single first."""
        a, b = sort_by_single(pair, self)
        return a, b

    def two(self, a: str, b: str) -> TwoCards:
        return self.by_cards[a, b]

    def split(self, first: Iterable[str], second: Iterable[str]) -> Split:
        one, other = self.two(*first), self.two(*second)
        return Split(one, other) if one.strength >= other.strength else Split(other, one)

    def four(self, cards: Iterable[str]) -> FourCards:
        key = frozenset(cards)
        found = self._fours.get(key)
        if found is None:
            found = self._fours[key] = self._four(tuple(sorted(key)))
        return found

    def specials(self, cards: Iterable[str]) -> tuple[int, str | None]:
        """`four(cards)`'s special rank and 三花 (of four different cards), which hang on the
        cards' kinds alone: looked up by the sum of their kinds' weights, a count per kind."""
        weight = self.weight
        return self._special_of.get(sum([weight[c] for c in cards]), _ORDINARY)

    def _special_table(
        self, kinds: list[str], weights: dict[str, int]
    ) -> dict[int, tuple[int, str | None]]:
        """Every kind multiset with a special or a 三花, built from the hands that make
        them (what `_special` finds by testing a hand); a multiset not here has neither."""

        def key(hand: Iterable[str]) -> int | None:
            hand = list(hand)
            return sum(weights[k] for k in hand) if set(hand) <= weights.keys() else None

        ranks: dict[int, int] = {}
        for i, (name, option) in enumerate(SPECIALS):
            if option in self.rules.specials:
                for hand in SPECIAL_HANDS[name](kinds):
                    found = key(hand)
                    if found is not None:
                        ranks.setdefault(found, len(SPECIALS) - i)
        sanhua: dict[int, str] = {}
        if self.rules.sanhua:
            for name, need in SANHUA.items():
                for other in kinds:
                    found = key((*need, other))
                    if found is not None:
                        sanhua.setdefault(found, name)
        return {k: (ranks.get(k, 0), sanhua.get(k)) for k in ranks.keys() | sanhua.keys()}

    def _four(self, cards: tuple[str, ...]) -> FourCards:
        a, b, c, d = cards
        splits = (
            self.split((a, b), (c, d)),
            self.split((a, c), (b, d)),
            self.split((a, d), (b, c)),
        )
        special, rank, sanhua = self._special([self.kinds[x] for x in cards])
        return FourCards(cards, splits, special, rank, sanhua)

    def _special(self, kinds: list[str]) -> tuple[str | None, int, str | None]:
        """The special hand, its rank and any 三花 of four cards' kinds."""
        special, rank = None, 0
        for i, (name, option) in enumerate(SPECIALS):
            if option in self.rules.specials and SPECIAL_TESTS[name](kinds):
                special, rank = name, len(SPECIALS) - i
                break
        sanhua = None
        if self.rules.sanhua:
            sanhua = next((n for n, need in SANHUA.items() if set(need) <= set(kinds)), None)
        return special, rank, sanhua

    def order_cards(self, cards: Iterable[str]) -> list[str]:
        return sort_by_single(cards, self)


def sort_by_single(cards: Iterable[str], ranking: Ranking) -> list[str]:
    return sorted(cards, key=lambda c: (ranking.single[ranking.kinds[c]], c), reverse=True)


def _pair_plus(kinds: list[str], combos: Iterable[Combo]) -> bool:
    """A named two-card combo and, with the other two cards, a pair."""
    for x, y in combos:
        rest = list(kinds)
        if x in rest:
            rest.remove(x)
            if y in rest:
                rest.remove(y)
                if rest[0] == rest[1]:
                    return True
    return False


def _two_pairs(kinds: list[str]) -> bool:
    ordered = sorted(kinds)
    return ordered[0] == ordered[1] and ordered[2] == ordered[3]


SPECIAL_TESTS = {
    "天皇": lambda k: sorted(k) == sorted(["丁", "皇", "天", "天"]),
    "地皇": lambda k: sorted(k) == sorted(["丁", "皇", "地", "地"]),
    "天地公子": lambda k: sorted(k) == sorted(["天", "天", "地", "地"]),
    "朵朵": _two_pairs,
    "王对": lambda k: _pair_plus(k, [("天", "黑九")]),
    "杠对": lambda k: _pair_plus(k, [("天", "人"), ("天", "黑八"), ("地", "人"), ("地", "黑八")]),
    "9对": lambda k: _pair_plus(k, [("天", "膏"), ("天", "黑七")]),
}


def _with_pair(combos: Iterable[Combo]) -> Callable[[list[str]], list[tuple[str, ...]]]:
    """The hands `_pair_plus(kinds, combos)` holds for: a combo and a pair of any kind."""
    return lambda kinds: [(x, y, z, z) for x, y in combos for z in kinds]


SPECIAL_HANDS: dict[str, Callable[[list[str]], list[tuple[str, ...]]]] = {
    "天皇": lambda _: [("丁", "皇", "天", "天")],
    "地皇": lambda _: [("丁", "皇", "地", "地")],
    "天地公子": lambda _: [("天", "天", "地", "地")],
    "朵朵": lambda kinds: [(a, a, b, b) for a, b in combinations_with_replacement(kinds, 2)],
    "王对": _with_pair([("天", "黑九")]),
    "杠对": _with_pair([("天", "人"), ("天", "黑八"), ("地", "人"), ("地", "黑八")]),
    "9对": _with_pair([("天", "膏"), ("天", "黑七")]),
}
_ORDINARY: tuple[int, str | None] = (0, None)


@lru_cache(maxsize=16)
def ranking_for(rules: RankingRules) -> Ranking:
    return Ranking(rules)
