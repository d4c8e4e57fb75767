"""掼蛋: seed 003 (记级, 逢人配, 胜负判定, 进贡) and issue 6's bomb order as golden tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compliance.games.guandan import GAME, GuandanOptions, Match
from compliance.logs.records import Variant
from tests.builders_guandan import (
    SEATS,
    card_value,
    checked,
    due_tributes,
    guandan_hand,
    money,
    session_of,
    tribute,
)


def describe(cards: str, level: str = "2", over: str | None = None) -> dict:
    record = {"cards": cards.split(), "level": level}
    if over:
        record["over"] = over.split()
    return GAME.describe(record)


@pytest.mark.parametrize(
    ("cards", "level", "combination", "rank"),
    [
        pytest.param("S3", "2", "single", "3", id="a single"),
        pytest.param("H2", "2", "single", "2", id="the wildcard alone is the level card"),
        pytest.param("BJ BJ", "2", "pair", "BJ", id="a pair of small jokers"),
        pytest.param("H2 S9", "2", "pair", "9", id="逢人配 makes a pair"),
        pytest.param("S8 H8 D8", "2", "triple", "8", id="a triple"),
        pytest.param("S3 H3 C3 S4 D4", "2", "full_house", "3", id="三带二 by its triple"),
        pytest.param(
            "SA S2 C3 D4 H5", "2", "straight", "5", id="A low straight, the level card in place"
        ),
        pytest.param("S10 SJ CQ DK HA", "2", "straight", "A", id="A high straight"),
        pytest.param("S3 H3 S4 H4 S5 D5", "2", "tube", "5", id="三连对"),
        pytest.param("S3 H3 C3 S4 H4 C4", "2", "plate", "4", id="钢板"),
        pytest.param("SK SK HK CA CA HA", "2", "plate", "A", id="钢板 KKKAAA"),
        pytest.param("H2 S5 C5 D5", "2", "bomb", "5", id="seed: X555 相当于5555"),
        pytest.param(
            "H7 S4 S5 S6 C7", "7", "straight", "8", id="seed: X4567 also 45678 (the stronger)"
        ),
        pytest.param("S5 S6 S7 S8 S9", "2", "straight_flush", "9", id="同花顺"),
        pytest.param("H2 S5 S6 S7 S8", "2", "straight_flush", "9", id="同花顺 with the wildcard"),
        pytest.param("S3 S3 H3 H3 C3 C3", "2", "bomb", "3", id="six-card bomb"),
        pytest.param("BJ BJ RJ RJ", "2", "joker_bomb", "RJ", id="四大天王"),
    ],
)
def test_each_combination_is_recognised(cards, level, combination, rank):
    described = describe(cards, level)
    assert (described["combination"], described["top"]) == (combination, rank)
    assert described["rank"] == f"{combination}:{rank}"


@pytest.mark.parametrize(
    "cards",
    [
        pytest.param("BJ RJ", id="small and big joker are no pair"),
        pytest.param("H2 BJ", id="the wildcard cannot stand for a joker"),
        pytest.param("SQ SK SA S2 S3", id="straights do not wrap"),
        pytest.param("S3 S4", id="two ranks are no pair"),
        pytest.param("S3 S3 S3 S4 S5", id="a triple with two singles"),
    ],
)
def test_cards_that_make_no_combination_are_said_so(cards):
    assert describe(cards)["combination"] is None


def test_the_seed_x4567_straight_offers_both_readings():
    readings = {i["as"] for i in describe("H7 S4 S5 S6 C7", "7")["interpretations"]}
    assert {"straight:7", "straight:8"} <= readings


@pytest.mark.parametrize(
    ("stronger", "weaker", "level"),
    [
        pytest.param(
            "BJ BJ RJ RJ", "S7 S7 H7 H7 C7 C7 D7 D7 H2 H2", "2", id="四大天王 over a ten-card bomb"
        ),
        pytest.param(
            "S3 S3 H3 H3 C3 C3",
            "H2 S5 S6 S7 S8",
            "2",
            id="six-card bomb over a wildcard straight flush",
        ),
        pytest.param(
            "H2 S5 S6 S7 S8",
            "SA SA HA HA CA",
            "2",
            id="wildcard straight flush over a five-card bomb",
        ),
        pytest.param(
            "S3 S3 H3 H3 C3", "SA SA HA CA", "2", id="five-card bomb over a four-card bomb"
        ),
        pytest.param("S3 S3 H3 C3", "S10 SJ CQ DK HA", "2", id="four-card bomb over any straight"),
        pytest.param("S2 S2 C2 D2", "SA SA HA CA", "2", id="the level rank's bomb over the A bomb"),
        pytest.param("S6 S7 S8 S9 S10", "H2 S5 S6 S7 S8", "2", id="the higher straight flush"),
        pytest.param("S5", "SA", "5", id="the level card over an A"),
        pytest.param("BJ", "S5", "5", id="a small joker over the level card"),
        pytest.param("S4 H4 C4 S3 D3", "S3 H3 C3 SA DA", "2", id="三带二 compares the triple"),
    ],
)
def test_combinations_compare_as_the_rules_say(stronger, weaker, level):
    assert describe(stronger, level, over=weaker)["beats"] is True
    assert describe(weaker, level, over=stronger)["beats"] is False


@pytest.mark.parametrize(
    ("play", "table"),
    [
        pytest.param("S9 S9", "S3", id="a pair does not beat a single"),
        pytest.param("S4 H5 S6 S7 S8", "S3 H3 S4 H4 S5 D5", id="a straight does not beat 三连对"),
        pytest.param("S3", "S3", id="an equal single does not beat"),
    ],
)
def test_plays_that_do_not_beat_the_table(play, table):
    assert describe(play, over=table)["beats"] is False


@pytest.mark.parametrize(
    ("finish", "winners", "levels"),
    [
        pytest.param("acbd", ("a", "c"), 3, id="partner second (双上): +3"),
        pytest.param("abcd", ("a", "c"), 2, id="partner third: +2"),
        pytest.param("abdc", ("a", "c"), 1, id="partner last (下游): +1"),
        pytest.param("bdca", ("b", "d"), 3, id="the other team 双上: +3"),
    ],
)
def test_levels_follow_the_finishing_order(finish, winners, levels):
    amount = 10 * levels
    session = session_of(
        "guandan", [guandan_hand(1, finish, money(winners, amount))], stake_per_level=10
    )
    (result,) = GAME.replay(session)
    assert result.deltas == money(winners, amount)
    assert checked(result.issues) == []


def test_a_match_carries_levels_and_tribute_from_hand_to_hand():
    hands = [
        guandan_hand(1, "acbd", money(("a", "c"), 30), level="2"),
        guandan_hand(2, "bdac", money(("b", "d"), 30), level="5"),
        guandan_hand(3, "abcd", money(("a", "c"), 20), level="5"),
        guandan_hand(4, "dcab", money(("b", "d"), 10), level="7"),
    ]
    for previous, hand in zip(hands, hands[1:], strict=False):
        hand["tribute"] = due_tributes(hand["deal"], "".join(previous["finish"]), hand["level"])
    results = list(GAME.replay(session_of("guandan", hands, stake_per_level=10)))
    assert [checked(r.issues) for r in results] == [[], [], [], []]
    totals = {p: sum(r.deltas[p] for r in results) for p in SEATS}
    assert totals == {"a": 10, "b": -10, "c": 10, "d": -10}


def test_a_wrong_level_is_flagged():
    hands = [
        guandan_hand(1, "acbd", money(("a", "c"), 3)),
        guandan_hand(2, "acbd", money(("a", "c"), 3), level="4"),
    ]
    hands[1]["tribute"] = due_tributes(hands[1]["deal"], "acbd", "5")
    issues = checked(list(GAME.replay(session_of("guandan", hands)))[1].issues)
    assert [i.detail for i in issues] == ["hand 2: played at level 4, the levels give 5"]


def test_passing_a_ends_the_game_and_pays_the_stake_per_game():
    levels = ["2", "5", "8", "J", "A", "2"]
    hands = [
        guandan_hand(seed, "acbd", money(("a", "c"), 30), level=lv)
        for seed, lv in enumerate(levels, 1)
    ]
    hands[4]["claimed"] = money(("a", "c"), 130)
    for previous, hand in zip(hands, hands[1:5], strict=False):
        hand["tribute"] = due_tributes(hand["deal"], "".join(previous["finish"]), hand["level"])
    results = list(
        GAME.replay(session_of("guandan", hands, stake_per_level=10, stake_per_game=100))
    )
    assert [checked(r.issues) for r in results] == [[]] * 6
    assert results[4].deltas["a"] == 130
    assert results[0].stakes == {p: 110 for p in SEATS}


def test_a_tribute_that_keeps_a_higher_card_is_flagged():
    h2 = guandan_hand(2, "acbd", money(("a", "c"), 30), level="4")
    paid = tribute(h2["deal"], "d", "a", "4")
    lower = next(c for c in h2["deal"]["d"] if card_value(c, "4") < card_value(paid["card"], "4"))
    paid["card"] = lower
    h2["tribute"] = [paid]
    rounds = [guandan_hand(1, "abcd", money(("a", "c"), 20)), h2]
    results = list(GAME.replay(session_of("guandan", rounds, stake_per_level=10)))
    (issue,) = checked(results[1].issues)
    assert issue.check == "illegal_action"
    assert "keeps a higher card" in issue.detail and issue.round == 2
    assert issue.players == ("d",)


def test_the_wildcard_is_not_paid_as_tribute():
    h2 = guandan_hand(2, "acbd", money(("a", "c"), 30), level="4")
    _give(h2["deal"], "d", "H4")
    paid = tribute(h2["deal"], "d", "a", "4")
    paid["card"] = "H4"
    h2["tribute"] = [paid]
    rounds = [guandan_hand(1, "abcd", money(("a", "c"), 20)), h2]
    results = list(GAME.replay(session_of("guandan", rounds, stake_per_level=10)))
    assert any("逢人配" in i.detail for i in results[1].issues)


def test_a_payer_holding_both_big_jokers_resists_the_tribute():
    h2 = guandan_hand(2, "acbd", money(("a", "c"), 3), level="4")
    _give(h2["deal"], "d", "RJ", "RJ")
    results = list(
        GAME.replay(
            session_of(
                "guandan", [guandan_hand(1, "abcd", money(("a", "c"), 2)), h2], stake_per_level=1
            )
        )
    )
    assert checked(results[1].issues) == []
    h2["tribute"] = [tribute(h2["deal"], "d", "a", "4")]
    results = list(
        GAME.replay(
            session_of(
                "guandan", [guandan_hand(1, "abcd", money(("a", "c"), 2)), h2], stake_per_level=1
            )
        )
    )
    assert "抗贡" in results[1].issues[0].detail


def test_a_return_above_ten_is_flagged_unless_the_variant_allows_any():
    h2 = guandan_hand(2, "acbd", money(("a", "c"), 3), level="4")
    paid = tribute(h2["deal"], "d", "a", "4")
    paid["returned"] = next(c for c in h2["deal"]["a"] if c[1:] in ("J", "Q", "K", "A"))
    h2["tribute"] = [paid]
    rounds = [guandan_hand(1, "abcd", money(("a", "c"), 2)), h2]
    strict = checked(list(GAME.replay(session_of("guandan", rounds)))[1].issues)
    loose = checked(list(GAME.replay(session_of("guandan", rounds, return_max="any")))[1].issues)
    assert "还贡" in strict[0].detail and loose == []


@pytest.mark.parametrize(
    ("a_finish", "order", "passes"),
    [
        pytest.param("first_not_last", "abcd", True, id="seed: first, partner not last passes A"),
        pytest.param("first_not_last", "abdc", False, id="seed: partner last repeats A"),
        pytest.param("double_up", "abcd", False, id="双上 variant: partner third repeats A"),
        pytest.param("double_up", "acbd", True, id="双上 variant: 双上 passes A"),
        pytest.param("any_win", "abdc", True, id="any-win variant: first alone passes A"),
    ],
)
def test_the_a_level_needs_the_stricter_finish(a_finish, order, passes):
    match = Match(GuandanOptions(a_finish=a_finish, stake_per_game=100))
    match.levels, match.declarer, match.previous = [12, 3], 0, list("acbd")
    winner, gain, passed = match.settle(SEATS, list(order))
    assert (winner, passed) == (0, passes)
    assert match.levels == ([0, 0] if passes else [12, 3])
    assert gain == (0 if not passes else gain)


def test_three_failed_a_hands_drop_the_team_back_to_two():
    match = Match(GuandanOptions(a_failures_reset=3))
    match.levels, match.declarer, match.previous = [12, 3], 0, list("acbd")
    for _ in range(3):
        match.settle(SEATS, list("abdc"))
    assert match.levels[0] == 0


def test_describe_takes_the_level_from_the_variant():
    assert GAME.describe(["HA", "S3"], Variant(options={"level": "A"}))["combination"] == "pair"


def _give(deal: dict[str, list[str]], player: str, *cards: str) -> None:
    """Move cards into a player's hand, swapping his first non-joker cards out to their holders."""
    for card in cards:
        holder = next(p for p in deal if p != player and card in deal[p])
        swap = next(c for c in deal[player] if c not in ("RJ", "BJ"))
        deal[holder][deal[holder].index(card)] = swap
        deal[player][deal[player].index(swap)] = card


