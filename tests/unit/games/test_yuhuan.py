"""玉环麻将 replay: payments, 承包, 黄庄 and 连庄, the banker, and the checks on a log."""

from __future__ import annotations

import pytest

from compliance.domain.rounds import ILLEGAL_ACTION, SETTLEMENT_MISMATCH, WRONG_BANKER
from compliance.errors import DealError, DecodeError
from compliance.games import get_game
from compliance.games.yuhuan import GAME, ROUND_TYPE
from compliance.logs.records import Variant
from tests.builders_yuhuan import meld, round_of, seat, session_of, win_of

# The seed's worked example for a (东, banker); b has a 一万 pung (4 胡 → 10),
# c has nothing, d one 杠花 (4 胡 × 2 → 10).
A = seat(
    "a",
    "1z",
    "777p999m8s8s8p5s5s",
    meld("pung", "222z", "c"),
    meld("pung", "666z", "d"),
    flowers="555z",
)
B = seat("b", "2z", "2345679m13p246s1z", meld("pung", "111m", "c"))
C = seat("c", "3z", "12345m2345p1369s347z")
D = seat("d", "4z", "3678m6799p2578s114z6z", flowers="5z")
WON = {"a": 1200, "b": -390, "c": -420, "d": -390}


def won_round(**changes):
    return round_of("a", A, B, C, D, win=win_of("a", "7p"), claimed=WON) | changes


def replay(rounds, **options):
    return list(GAME.replay(session_of(rounds, **options)))


def checks(result) -> list[str]:
    return [i.check for i in result.issues]


def test_yuhuan_is_registered_with_its_round_type():
    assert get_game("yuhuan") is GAME
    assert ROUND_TYPE.__name__ == "YuhuanRound"


def test_each_other_player_pays_the_winner_and_the_others_settle_their_differences():
    (result,) = replay([won_round()])
    assert result.deltas == WON
    assert result.issues == []
    assert sum(result.deltas.values()) == 0


def test_deltas_and_stakes_are_in_points_at_the_agreed_points_per_hu():
    (result,) = replay([won_round(claimed={p: 5 * v for p, v in WON.items()})], points_per_hu=5)
    assert result.deltas == {p: 5 * v for p, v in WON.items()}
    assert result.stakes == {p: 5 for p in "abcd"}
    assert result.issues == []


@pytest.mark.parametrize(
    ("tiles_left", "chengbao"),
    [
        pytest.param(25, True, id="a discard nine tiles before 黄庄 is 承包"),
        pytest.param(26, False, id="a discard ten tiles before 黄庄 is not"),
    ],
)
def test_the_discarder_pays_everyones_share_under_chengbao(tiles_left, chengbao):
    rnd = won_round(win=win_of("a", "7p", "c"), tiles_left=tiles_left, claimed={})
    (result,) = replay([rnd])
    if chengbao:
        assert result.deltas == {"a": 1200, "b": 10, "c": -1220, "d": 10}
    else:
        assert result.deltas == WON


def test_a_drawn_game_pays_nothing_and_the_banker_stays_without_kongs():
    drawn = round_of("a", A | {"tiles": A["tiles"][:-1]}, B, C, D, tiles_left=16)
    nxt = won_round()
    results = replay([drawn, nxt])
    assert results[0].deltas == {p: 0 for p in "abcd"}
    assert all(r.issues == [] for r in results)


def test_the_bank_passes_after_a_drawn_game_with_a_kong():
    kong_b = seat("b", "2z", "2345679m13p246s1z", meld("kong", "1111m", "c"))
    c_without_1m = C | {"tiles": ["2m", *C["tiles"][1:]]}
    drawn = round_of("a", A | {"tiles": A["tiles"][:-1]}, kong_b, c_without_1m, D, tiles_left=16)
    results = replay([drawn, won_round()])
    assert checks(results[1]) == [WRONG_BANKER]


def test_the_bank_passes_after_every_win_even_the_bankers_own():
    second = round_of(
        "a",
        A | {"wind": "4z"},
        B | {"wind": "1z"},
        C | {"wind": "2z"},
        D | {"wind": "3z"},
        win=win_of("a", "7p"),
    )
    second["banker"] = "b"
    results = replay([won_round(), second])
    assert WRONG_BANKER not in checks(results[1])
    results = replay([won_round(), second], banker_keeps_on_win=True)
    assert WRONG_BANKER in checks(results[1])


def test_a_tampered_claim_is_a_settlement_mismatch_with_the_itemised_difference():
    (result,) = replay([won_round(claimed={"a": 1260, "b": -390, "c": -480, "d": -390})])
    (issue,) = result.issues
    assert issue.check == SETTLEMENT_MISMATCH
    assert issue.claimed == {"a": 1260, "c": -480} and issue.expected == {"a": 1200, "c": -420}
    assert "a claimed 1260, rules give 1200" in issue.detail
    assert (
        "a wins 400 = 58 胡" in issue.detail
        and "暗坎九万 8" in issue.detail
        and "碰碰胡 2" in issue.detail
    )
    assert "d scores 10 = 4 胡" in issue.detail


def test_a_hand_that_is_not_complete_is_an_illegal_win_and_pays_nothing():
    broken = A | {"tiles": ["7p", "7p", "7p", "9m", "9m", "9m", "8s", "8s", "1s", "5s", "4s"]}
    (result,) = replay([round_of("a", broken, B, C, D, win=win_of("a", "7p"))])
    assert result.deltas == {p: 0 for p in "abcd"}
    assert checks(result) == [ILLEGAL_ACTION]


