"""掼蛋 engine: the table's turn and 借风, play checks, deal checks and describe."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from compliance.errors import DealError, LogError
from compliance.games import get_game
from compliance.games.guandan import GAME, ROUND_TYPE, GuandanPlay
from compliance.games.guandan.play import Table, play_out
from compliance.games.guandan.simulator import simulate
from tests.builders_guandan import SEATS, checked, guandan_hand, money, session_of


def table(**hands: str) -> Table:
    return Table({p: Counter(hands.get(p, "").split()) for p in SEATS}, SEATS, "a", "2")


def test_the_engine_is_registered_under_its_game_code():
    assert get_game("guandan") is GAME and ROUND_TYPE.__name__ == "GuandanHand"


def test_a_player_going_out_unbeaten_passes_the_lead_to_his_partner():
    t = table(a="S3", b="S4 S9", c="S5 S6", d="S7 S8")
    for player, cards in (("a", ["S3"]), ("b", []), ("c", []), ("d", [])):
        assert t.apply(player, cards) is None
    assert (t.turn, t.trick, t.finished) == ("c", 2, ["a"])


def test_after_three_passes_the_last_player_leads_again():
    t = table(a="S3 S4", b="S5", c="S6", d="S7")
    for player, cards in (("a", ["S3"]), ("b", []), ("c", []), ("d", [])):
        t.apply(player, cards)
    assert t.turn == "a" and t.table is None


@pytest.mark.parametrize(
    ("plays", "problem"),
    [
        pytest.param([("b", ["S5"])], "out of turn", id="out of turn"),
        pytest.param([("a", [])], "passed on the lead", id="a pass on the lead"),
        pytest.param([("a", ["SK"])], "not held", id="a card not held"),
        pytest.param([("a", ["S3", "S4"])], "not a 掼蛋 combination", id="no combination"),
        pytest.param([("a", ["S4"]), ("b", ["S3"])], "does not beat", id="a lower single"),
        pytest.param(
            [("a", ["S4"]), ("b", ["S5", "S5"])], "does not beat", id="a pair on a single"
        ),
    ],
)
def test_illegal_plays_are_named(plays, problem):
    t = table(a="S3 S4 S6", b="S3 S5 S5 S9", c="S7", d="S8")
    found = None
    for player, cards in plays:
        found = t.apply(player, cards) or found
    assert found is not None and problem in found


def test_a_declared_reading_must_be_one_the_cards_allow():
    t = table(a="H2 S4 S5 S6 C7 S9", b="S9", c="S9", d="S9")
    assert "cannot be played as" in t.apply("a", ["H2", "S4", "S5", "S6", "C7"], "straight:9")
    assert t.apply("a", ["H2", "S4", "S5", "S6", "C7"], "straight:7") is None
    assert t.table.rank == "7"


def test_plays_that_stop_early_are_flagged_with_the_trick():
    hands = {p: Counter(["S3", "S4"]) for p in SEATS}
    plays = [GuandanPlay(player="a", cards=["S3"])]
    outcome = play_out(plays, hands, SEATS, "a", "2")
    assert outcome.order is None and "stop before" in outcome.problem


def test_an_illegal_play_in_a_log_is_an_integrity_finding_naming_hand_and_trick():
    sim = simulate(random.Random(3), SEATS, 1, 1, 0.0)
    record = sim.rounds[0]
    record["plays"][0]["player"] = "b" if record["plays"][0]["player"] != "b" else "c"
    (result,) = GAME.replay(session_of("guandan", [record]))
    (issue,) = result.issues
    assert issue.check == "illegal_action" and issue.detail.startswith("hand 1: trick 1:")


def test_a_finishing_order_the_plays_contradict_is_flagged_and_the_plays_win():
    sim = simulate(random.Random(4), SEATS, 1, 1, 0.0)
    record = sim.rounds[0]
    true_order = list(record["finish"])
    record["finish"] = true_order[1:] + true_order[:1]
    (result,) = GAME.replay(session_of("guandan", [record]))
    assert any("finishing order logged" in i.detail for i in result.issues)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param(lambda r: r["deal"]["a"].pop(), "holds 26 cards", id="a short hand"),
        pytest.param(lambda r: r["deal"].pop("d"), "3 players dealt", id="three players"),
        pytest.param(
            lambda r: r["deal"].__setitem__("z", r["deal"].pop("d")),
            "not in the session",
            id="a stranger",
        ),
        pytest.param(
            lambda r: r["finish"].__setitem__(3, "a"), "each of the four", id="a bad order"
        ),
    ],
)
def test_impossible_deals_are_rejected_naming_the_round(change, reason):
    record = guandan_hand(1, "acbd", money(("a", "c"), 3))
    change(record)
    with pytest.raises(DealError, match=f"round 1: .*{reason}"):
        list(GAME.replay(session_of("guandan", [record])))


def test_a_third_copy_of_a_card_is_a_duplicate():
    record = guandan_hand(1, "acbd", money(("a", "c"), 3))
    card = record["deal"]["b"][0]
    record["deal"]["a"][0] = card
    record["deal"]["c"][0] = card
    with pytest.raises(DealError, match="duplicate card"):
        list(GAME.replay(session_of("guandan", [record])))


def test_an_unknown_preset_is_a_log_error():
    with pytest.raises(LogError, match="unknown preset"):
        list(GAME.replay(session_of("guandan", [], preset="nowhere")))


def test_describe_rejects_a_bad_level_and_bad_cards():
    with pytest.raises(DealError):
        GAME.describe({"cards": ["S3"], "level": "1"})
    with pytest.raises(DealError):
        GAME.describe(["X9"])


def test_describe_is_json_ready():
    described = GAME.describe(
        {"cards": ["H5", "S5", "C5", "D5", "S5"], "level": "5", "over": ["SA"]}
    )
    assert json.loads(json.dumps(described))["beats"] is True
    assert described["wildcard"] == "H5" and described["combination"] == "bomb"


def test_a_hand_may_carry_its_own_stake_per_level():
    record = guandan_hand(1, "abcd", money(("a", "c"), 40), stake=20)
    (result,) = GAME.replay(session_of("guandan", [record], stake_per_level=5))
    assert checked(result.issues) == [] and result.stakes == {p: 20 for p in SEATS}


def test_a_long_simulated_match_passes_a_and_starts_a_new_game_cleanly():
    sim = simulate(random.Random(0), SEATS, 30, 1, 0.0)
    levels = [r["level"] for r in sim.rounds]
    passes = {i for i in range(1, 30) if levels[i - 1] == "A" and levels[i] == "2"}
    assert passes and all(r.issues == [] for r in GAME.replay(session_of("guandan", sim.rounds)))
    with_game_stake = GAME.replay(session_of("guandan", sim.rounds, stake_per_game=50))
    last = len(sim.rounds)  # no next hand shows whether the last one passed A
    assert {r.index for r in with_game_stake if r.issues and r.index < last} == passes


def test_a_hand_logged_without_its_plays_is_settled_from_its_finish_and_found_unverifiable():
    record = guandan_hand(1, "acbd", money(("a", "c"), 30))
    (result,) = GAME.replay(session_of("guandan", [record], stake_per_level=10))
    assert result.deltas == money(("a", "c"), 30)
    (issue,) = result.issues
    assert (issue.check, issue.round) == ("unverifiable", 1)
    assert issue.detail == (
        "hand 1: logged without its plays; settled from the logged finishing order "
        "a, c, b, d, which the cards cannot confirm"
    )
