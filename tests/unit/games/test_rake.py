"""抽水 / 台费: every game's round may log the room's rake, its simulator makes some, and the
rake reaches the session's figures that the owners' window sums (issue #18, part 3)."""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest

from compliance.games import game_codes, get_game
from compliance.games.rake import rake_percent
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, simulator_for, write_log
from tests.builders import session_of
from tests.fakes import FakeUnitOfWork

PLAYERS = [f"u{i}" for i in range(4)]
RAKED_ELSEWHERE = {"douniu"}  # 斗牛 logs its rake per seat, after the seat's winnings


def _raked(code: str):
    """The first seed whose room takes rake, and the session it simulates."""
    for seed in range(50):
        sim = simulator_for(code)(random.Random(seed), PLAYERS, 12, 10, 0.0)
        if any(r.get("rake") for r in sim.rounds):
            return sim
    raise AssertionError(f"{code}: no simulated room took rake in 50 seeds")


@pytest.mark.parametrize("code", sorted(set(game_codes()) - RAKED_ELSEWHERE))
def test_each_games_simulator_logs_rake_and_the_replay_takes_it(code):
    sim = _raked(code)
    results = list(get_game(code).replay(session_of(code, sim.rounds, PLAYERS, sim.variant)))
    assert all(r.issues == [] for r in results)
    for result, record in zip(results, sim.rounds, strict=True):
        logged = record.get("rake", 0)
        assert result.rake == logged or (code == "chexuan" and result.rake > logged)


def test_drawing_a_rooms_rake_leaves_the_sessions_generator_where_it_was():
    rng = random.Random(5)
    before = rng.getstate()
    assert rake_percent(rng) in (0, 3, 5)
    assert rng.getstate() == before
    assert rake_percent(random.Random(5)) == rake_percent(random.Random(5))


def test_the_same_seed_simulates_the_same_rake(tmp_path):
    spec = SimulationSpec(games=tuple(sorted(game_codes())), sessions=16, seed=3)
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_log(spec, str(one))
    write_log(spec, str(two))
    assert one.read_bytes() == two.read_bytes()
    rounds = [r for line in one.read_text().splitlines() for r in json.loads(line)["rounds"]]
    assert any(r.get("rake") for r in rounds)


def test_a_rounds_rake_reaches_the_session_figures_the_owners_window_sums(rule_book, tmp_path):
    sim = _raked("paigow")
    session = {
        "format": "stakelog/1",
        "session_id": "pg-raked",
        "platform": "p",
        "game": "paigow",
        "started_at": "2026-03-01T20:00:00+08:00",
        "players": [{"id": p} for p in PLAYERS],
        "rounds": sim.rounds,
        "variant": sim.variant,
        "point_value": "0.5",
        "jurisdiction": "430000",
        "owner": {"id": "boss"},
    }
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(session) + "\n")
    uow = FakeUnitOfWork(rule_book)
    services.audit(uow, [str(path)], services.AuditOptions())
    judged = uow.runs.sessions[("p", "pg-raked")]
    logged = sum(r.get("rake", 0) for r in sim.rounds)
    assert logged > 0
    assert judged.metrics.rake == (Decimal(logged) * Decimal("0.5")).quantize(Decimal("0.01"))


def test_chexuans_cap_is_a_stake_metric_in_yuan_and_no_other_game_has_one():
    from compliance.domain.metrics import player_metrics, tally

    players = ["x", "y", "z"]
    sim = simulator_for("chexuan")(random.Random(4), players, 6, 10, 0.0)
    session = session_of("chexuan", sim.rounds, players, sim.variant)
    summary = tally(get_game("chexuan").replay(session), players)
    for p in players:
        most = max(s["cap"] for r in sim.rounds for s in r["seats"] if s["player"] == p)
        assert player_metrics(p, summary.players[p], Decimal("0.5")).table_cap == most * Decimal(
            "0.5"
        )
    other = simulator_for("paigow")(random.Random(4), players, 6, 10, 0.0)
    summary = tally(get_game("paigow").replay(session_of("paigow", other.rounds, players)), players)
    assert {player_metrics(p, summary.players[p], Decimal(1)).table_cap for p in players} == {None}
