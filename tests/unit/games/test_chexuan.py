"""扯旋 engine: betting checks, folds, voids, 三花, escape, options and rejects."""

from __future__ import annotations

import pytest

from compliance.errors import DealError, LogError
from compliance.games.chexuan import GAME
from tests.builders_chexuan import act, round_of, seat, session_of

# a and b draw (a's head 天牌 is bigger, b's 7-point tail beats a's 6); c is smallest (tail 2).
A, B, C = ("HQ DQ H4 H2", "HQ DQ"), ("H8 D8 S5 D2", "H8 D8"), ("S10 C10 C7 C5", "S10 C10")


def three(betting, caps=(100, 100, 100), ante=0, heads=True):
    hands = [A, B, C]
    return round_of(
        "c",
        *(
            seat(p, h[0], cap, h[1] if heads else None)
            for p, h, cap in zip("abc", hands, caps, strict=True)
        ),
        ante=ante,
        betting=betting,
    )


def replay(*rounds, **options):
    return list(GAME.replay(session_of(list(rounds), **options)))


def checks(result):
    return [i.check for i in result.issues]


def test_folded_chips_go_to_the_strongest_tail_still_in():
    rnd = three(
        [
            [act("a", "大", 20), act("b", "跟", 20), act("c", "跟", 20)],
            [act("a", "大", 30), act("b", "跟", 30), act("c", "丢")],
            [act("a", "大", 10), act("b", "跟", 10)],
        ]
    )
    [result] = replay(rnd)
    assert result.deltas == {"a": 0, "b": 20, "c": -20}
    assert result.stakes == {"a": 60, "b": 60, "c": 20}
    assert checks(result) == ["settlement_mismatch"]


def test_a_timeout_counts_as_a_fold():
    rnd = three([[act("a", "大", 20), act("b", "超时"), act("c", "超时")]])
    for s in rnd["seats"]:
        s["cards"] = s["cards"][:2]
        s.pop("head")
    [result] = replay(rnd)
    assert result.deltas == {"a": 0, "b": 0, "c": 0}
    rnd["betting"] = [[act("a", "休"), act("b", "大", 10), act("c", "超时"), act("a", "丢")]]
    [result] = replay(rnd)
    assert result.deltas == {"a": 0, "b": 0, "c": 0}


def test_the_last_player_in_takes_folded_chips_up_to_his_own_stake():
    rnd = three([[act("a", "大", 10), act("b", "大", 40), act("c", "丢"), act("a", "丢")]])
    for s in rnd["seats"]:
        s["cards"] = s["cards"][:2]
        s.pop("head")
    rnd["ante"] = 5
    [result] = replay(rnd)
    assert result.deltas == {"a": -15, "b": 20, "c": -5}


def test_everyone_休_voids_the_round_and_nobody_wins_or_loses():
    rnd = three([[act("a", "休"), act("b", "休"), act("c", "休")]], ante=10)
    for s in rnd["seats"]:
        s["cards"] = s["cards"][:2]
        s.pop("head")
    [result] = replay(rnd)
    assert result.deltas == {"a": 0, "b": 0, "c": 0} and result.issues == []
    assert result.stakes == {"a": 10, "b": 10, "c": 10}


def test_a_carried_ante_pool_grows_on_a_void_and_goes_to_the_strongest_tail():
    void = three([[act("a", "休"), act("b", "休"), act("c", "休")]], ante=10)
    for s in void["seats"]:
        s["cards"] = s["cards"][:2]
        s.pop("head")
    played = three(
        [
            [act("a", "大", 20), act("b", "跟", 20), act("c", "跟", 20)],
            [
                act("a", "休"),
                act("b", "休"),
                act("c", "大", 5),
                act("a", "跟", 5),
                act("b", "跟", 5),
            ],
            [act("a", "大", 5), act("b", "跟", 5), act("c", "跟", 5)],
        ],
        ante=10,
    )
    first, second = replay(void, played, preset="mango")
    assert first.deltas == {"a": -10, "b": -10, "c": -10} and first.carried == 30
    assert second.carried == -30
    # bets: c loses 30 to b (the strongest tail); the 30 of antes and the pool of 30 go to b.
    assert second.deltas == {"a": -10, "b": 30 + 60 - 10, "c": -30 - 10}
    assert sum(second.deltas.values()) + second.carried == 0


