"""Claims a log makes of itself are checked, stored and counted (issue #18, part 2),
and the cash found at the scene (part 3), on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import FindingRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.reporting.model import ReportQuery
from compliance.service_layer import audit as services
from compliance.service_layer import reports as report_service
from tests.builders_guandan import SEATS, guandan_hand, money
from tests.integration.test_windows import room, write
from tests.sample_logs import session_dict


def _stored(url, path):
    engine = make_engine(url)
    ensure_schema(engine)
    summary = services.audit(SqlUnitOfWork(engine), [path], services.AuditOptions())
    with engine.connect() as conn:
        rows = conn.execute(select(FindingRow.kind, FindingRow.tier, FindingRow.payload)).all()
    report = report_service.make_report(SqlUnitOfWork(engine), ReportQuery())
    engine.dispose()
    return summary, [(k, t, json.loads(p) if isinstance(p, str) else p) for k, t, p in rows], report


def _tournament(n, valued):
    s = room(n, "club", "2026-03-10")
    s.update(tournament=True, prize={"amount": 5000, "funded_by": "organiser"})
    if not valued:
        del s["point_value"]
    return s


def test_an_organiser_prize_exempts_a_tournament_of_scores_but_not_one_settled_in_yuan(
    any_db_url, tmp_path
):
    summary, rows, report = _stored(
        any_db_url, write(tmp_path / "t.jsonl", [_tournament(1, False), _tournament(2, True)])
    )
    players = {p["session_id"]: set() for _, _, p in rows}
    for kind, tier, payload in rows:
        if kind == "threshold" and payload["subject"].startswith("player:"):
            players[payload["session_id"]].add(tier)
    assert players["club-001"] == {"exempt"}
    assert "exempt" not in players["club-002"] and players["club-002"]
    claims = [p for k, _, p in rows if k == "integrity"]
    assert [(p["session_id"], p["check"], p["round"]) for p in claims] == [
        ("club-002", "tournament_in_yuan", 0)
    ]
    assert summary.as_dict()["integrity"] == {"tournament_in_yuan": 1}
    assert report.mismatches == {"douniu": {"tournament_in_yuan": 1}}


def test_a_hand_without_its_plays_is_stored_and_counted_as_unverifiable(any_db_url, tmp_path):
    hands = [guandan_hand(1, "acbd", money(("a", "c"), 30))]
    session = session_dict(
        "gd-1",
        "guandan",
        SEATS,
        hands,
        jurisdiction="430000",
        point_value=1,
        variant={"options": {"stake_per_level": 10}},
    )
    summary, rows, report = _stored(any_db_url, write(tmp_path / "g.jsonl", [session]))
    (claim,) = [p for k, _, p in rows if k == "integrity"]
    assert (claim["check"], claim["round"], claim["game"]) == ("unverifiable", 1, "guandan")
    assert summary.as_dict()["integrity"] == {"unverifiable": 1}
    assert report.mismatches == {"guandan": {"unverifiable": 1}}


def test_the_cash_found_at_the_scene_and_the_figure_used_are_stored(any_db_url, tmp_path):
    s = room(1, "boss", "2026-03-10", base=1, where="370000")
    s["scene_cash"] = "500.50"
    s["players"][0]["scene_cash"] = 150
    _, rows, _ = _stored(any_db_url, write(tmp_path / "c.jsonl", [s]))
    players = [p for k, _, p in rows if k == "threshold" and p["subject"].startswith("player:")]
    assert {(p["tier"], p["metric"], p["value"], p["scene_figure"]) for p in players} == {
        ("administrative", "scene_capital", 650.5, "scene_cash")
    }


def test_chexuans_cap_is_stored_with_the_stake_metrics(any_db_url, tmp_path):
    import random

    from compliance.db.models import PlayerMetricsRow
    from compliance.games.chexuan.simulator import simulate

    players = ["x", "y", "z"]
    sim = simulate(random.Random(4), players, 6, 10, 0.0)
    session = session_dict(
        "cx-1", "chexuan", players, sim.rounds, variant=sim.variant, point_value="0.5"
    )
    session["jurisdiction"] = "430000"
    _stored(any_db_url, write(tmp_path / "x.jsonl", [session]))
    most = {
        p: max(s["cap"] for r in sim.rounds for s in r["seats"] if s["player"] == p)
        for p in players
    }
    engine = make_engine(any_db_url)
    with engine.connect() as conn:
        query = select(PlayerMetricsRow.player_id, PlayerMetricsRow.table_cap)
        stored = {p: c for p, c in conn.execute(query)}
    engine.dispose()
    assert {p: float(c) for p, c in stored.items()} == {p: most[p] * 0.5 for p in players}
