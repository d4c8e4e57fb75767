"""现场赌资 (issue #18, part 3): the cash found at the scene, where a band measures the scene."""

from __future__ import annotations

from decimal import Decimal

import pytest

from compliance.errors import DecodeError
from compliance.logs.reader import decode_session
from compliance.service_layer import audit as services
from tests.fakes import FakeUnitOfWork
from tests.integration.test_windows import room, write


def _judged(rule_book, tmp_path, where="370000", session_cash=None, player_cash=None):
    s = room(1, "boss", "2026-03-10", base=1, where=where)
    if session_cash is not None:
        s["scene_cash"] = session_cash
    if player_cash is not None:
        s["players"][0]["scene_cash"] = player_cash
    seen = []
    services.audit(
        FakeUnitOfWork(rule_book),
        [write(tmp_path / "s.jsonl", [s])],
        services.AuditOptions(),
        seen.append,
    )
    return [f for f in seen if f.subject.startswith("player:")]


def test_shandongs_scene_line_is_judged_on_the_cash_found_when_the_log_gives_it(
    rule_book, tmp_path
):
    players = _judged(rule_book, tmp_path, session_cash="500", player_cash=150)
    assert {f.tier for f in players} == {"administrative"}
    for f in players:
        assert (f.rule, f.metric, f.value) == ("sd-later-large", "scene_capital", Decimal(650))
        assert f.scene_figure == "scene_cash"


def test_without_the_cash_found_the_same_session_is_judged_on_the_players_capital(
    rule_book, tmp_path
):
    players = _judged(rule_book, tmp_path)
    assert {f.tier for f in players} == {"below_threshold"}
    assert {f.scene_figure for f in players} == {None}


def test_a_band_that_does_not_measure_the_scene_ignores_the_cash_found(rule_book, tmp_path):
    players = _judged(rule_book, tmp_path, where="430000", session_cash="100000")
    assert "scene_capital" not in {f.metric for f in players}
    assert {f.scene_figure for f in players} == {None}


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        pytest.param("session", "-1", "scene_cash must be a number of yuan", id="negative"),
        pytest.param("session", "1e15", "scene_cash must be a number of yuan", id="too much"),
        pytest.param("session", "NaN", "scene_cash must be a number of yuan", id="not a number"),
        pytest.param("player", "1.001", "players[0].scene_cash has more than 2", id="past a fen"),
    ],
)
def test_cash_found_that_is_no_sum_of_money_is_a_reject(field, value, reason):
    s = room(1, "boss", "2026-03-10")
    if field == "session":
        s["scene_cash"] = value
    else:
        s["players"][0]["scene_cash"] = value
    import json

    with pytest.raises(DecodeError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        decode_session(json.dumps(s).encode())


@pytest.mark.parametrize(
    ("band_id", "measures"),
    [
        pytest.param("sd-later-large", True, id="山东 当场赌资 in the article"),
        pytest.param("sn-serious", True, id="陕西 当场赌资 in the note"),
        pytest.param("jl-2014-large", True, id="吉林 现场收缴赌资"),
        pytest.param("dg-2019-minor", True, id="东莞 赌资总共"),
        pytest.param("hn-2015-general-stake", False, id="湖南 reads no scene total"),
    ],
)
def test_the_bands_that_measure_the_scene_are_those_whose_text_names_it(
    rule_book, band_id, measures
):
    from compliance.domain.scene import measures_scene

    bands = {b.id: b for b in rule_book.bands}
    assert measures_scene(bands[band_id]) is measures
