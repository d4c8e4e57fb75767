"""变色龙: the rules of seed 003 and the penalty example of docs/games/bianselong.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compliance.domain.rounds import ILLEGAL_ACTION
from compliance.errors import LogError
from compliance.games.bianselong import GAME, BianselongOptions, card_points
from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of

COURT10 = BianselongOptions(ace_points=1, king_points=10)


def session_of(deals: list[dict], players="abc", preset="court10", **options) -> Session:
    return shared_session_of(
        "bianselong", deals, players, Variant(preset=preset, options=options), session_id="golden"
    )


# "2--10.........2--10分  J.............20分  Q............. 3分  K.."
POINTS = [
    ("2 scores 2", "S2", 2),
    ("9 scores 9", "H9", 9),
    ("10 scores 10", "C10", 10),
    ("J scores 20", "DJ", 20),
    ("Q scores 3", "SQ", 3),
    ("K scores as the variant says", "HK", 10),
    ("A scores as the variant says", "CA", 1),
]


@pytest.mark.parametrize("card, points", [p[1:] for p in POINTS], ids=[p[0] for p in POINTS])
def test_cards_left_score_their_penalty_points(card, points):
    assert card_points(card, COURT10) == points


def test_a_log_whose_variant_gives_no_value_for_a_and_k_is_rejected_with_the_reason():
    with pytest.raises(LogError, match="the seed lists no value for A and breaks off at K"):
        list(GAME.replay(session_of([], preset=None)))


def test_options_may_give_the_missing_values_on_the_seed_preset():
    assert list(GAME.replay(session_of([], preset="seed", ace_points=11, king_points=13))) == []


# The worked example of docs/games/bianselong.md: a goes out on HJ, so b and c pay double.
DOC_EXAMPLE = {
    "hands": {
        "a": ["S3", "S4", "S5", "S6", "HJ"],
        "b": ["H10", "HQ", "DK", "CA", "D9"],
        "c": ["C10", "CQ", "HK", "DA", "C9"],
    },
    "starter": "S2",
    "plays": [
        {"player": "a", "card": "S3"},
        {"player": "b", "draw": ["H7"]},
        {"player": "c", "draw": ["D7"]},
        {"player": "a", "card": "S4"},
        {"player": "b", "draw": ["D8"]},
        {"player": "c", "draw": ["C8"]},
        {"player": "a", "card": "S5"},
        {"player": "b", "draw": ["C7"]},
        {"player": "c", "draw": ["H8"]},
        {"player": "a", "card": "S6"},
        {"player": "b", "draw": ["H9"]},
        {"player": "c", "draw": ["D10"]},
        {"player": "a", "card": "HJ"},
    ],
    "claimed": {"a": 1300, "b": -640, "c": -660},
    "penalties": {"a": 0, "b": 128, "c": 132},
}


def test_the_penalty_arithmetic_matches_the_hand_computed_example_in_the_docs():
    result = next(GAME.replay(session_of([DOC_EXAMPLE], stake_per_point=5)))
    assert result.issues == []
    assert result.deltas == {"a": 1300, "b": -640, "c": -660}
    assert result.stakes == {"a": 5, "b": 5, "c": 5}


def stacked_sevens(third_draw: list[str]) -> dict:
    return {
        "hands": {
            "a": ["H7", "C2", "C3", "C4", "C5"],
            "b": ["S7", "D2", "D3", "D4", "D5"],
            "c": ["H2", "H3", "H4", "H5", "H6"],
        },
        "starter": "H9",
        "plays": [
            {"player": "a", "card": "H7"},
            {"player": "b", "card": "S7"},
            {"player": "c", "draw": third_draw},
        ],
    }


# "出现7后可以用手中的7顶牌将风险转移到下家.罚牌数目就得累加"
def test_a_seven_stacked_on_a_seven_makes_the_next_player_draw_four():
    result = next(GAME.replay(session_of([stacked_sevens(["SA", "SK", "SQ", "SJ"])])))
    assert [i.detail for i in result.issues] == ["round 1: no player went out"]


def test_drawing_two_after_stacked_sevens_is_an_illegal_play():
    result = next(GAME.replay(session_of([stacked_sevens(["SA", "SK"])])))
    details = [i.detail for i in result.issues if i.check == ILLEGAL_ACTION]
    assert "round 1 play 3: c owes a draw of 4 and logs a draw of 2" in details


def test_the_round_record_example_in_the_docs_is_the_hand_computed_deal():
    text = (Path(__file__).parents[2] / "docs/games/bianselong.md").read_text(encoding="utf-8")
    example = json.loads(
        text.split("## Round record", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    )
    assert example == DOC_EXAMPLE