def test_an_illegal_休_after_a_bet_is_flagged_with_its_round():
    good = three([[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []])
    bad = three(
        [
            [act("a", "大", 20), act("b", "休"), act("c", "跟", 20)],
            [act("b", "休"), act("c", "休"), act("a", "休")],
            [],
        ]
    )
    _, result = replay(good, bad)
    [issue] = [i for i in result.issues if i.check == "illegal_action"]
    assert issue.round == 2
    assert issue.detail == "deal round 1: b 休 after a bet"


@pytest.mark.parametrize(
    ("betting", "detail"),
    [
        pytest.param(
            [[act("b", "大", 10)]], "deal round 1: b 大 out of turn (a to act)", id="out-of-turn"
        ),
        pytest.param(
            [[act("a", "大", 200)]],
            "deal round 1: a 大 200 beyond the 簸簸 (100 left)",
            id="大-beyond-簸簸",
        ),
        pytest.param(
            [[act("a", "大", 10), act("b", "大", 5)]],
            "deal round 1: b 大 5 does not exceed 10",
            id="大-that-does-not-raise",
        ),
        pytest.param(
            [[act("a", "跟")]], "deal round 1: a 跟 with nothing to match", id="跟-nothing"
        ),
        pytest.param(
            [[act("a", "敲", 50)]],
            "deal round 1: a 敲 50 where the 簸簸 leaves 100",
            id="敲-not-the-whole-簸簸",
        ),
        pytest.param(
            [[act("a", "丢"), act("b", "大", 10), act("a", "跟", 10)]],
            "deal round 1: a 跟 after leaving the betting",
            id="acting-after-丢",
        ),
        pytest.param(
            [[act("a", "大", 10), act("b", "跟", 10)]],
            "deal round 1: ended with c still to act",
            id="round-left-open",
        ),
        pytest.param(
            [[act("a", "大", 10), act("b", "跟", 10), act("c", "跟", 10)]],
            "deal round 2: no actions logged",
            id="missing-deal-round",
        ),
    ],
)
def test_illegal_action_sequences_name_the_deal_round_and_the_action(betting, detail):
    rnd = three(betting)
    [result] = replay(rnd)
    illegal = [i for i in result.issues if i.check == "illegal_action"]
    assert [i.detail for i in illegal] == [detail]


def test_a_short_敲_does_not_reopen_the_betting():
    rnd = three(
        [[act("a", "大", 50), act("b", "跟", 50), act("c", "敲", 30)], [], []], caps=(100, 100, 30)
    )
    rnd["betting"][1:] = [
        [act("a", "休"), act("b", "大", 10), act("a", "跟", 10)],
        [act("a", "休"), act("b", "休")],
    ]
    [result] = replay(rnd)
    assert checks(result) == ["settlement_mismatch"]
    # a and b draw; c (30) pays b, the stronger tail; no void: c is all in.
    assert result.deltas == {"a": 0, "b": 30, "c": -30}


def test_a_split_with_the_head_smaller_is_swapped_and_reported():
    rnd = three([[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []])
    rnd["seats"][0]["head"], rnd["seats"][0]["tail"] = ["H4", "H2"], ["HQ", "DQ"]
    rnd["seats"][1]["claimed"], rnd["seats"][2]["claimed"] = 100, -100
    [result] = replay(rnd)
    [issue] = result.issues
    assert issue.check == "illegal_action" and issue.players == ("a",)
    assert "head 6点 smaller than the tail 天牌" in issue.detail
    assert result.deltas == {"a": 0, "b": 100, "c": -100}


def test_a_三花_hand_neither_wins_nor_loses():
    rnd = round_of(
        "c",
        seat("a", "S10 H10 SJ S9", 100, "S10 H10"),
        seat("b", "H8 D8 S5 D2", 100, "H8 D8"),
        seat("c", "HQ DQ H4 H2", 100, "HQ DQ"),
        betting=[[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []],
    )
    [result] = replay(rnd)
    assert result.deltas == {"a": 0, "b": 0, "c": 0}
    [result] = replay(rnd, sanhua=False)
    assert result.deltas["a"] == -100


def test_an_escape_forfeits_the_whole_table():
    rnd = three([[act("a", "大", 20), act("b", "丢"), act("c", "逃跑")]], ante=5)
    for s in rnd["seats"]:
        s["cards"] = s["cards"][:2]
        s.pop("head")
    [result] = replay(rnd)
    assert result.deltas == {"a": 0, "b": 0, "c": -35} and result.rake == 35
    [result] = replay(rnd, escape="fold")
    assert result.deltas == {"a": 10, "b": -5, "c": -5}


def test_a_special_hand_beats_any_ordinary_one():
    rnd = round_of(
        "b",
        seat("a", "S5 C5 S7 C7", 100, "S7 C7"),  # 朵朵
        seat("b", "H3 RJ HQ S9", 100, "H3 RJ"),  # 丁皇 + 奶狗
        betting=[[act("a", "敲", 100), act("b", "敲", 100)], [], []],
    )
    [result] = replay(rnd)
    assert result.deltas == {"a": 100, "b": -100}
    [result] = replay(rnd, duoduo=False)
    assert result.deltas == {"a": 0, "b": 0}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        pytest.param({}, {"a": 0, "b": 0}, id="seed-one-bigger-one-smaller-draws"),
        pytest.param(
            {"preset": "tail_decides"}, {"a": 100, "b": -100}, id="option-the-tail-decides"
        ),
    ],
)
def test_例2_draw_under_the_split_rule_options(options, expected):
    rnd = round_of(
        "b",
        seat("a", "H2 D2 S7 H8", 100, "H2 H8"),
        seat("b", "HQ C7 S8 SJ", 100, "HQ S8"),
        betting=[[act("a", "敲", 100), act("b", "敲", 100)], [], []],
    )
    [result] = replay(rnd, **options)
    assert result.deltas == expected


def test_the_seeds_four_player_method_orders_by_head():
    rnd = three([[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []])
    [result] = replay(rnd, preset="four_player")
    assert result.deltas == {"a": 100, "b": 0, "c": -100}


def test_a_separate_ante_pot_is_eaten_by_the_strongest_tail():
    rnd = three([[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []], ante=10)
    [result] = replay(rnd, preset="ante_pot")
    assert result.deltas == {"a": -10, "b": 100 + 20, "c": -110}
    assert result.stakes == {"a": 110, "b": 110, "c": 110}


def test_地九王_is_an_option_off_by_default():
    assert GAME.describe(["H2", "S9"])["name"] == "1点"
    from compliance.logs.records import Variant

    variant = Variant(options={"di_jiu_wang": True})
    described = GAME.describe(["H2", "S9"], variant)
    assert described["name"] == "地九王"
    assert GAME.describe(["H3", "RJ"], variant)["strength"] > described["strength"]
    assert described["strength"] > GAME.describe(["HQ", "DQ"], variant)["strength"]


def test_a_tampered_claim_is_a_per_player_mismatch():
    rnd = three([[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []])
    rnd["seats"][1]["claimed"], rnd["seats"][2]["claimed"] = 150, -100
    [result] = replay(rnd)
    [issue] = result.issues
    assert issue.check == "settlement_mismatch"
    assert issue.claimed == {"b": 150} and issue.expected == {"b": 100}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param(
            lambda r: r["seats"][0].update(cards=["SK", "DQ", "H4", "H2"]),
            "round 1: card SK is not in the 扯旋 deck",
            id="card-outside-the-deck",
        ),
        pytest.param(
            lambda r: r["seats"][0].update(cards=["H8", "DQ", "H4", "H2"]),
            "round 1: duplicate card H8",
            id="duplicate-card",
        ),
        pytest.param(
            lambda r: r["seats"][0].update(player="zz"),
            "round 1: player zz is not in the session",
            id="stranger",
        ),
        pytest.param(
            lambda r: r["seats"][0].update(cards=["HQ", "DQ", "H4"]),
            "round 1: wrong card count [3, 4, 4]",
            id="wrong-count",
        ),
        pytest.param(
            lambda r: r["seats"][0].pop("head"),
            "round 1: a reached the showdown without a split",
            id="no-split",
        ),
        pytest.param(
            lambda r: r["seats"][0].update(head=["HQ", "S9"]),
            "round 1: a's split does not match his cards",
            id="split-of-other-cards",
        ),
    ],
)
def test_impossible_rounds_are_rejected_with_a_reason(change, reason):
    rnd = three([[act("a", "敲", 100), act("b", "敲", 100), act("c", "敲", 100)], [], []])
    change(rnd)
    with pytest.raises(DealError) as error:
        replay(rnd)
    assert str(error.value) == reason


def test_an_unknown_preset_is_a_log_error():
    with pytest.raises(LogError, match="unknown preset"):
        replay(three([]), preset="nope")


def test_eval_names_a_two_card_hand_and_rejects_foreign_cards():
    assert GAME.describe(["H3", "RJ"])["name"] == "丁皇"
    assert GAME.describe({"cards": ["HQ", "S8", "S4", "S5"]})["splits"][0]["head"]["name"] == "天杠"
    with pytest.raises(DealError):
        GAME.describe(["SK", "HQ"])


def test_a_player_whose_簸簸_is_only_the_ante_is_all_in_from_the_start():
    rnd = three([[act("a", "敲"), act("b", "敲")], [], []], caps=(100, 100, 10), ante=10)
    [result] = replay(rnd)
    assert [i.check for i in result.issues] == ["settlement_mismatch"]
    assert result.stakes == {"a": 100, "b": 100, "c": 10}
    assert result.deltas == {"a": 0, "b": 10, "c": -10}


def test_the_red_3_can_be_the_diamond():
    rnd = round_of(
        "b",
        seat("a", "D3 RJ S4 S5", 100, "D3 RJ"),
        seat("b", "HQ DQ H8 C8", 100, "HQ DQ"),
        betting=[[act("a", "敲", 100), act("b", "敲", 100)], [], []],
    )
    with pytest.raises(DealError, match="D3 is not in the 扯旋 deck"):
        replay(rnd)
    [result] = replay(rnd, red_three="D3")
    assert result.deltas == {"a": 100, "b": -100}
