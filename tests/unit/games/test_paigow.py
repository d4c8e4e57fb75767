"""牌九 engine: banker against each player, ties, four-card splits, limits, rejects, invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DealError
from compliance.games.paigow import GAME, PRESETS, PaigowOptions, deck, ranking_for
from compliance.games.paigow.simulator import simulate
from compliance.logs.records import Variant
from tests.builders_chexuan import PLAYERS, session_of


def pseat(player: str, cards: str, bet: int = 0, head: str | None = None, claimed: int = 0) -> dict:
    row = {"player": player, "cards": cards.split(), "claimed": claimed}
    if bet:
        row["bet"] = bet
    if head:
        row["head"] = head.split()
    return row


def replay(*rounds, **options):
    return list(GAME.replay(session_of(list(rounds), game="paigow", **options)))


def test_the_banker_plays_each_player_and_his_stake_is_the_largest_bet_he_faces():
    rnd = {
        "banker": "a",
        "seats": [
            pseat("a", "H8 S6"),  # 人4
            pseat("b", "HQ S9", 30),  # 水牛 wins
            pseat("c", "S5 S3", 20),  # 杂8 wins
            pseat("d", "SJ C9", 10),
        ],
    }  # 短0 loses
    [result] = replay(rnd)
    assert result.deltas == {"a": -40, "b": 30, "c": 20, "d": -10}
    assert result.stakes == {"a": 30, "b": 30, "c": 20, "d": 10}
    assert result.banker == "a"


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        pytest.param(None, {"a": 0, "b": 0}, id="a-tie-is-a-push-by-default"),
        pytest.param("ties_to_banker", {"a": 10, "b": -10}, id="option-ties-go-to-the-banker"),
    ],
)
def test_ties(preset, expected):
    rnd = {"banker": "a", "seats": [pseat("a", "S10 C10"), pseat("b", "S6 C6", 10)]}
    [result] = replay(rnd, preset=preset)
    assert result.deltas == expected


def test_four_card_play_wins_both_halves_or_pushes():
    rnd = {
        "banker": "a",
        "seats": [
            pseat("a", "H8 S6 H4 S5", head="H4 S5"),  # 和9 / 人4
            pseat("b", "HQ S9 D8 C6", 10, head="HQ S9"),  # 水牛 / 人4: win + tie
            pseat("c", "H2 D2 S3 C5", 10, head="H2 D2"),
        ],
    }  # 地牌对 / 杂8
    [result] = replay(rnd, preset="four_cards")
    assert result.deltas == {"a": -20, "b": 10, "c": 10}
    rnd["seats"][1]["head"] = ["D8", "C6"]
    [result] = replay(rnd, preset="four_cards")
    [issue] = [i for i in result.issues if i.check == "illegal_action"]
    assert issue.players == ("b",) and "swapped" in issue.detail


def test_a_bet_above_the_table_limit_is_an_illegal_action():
    rnd = {"banker": "a", "seats": [pseat("a", "H8 S6"), pseat("b", "HQ S9", 500, claimed=500)]}
    [result] = replay(rnd, max_bet=100)
    rnd["seats"][0]["claimed"] = -500
    [result] = replay(rnd, max_bet=100)
    [issue] = result.issues
    assert issue.check == "illegal_action" and issue.detail == "b bet 500 above the table limit 100"


@pytest.mark.parametrize(
    ("seats", "reason"),
    [
        pytest.param(
            [pseat("a", "H3 S6"), pseat("b", "HQ S9", 1)],
            "round 1: card H3 is not in the 牌九 deck",
            id="red-3-is-扯旋s",
        ),
        pytest.param(
            [pseat("a", "HQ S6"), pseat("b", "HQ S9", 1)],
            "round 1: duplicate card HQ",
            id="duplicate",
        ),
        pytest.param(
            [pseat("a", "H8 S6 S5"), pseat("b", "HQ S9", 1)],
            "round 1: wrong card count 3 for a",
            id="wrong-count",
        ),
        pytest.param(
            [pseat("x", "H8 S6"), pseat("b", "HQ S9", 1)],
            "round 1: player x is not in the session",
            id="stranger",
        ),
    ],
)
def test_impossible_rounds_are_rejected(seats, reason):
    with pytest.raises(DealError) as error:
        replay({"banker": "b", "seats": seats})
    assert str(error.value) == reason


@st.composite
def paigow_rounds(draw):
    n = draw(st.integers(2, 8))
    cards = draw(st.permutations(deck()))
    size = draw(st.sampled_from([2, 4]))
    seats = []
    for i in range(n):
        hand = list(cards[size * i : size * i + size])
        seat = {"player": PLAYERS[i % 6] + str(i), "cards": hand, "bet": draw(st.integers(0, 100))}
        if size == 4:
            seat["head"] = draw(st.sampled_from([hand[:2], [hand[0], hand[2]], [hand[0], hand[3]]]))
        seats.append(seat)
    seats[0]["bet"] = 0
    return {"banker": seats[0]["player"], "seats": seats}, size


@settings(max_examples=200, deadline=None)
@given(paigow_rounds(), st.booleans())
def test_a_round_is_zero_sum_and_nobody_loses_more_than_his_exposure(drawn, ties):
    rnd, size = drawn
    players = [s["player"] for s in rnd["seats"]]
    [result] = replay(rnd, players=players, hand_size=size, ties_to_banker=ties)
    assert sum(result.deltas.values()) == 0
    for s in rnd["seats"][1:]:
        assert abs(result.deltas[s["player"]]) <= s["bet"] == result.stakes[s["player"]]
    assert -result.deltas[rnd["banker"]] <= sum(s["bet"] for s in rnd["seats"])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 10), st.sampled_from([0.0, 0.2, 1.0]))
def test_replay_of_a_simulated_session_finds_exactly_the_injected_anomalies(seed, n_players, rate):
    players = [f"u{i}" for i in range(n_players)]
    sim = simulate(random.Random(seed), players, 40, 10, rate)
    session = session_of(
        sim.rounds,
        players=players,
        game="paigow",
        preset=sim.variant["preset"],
        **sim.variant["options"],
    )
    found = [(issue.round, issue.check) for r in GAME.replay(session) for issue in r.issues]
    assert found == sim.anomalies
    if rate == 0.0:
        assert found == []


TIE = {"banker": "a", "seats": [pseat("a", "H8 S6"), pseat("b", "D8 C6", 5)]}  # 人4 v 人4
GROUP = {"banker": "a", "seats": [pseat("a", "S10 C10"), pseat("b", "S6 C6", 5)]}  # 梅 v 长
FOUR = {
    "banker": "a",
    "seats": [
        pseat("a", "H8 S6 H4 S5", head="H4 S5"),  # head 和9, tail 人4
        pseat("b", "HQ S9 D8 C6", 5, head="HQ S9"),  # head 水牛, tail 人4
    ],
}


@pytest.mark.parametrize(
    ("preset", "rnd", "deltas"),
    [
        pytest.param("seed", TIE, {"a": 0, "b": 0}, id="seed: equal 人4 push"),
        pytest.param("seed", GROUP, {"a": 0, "b": 0}, id="seed: 长 pairs of a group are equal"),
        pytest.param("ties_to_banker", TIE, {"a": 5, "b": -5}, id="ties_to_banker: a takes 5"),
        pytest.param("strict", GROUP, {"a": 5, "b": -5}, id="strict: 梅 pair over 长 pair"),
        pytest.param("four_cards", FOUR, {"a": -5, "b": 5}, id="four_cards: head won, tail tied"),
    ],
)
def test_every_preset_resolves(preset, rnd, deltas):
    assert set(PRESETS) == {"seed", "ties_to_banker", "strict", "four_cards"}
    expected = GAME.options_for(Variant(preset=preset))
    assert expected == PaigowOptions(**PRESETS[preset])
    rnd = {**rnd, "seats": [{**s, "claimed": deltas[s["player"]]} for s in rnd["seats"]]}
    [result] = replay(rnd, preset=preset)
    assert (result.deltas, result.issues) == (deltas, [])


@pytest.mark.parametrize(
    ("banker", "player", "seed", "di_wang"),
    [
        # seed: 地 (2) + 9 is 地1, a points hand (2 + 9 = 11); option: 地王, below 水牛 (天王), above 天罡
        pytest.param("H2 S9", "HQ H8", 10, -10, id="地王 v 天罡: 地1 loses, 地王 wins"),
        pytest.param("H2 S9", "D2 C8", 10, -10, id="地王 v 地罡: 地1 loses, 地王 wins"),
        pytest.param("H2 S9", "HQ C9", 10, 10, id="地王 v 水牛 (天王): loses either way"),
        pytest.param("H2 S9", "H4 D4", 10, 10, id="地王 v 和 pair: loses either way"),
        pytest.param("H2 S9", "D8 C9", 10, -10, id="地王 v 人7: 地1 loses, 地王 wins"),
    ],
)
def test_di_wang_ranks_below_tian_wang_and_above_tian_gang_as_an_option(
    banker, player, seed, di_wang
):
    rnd = {"banker": "a", "seats": [pseat("a", banker), pseat("b", player, 10)]}
    [plain] = replay(rnd)
    [option] = replay(rnd, di_wang=True)
    assert plain.deltas["b"] == seed
    assert option.deltas["b"] == di_wang
    assert GAME.options_for(None).di_wang is False


def test_di_wang_is_named_in_the_ranking_only_with_the_option():
    assert ranking_for(di_wang=True).two("H2", "S9").name == "地王"
    assert ranking_for().two("H2", "S9").name == "地1"