def test_the_round_record_example_of_the_docs_breaks_no_rule_and_is_unverified():
    text = (Path(__file__).parents[2] / "docs/games/guandan.md").read_text(encoding="utf-8")
    example = text.split("## Round record", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    results = list(GAME.replay(session_of("guandan", json.loads(example))))
    assert [[i.check for i in r.issues] for r in results] == [["unverifiable"]] * 2
    assert [r.deltas["a"] for r in results] == [30, -20]


@pytest.mark.parametrize(
    ("rule", "finish", "payer", "clean"),
    [
        # a and c are partners, b and d; 上游 a's team goes up (c last +1, c third +2)
        pytest.param("last", "abdc", "c", True, id="seed: 对落 a..c, 下游 c pays a"),
        pytest.param("last", "abdc", "d", False, id="seed: 对落 a..c, d (third) owes none"),
        pytest.param("third", "abdc", "d", True, id="third: 对落 a..c, third d pays a"),
        pytest.param("third", "abdc", "c", False, id="third: 对落 a..c, 下游 c owes none"),
        pytest.param("third", "abcd", "d", True, id="third: a..d not partners, 下游 d pays a"),
    ],
)
def test_who_pays_when_the_first_and_last_finishers_are_partners(rule, finish, payer, clean):
    gain = 1 if finish == "abdc" else 2
    h1 = guandan_hand(1, finish, money(("a", "c"), 10 * gain))
    level = "3" if gain == 1 else "4"
    h2 = guandan_hand(2, "abcd", money(("a", "c"), 20), level=level)
    h2["tribute"] = [tribute(h2["deal"], payer, "a", level)]
    session = session_of("guandan", [h1, h2], stake_per_level=10, partner_last_tribute=rule)
    results = list(GAME.replay(session))
    assert checked(results[0].issues) == []
    issues = [i.detail for i in checked(results[1].issues)]
    if clean:
        assert issues == []
    else:
        assert issues == [
            f"hand 2: {payer} pays a tribute but owes none",
            f"hand 2: tribute owed by {'c' if payer == 'd' else 'd'}, logged from {payer}",
        ]
    assert GuandanOptions().partner_last_tribute == "last"
