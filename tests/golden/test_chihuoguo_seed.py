"""吃火锅: the worked examples and rules of seed 004 as golden tables."""

from __future__ import annotations

import pytest

from compliance.domain.rounds import ILLEGAL_ACTION
from compliance.games.chihuoguo import GAME, ChihuoguoOptions, settle_bet
from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of

SEED = ChihuoguoOptions()
SEATS = ["a", "b", "c", "d"]


def session_of(turns: list[dict], chips: int = 100_000, **options) -> Session:
    return shared_session_of(
        "chihuoguo", turns, SEATS, Variant(options=options), buy_in=chips, session_id="golden"
    )


def bet_turn(ends, third, bet, pot_ante=500, player="a") -> dict:
    return {
        "player": player,
        "ends": ends,
        "action": "bet",
        "bet": bet,
        "third": third,
        "antes": dict.fromkeys(SEATS, pot_ante),
    }


# rule 10: "玩家手上牌为4、j,此时若发到的牌为5、6、7、8、9、10,都算赢,发到其他牌则为输"
# rule 13: "玩家手上牌为a、9,玩家添菜100游戏币,此时若发到的牌为a或者9,则该玩家需扣除200游戏币"
SETTLEMENTS = [
    ("4-J third 5 wins", ["S4", "HJ"], "D5", 100, 2000, "between", 100),
    ("4-J third 10 wins", ["S4", "HJ"], "C10", 100, 2000, "between", 100),
    ("4-J third 3 loses", ["S4", "HJ"], "D3", 100, 2000, "outside", -100),
    ("4-J third K loses", ["S4", "HJ"], "DK", 100, 2000, "outside", -100),
    ("4-J third 4 is a post", ["S4", "HJ"], "D4", 100, 2000, "post", -200),
    ("A-K third 2 wins", ["SA", "HK"], "D2", 100, 2000, "between", 100),
    ("A-K third Q wins", ["SA", "HK"], "DQ", 100, 2000, "between", 100),
    ("A-9 third A costs twice", ["SA", "H9"], "DA", 100, 2000, "post", -200),
    ("A-9 third 9 costs twice", ["SA", "H9"], "D9", 100, 2000, "post", -200),
    ("A-K third A costs four times", ["SA", "HK"], "DA", 100, 2000, "post", -400),
    ("A-K third K costs four times", ["SA", "HK"], "CK", 100, 2000, "post", -400),
    ("pair of 7 third 7 takes the whole pot", ["S7", "H7"], "D7", 5, 2000, "triple", 2000),
    ("pair of 7 third 8 loses the bet", ["S7", "H7"], "D8", 5, 2000, "outside", -5),
    ("adjacent 5-6 third 9 loses", ["S5", "H6"], "D9", 100, 2000, "outside", -100),
    ("one loss is capped at 200000", ["SA", "HK"], "DA", 100_000, 500_000, "post", -200_000),
]


@pytest.mark.parametrize(
    "ends, third, bet, pot, kind, delta",
    [s[1:] for s in SETTLEMENTS],
    ids=[s[0] for s in SETTLEMENTS],
)
def test_the_third_card_settles_the_bet_as_the_seed_says(ends, third, bet, pot, kind, delta):
    outcome = settle_bet(ends, third, bet, pot, SEED)
    assert (outcome.kind, outcome.delta) == (kind, delta)


def test_an_ace_king_post_costs_four_times_the_bet_in_a_replay():
    result = next(GAME.replay(session_of([bet_turn(["SA", "HK"], "DK", 300)])))
    assert result.deltas == {"a": -500 - 1200, "b": -500, "c": -500, "d": -500}
    assert result.carried == 3200
    assert result.stakes["a"] == 300


def test_a_pair_end_third_card_takes_the_whole_pot_in_a_replay():
    turns = [bet_turn(["S7", "H7"], "D7", 5)]
    result = next(GAME.replay(session_of(turns)))
    assert result.deltas["a"] == -500 + 2000
    assert result.carried == 0


# rule 7: "房间的最小添菜数为5,当前底料总数为2000,那么添菜数范围必须为5-2000"
BET_LIMITS = [
    ("the minimum 5 is legal", 5, 100_000, False),
    ("the whole pot 2000 is legal", 2000, 100_000, False),
    ("4 is below the minimum", 4, 100_000, True),
    ("2001 is over the pot", 2001, 100_000, True),
    ("half of the chips is legal", 1000, 2000, False),
    ("over half of the chips is flagged", 1001, 2000, True),
]


@pytest.mark.parametrize(
    "bet, chips, flagged", [b[1:] for b in BET_LIMITS], ids=[b[0] for b in BET_LIMITS]
)
def test_bets_run_from_the_room_minimum_to_the_pot_and_half_the_chips(bet, chips, flagged):
    turn = bet_turn(["S3", "HQ"], "D2", bet, pot_ante=500)
    turn["antes"] = dict.fromkeys(SEATS, 500)
    result = next(GAME.replay(session_of([turn], chips=chips + 500)))
    assert any(i.check == ILLEGAL_ACTION for i in result.issues) == flagged


def test_a_bet_over_one_hundred_thousand_is_flagged():
    turn = bet_turn(["S3", "HQ"], "D2", 100_001, pot_ante=100_000)
    result = next(GAME.replay(session_of([turn], chips=1_000_000)))
    illegal = [i for i in result.issues if i.check == ILLEGAL_ACTION]
    assert "cap of 100000" in illegal[0].detail


def test_on_a_pair_only_the_minimum_may_be_bet():
    turn = bet_turn(["S9", "H9"], "D2", 50)
    result = next(GAME.replay(session_of([turn])))
    assert "only the minimum 5" in result.issues[0].detail