@pytest.mark.parametrize(
    "win",
    [
        pytest.param(win_of("a", "7p", "c", kong_flower=True), id="杠上开花 on a discard"),
        pytest.param(win_of("a", "7p", robbed_kong=True), id="拉杠 self-drawn"),
    ],
)
def test_impossible_win_flags_are_illegal_actions_and_score_nothing(win):
    (result,) = replay([won_round(win=win, claimed={})])
    assert ILLEGAL_ACTION in checks(result)


def test_a_chow_from_anyone_but_the_player_before_is_illegal():
    chow_b = seat("b", "2z", "2345679m13p246s1z", meld("chow", "123s", "c"))
    (result,) = replay([round_of("a", A, chow_b, C, D, win=win_of("a", "7p"))])
    assert ILLEGAL_ACTION in checks(result)


def test_a_win_after_the_wall_reached_huangzhuang_is_illegal():
    (result,) = replay([won_round(tiles_left=12)])
    assert ILLEGAL_ACTION in checks(result)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param(
            {"hands": [A, B, C, seat("d", "4z", "3678m6799p2578s114z7p", flowers="5z")]},
            "copies of 7p",
            id="a fifth 七筒",
        ),
        pytest.param(
            {"hands": [A, B, C, seat("d", "4z", "3678m6799p2578s114z", flowers="5z")]},
            "expected 16",
            id="a short hand",
        ),
        pytest.param(
            {"hands": [A, B, C, D | {"player": "z"}]}, "not in the session", id="a stranger"
        ),
        pytest.param(
            {"hands": [A, B, C, D | {"tiles": D["tiles"][:-1] + ["5z"], "flowers": []}]},
            "杠花",
            id="a 白板 held in hand",
        ),
        pytest.param(
            {"hands": [A, B | {"melds": [meld("chow", "135m", "a")]}, C, D]},
            "not a chow",
            id="a chow that is no chow",
        ),
        pytest.param({"banker": "b"}, "must sit 东", id="a banker who does not sit 东"),
        pytest.param({"win": win_of("a", "3s")}, "winning tile", id="a winning tile not held"),
    ],
)
def test_impossible_deals_are_deal_errors_naming_the_round(change, reason):
    with pytest.raises(DealError, match=reason) as caught:
        replay([won_round(**change)])
    assert str(caught.value).startswith("round 1")


def test_describe_takes_a_whole_round_and_itemises_every_player():
    result = GAME.describe(won_round())
    assert result["winner"] == "a"
    assert result["deltas"] == WON
    assert result["scores"]["a"]["hu"] == 58 and result["scores"]["d"]["total"] == 10


def test_describe_says_when_a_hand_is_no_win():
    result = GAME.describe(
        {
            "tiles": [
                "1m",
                "2m",
                "4m",
                "5m",
                "7m",
                "8m",
                "1p",
                "2p",
                "4p",
                "5p",
                "7p",
                "8p",
                "1s",
                "2s",
                "4s",
                "5s",
                "1z",
            ]
        }
    )
    assert result["win"] is False


def seated(banker: str) -> dict:
    """The example round with the winds turned so that `banker` sits 东."""
    turn = "abcd".index(banker)
    hands = [h | {"wind": f"{('abcd'.index(h['player']) - turn) % 4 + 1}z"} for h in (A, B, C, D)]
    return round_of(banker, *hands, win=win_of("a", "7p"))


def test_a_banker_out_of_turn_is_flagged_once_and_succession_goes_on_from_him():
    results = replay([seated("a"), seated("c"), seated("d"), seated("b")])
    banker_checks = [[i.detail for i in r.issues if i.check == WRONG_BANKER] for r in results]
    assert banker_checks == [[], ["banker c, the rules give b"], [], ["banker b, the rules give a"]]


def test_describe_takes_a_plain_list_of_tiles_won_on_the_last():
    result = GAME.describe(
        [
            "1m",
            "2m",
            "3m",
            "4m",
            "5m",
            "6m",
            "7p",
            "8p",
            "9p",
            "2s",
            "3s",
            "4s",
            "6s",
            "7s",
            "8s",
            "5p",
            "5p",
        ]
    )
    assert result["win"] is True and result["wait"] == "对子" and result["hu"] == 24


def test_describe_rejects_an_unknown_tile_as_a_decode_error():
    with pytest.raises(DecodeError, match="invalid yuhuan hand"):
        GAME.describe({"tiles": ["0m"]})


def test_a_non_winner_scores_his_concealed_sets_and_honour_pairs_without_base_or_wildcards():
    c_sets = seat("c", "3z", "46m1111s222p5p3z3z4z7z8p8p")
    rnd = round_of("a", A, B, c_sets, D, win=win_of("a", "7p"))
    scores = GAME.describe(rnd)["scores"]["c"]
    hu = {i["item"]: i["hu"] for i in scores["items"] if "hu" in i}
    assert hu == {"暗坎一条": 8, "暗坎二筒": 4, "对子西": 2}
    assert (scores["hu"], scores["tai"], scores["total"]) == (14, 0, 20)
    with_wild = GAME.describe(rnd, Variant(options={"loser_wild_tai": True}))["scores"]["c"]
    assert (with_wild["tai"], with_wild["total"]) == (1, 30)  # two 財神 held: one 台
