"""One-line builders for 掼蛋 and 升级 tests: deals, hands and sessions."""

from __future__ import annotations

from collections import Counter
from typing import Any

from compliance.domain.rounds import UNVERIFIABLE, Integrity
from compliance.games.cards import build_deck, shuffled
from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of


def checked(issues: list[Integrity]) -> list[Integrity]:
    """The breaches the rules find: the issues less the `unverifiable` of a hand whose plays
    (or tricks) are not logged, which every such hand carries."""
    assert all(i.check != UNVERIFIABLE or "without its" in i.detail for i in issues)
    return [i for i in issues if i.check != UNVERIFIABLE]


SEATS = ["a", "b", "c", "d"]  # a and c are partners, b and d the other team
ORDER = {
    r: i
    for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], 2)
}


def session_of(
    game: str, rounds: list[dict[str, Any]], preset: str | None = None, **options: Any
) -> Session:
    return shared_session_of(game, rounds, SEATS, Variant(preset=preset, options=options))


def guandan_deal(seed: int) -> dict[str, list[str]]:
    """27 cards each from a seeded shuffle of two decks with jokers."""
    deck = shuffled(build_deck(2, jokers=True), seed)
    return {p: deck[i * 27 : (i + 1) * 27] for i, p in enumerate(SEATS)}


def card_value(card: str, level: str) -> int:
    """掼蛋 single-card order, written out independently of the engine for the tests."""
    if card in ("BJ", "RJ"):
        return {"BJ": 16, "RJ": 17}[card]
    return 15 if card[1:] == level else ORDER[card[1:]]


def highest(cards: list[str], level: str) -> str:
    return max((c for c in cards if c != "H" + level), key=lambda c: card_value(c, level))


def lowest_ten_or_under(cards: list[str]) -> str:
    return min(
        (c for c in cards if c not in ("BJ", "RJ") and ORDER[c[1:]] <= 10),
        key=lambda c: ORDER[c[1:]],
    )


def tribute(deal: dict[str, list[str]], payer: str, receiver: str, level: str) -> dict[str, str]:
    """The tribute the rules want: the payer's highest card, the lowest card ≤ 10 back."""
    card = highest(deal[payer], level)
    back = lowest_ten_or_under(deal[receiver] + [card])
    return {"payer": payer, "receiver": receiver, "card": card, "returned": back}


def due_tributes(deal: dict[str, list[str]], previous: str, level: str) -> list[dict[str, str]]:
    """The tributes due after a finishing order such as "acbd" (双下: both losers pay)."""
    team = {"a": 0, "c": 0, "b": 1, "d": 1}
    double = team[previous[0]] == team[previous[1]]
    payers, receivers = (
        (list(previous[2:]), list(previous[:2])) if double else ([previous[3]], [previous[0]])
    )
    if sum(deal[p].count("RJ") for p in payers) >= 2:
        return []
    cards = {p: highest(deal[p], level) for p in payers}
    payers.sort(key=lambda p: -card_value(cards[p], level))
    records = []
    for payer, receiver in zip(payers, receivers, strict=True):
        back = lowest_ten_or_under(deal[receiver] + [cards[payer]])
        records.append(
            {"payer": payer, "receiver": receiver, "card": cards[payer], "returned": back}
        )
    return records


def money(winners: tuple[str, str], amount: int) -> dict[str, int]:
    return {p: amount if p in winners else -amount for p in SEATS}


def guandan_hand(
    seed: int, finish: str, claimed: dict[str, int], level: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A hand without plays: finish is the finishing order as letters, e.g. "acbd"."""
    record: dict[str, Any] = {
        "deal": guandan_deal(seed),
        "finish": list(finish),
        "claimed": claimed,
    }
    if level is not None:
        record["level"] = level
    return record | extra


def shengji_scripted(
    final_p3: str, kitty_points_cards: tuple[str, ...] = ("D5", "D5", "D10", "DK")
) -> dict[str, Any]:
    """A whole 升级 hand (level 2, 无主) in which the holders a and c win 24 tricks and
    the attacker b takes only the last: H3 from a, HA from b, `final_p3` from c, HK from d.

    The kitty (buried as picked up) holds D5 D5 D10 DK: 30 points, doubled for a single.
    """
    trumps = ["RJ", "RJ", "BJ", "BJ", "S2", "S2", "H2", "H2", "C2", "C2", "D2", "D2"]
    high_spades = [s + r for r in ("A", "K", "Q", "J", "10", "9") for s in ("S", "S")]
    low_spades = [s + r for r in ("8", "7", "6", "5", "4", "3") for s in ("S", "S")]
    kitty = list(kitty_points_cards) + ["C3", "C4", "C6", "C7"]
    finals = {"b": "HA", "c": final_p3, "d": "HK"}
    a_cards = trumps + high_spades + ["H3"]
    used = Counter(a_cards) + Counter(kitty) + Counter(low_spades) + Counter(finals.values())
    others = sorted((Counter(build_deck(2, jokers=True)) - used).elements())
    assert len(others) == 60
    hands = {"a": a_cards}
    sequences = {}
    for i, p in enumerate(("b", "c", "d")):
        spades = low_spades[4 * i : 4 * i + 4]
        rest = others[20 * i : 20 * i + 20]
        hands[p] = spades + rest + [finals[p]]
        sequences[p] = rest[:12] + spades + rest[12:] + [finals[p]]
    tricks = []
    for t in range(25):
        led = a_cards[t]
        tricks.append(
            [{"player": "a", "cards": [led]}]
            + [{"player": p, "cards": [sequences[p][t]]} for p in "bcd"]
        )
    return {
        "declarer": "a",
        "trump": "NT",
        "level": "2",
        "deal": hands,
        "kitty": kitty,
        "buried": kitty,
        "tricks": tricks,
        "claimed": {p: 0 for p in SEATS},
    }
