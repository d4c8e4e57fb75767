"""Settling logs and round records, and describing hands, return data."""

from __future__ import annotations

import json

import pytest

from compliance.games import game_codes
from compliance.service_layer import settle
from tests.conftest import SAMPLES

DOUNIU = SAMPLES / "douniu.jsonl"


def test_every_session_of_a_log_is_settled_round_by_round():
    sessions = settle.settle_file(DOUNIU)
    first = sessions[0]
    assert (first.session_id, first.game, len(first.rounds)) == ("hn-2026-03-01", "douniu", 6)
    assert first.rounds[0].banker == "hn1"
    assert first.rounds[0].deltas == {"hn2": 60, "hn3": -40, "hn4": 40, "hn1": -60}


def test_a_round_record_is_settled_among_the_players_it_names(tmp_path):
    record = json.loads(DOUNIU.read_text(encoding="utf-8").splitlines()[0])["rounds"][0]
    record["seats"][1]["claimed"] += 5
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record))
    (session,) = settle.settle_file(path, "douniu")
    assert session.session_id == settle.RECORDS_SESSION_ID
    ((issue,),) = [r.issues for r in session.rounds]
    assert (issue.check, issue.claimed, issue.expected) == (
        "settlement_mismatch",
        {"hn2": 65},
        {"hn2": 60},
    )


def test_a_round_record_without_a_game_is_refused(tmp_path):
    path = tmp_path / "round.json"
    path.write_text("{}")
    with pytest.raises(settle.GameNeededError, match="needs --game"):
        settle.settle_file(path)


def test_the_games_listed_are_the_games_replayed():
    assert [g.code for g in settle.list_games()] == game_codes()
    assert all(g.name_en for g in settle.list_games())


def test_a_hand_is_described_by_its_rank():
    assert "rank" in settle.describe_hand("douniu", ["SA", "H2", "C3", "D4", "S5"])
