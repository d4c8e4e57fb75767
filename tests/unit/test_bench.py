"""The benchmark's pieces run on tiny inputs (what they measure is not asserted: no timings)."""

from __future__ import annotations

from bench import daily, games
from bench.timing import Timing, median_timing, timed


def test_timed_counts_this_process_and_finished_children():
    timing, result = timed(lambda: sum(range(1000)))
    assert result == 499500
    assert timing.wall >= 0 and timing.cpu >= 0 and timing.children >= 0
    assert median_timing([Timing(1, 2, 3), Timing(3, 1, 0), Timing(2, 3, 1)]) == Timing(2, 2, 1)


def test_engine_rate_times_games_settle_on_a_log_and_on_one_session(tmp_path, capsys):
    rate = games.engine_rate("douniu", 3, 1, str(tmp_path))
    assert rate.code == "douniu" and rate.rounds > 0 and rate.replay > 0
    games.print_rates([rate], calibrated=0.5)
    out = capsys.readouterr().out
    assert "douniu" in out and "host calibration: 0.500 s CPU" in out
    assert rate.sessions == 3 and rate.startup[1] <= rate.startup[0] <= rate.startup[2]


def test_a_games_log_is_sized_from_its_pilot_replay(tmp_path):
    short, longer = (games.sessions_for("paigow", s, str(tmp_path)) for s in (0.01, 0.1))
    assert games.PILOT_SESSIONS <= short < longer <= games.MAX_SESSIONS


def test_daily_audits_build_stores_once_and_time_each(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(daily, "cache_dir", lambda: tmp_path)
    runs = daily.daily_audits([0, 4], 2, 1)
    assert [r.stored for r in runs] == [0, 4]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["douniu-0.db", "douniu-4.db"]
    built = (tmp_path / "douniu-4.db").stat().st_mtime_ns
    daily.daily_audits([4], 2, 1)
    assert (tmp_path / "douniu-4.db").stat().st_mtime_ns == built
    daily.print_daily(runs, 2)
    assert "× the empty store" in capsys.readouterr().out


def test_duckdb_floor_runs_on_one_thread(tmp_path):
    from bench.bench import make_log
    from bench.floors import duckdb_floor

    path = str(tmp_path / "log.jsonl")
    make_log(path, 3)
    assert duckdb_floor(path, 1).cpu > 0


def test_duty_rate_reads_and_checks_a_small_generated_ledger():
    from bench.duties import duty_rate

    rate = duty_rate(30, 5)
    assert (rate.events, rate.accounts) == (30, 5) and rate.findings > 0


def test_simulated_platform_is_made_once_and_audited_alike_by_one_and_two_workers(tmp_path, capsys):
    import re

    from bench.duties import simulated

    simulated(tmp_path / "p", 12, 1)
    made = (tmp_path / "p" / "ledger.jsonl").stat().st_mtime_ns
    simulated(tmp_path / "p", 12, 1)
    assert (tmp_path / "p" / "ledger.jsonl").stat().st_mtime_ns == made
    lines = capsys.readouterr().out.splitlines()
    stored = {int(re.search(r"([\d,]+) duty findings", line)[1].replace(",", "")) for line in lines}
    assert len(lines) == 4 and len(stored) == 1 and stored.pop() > 0


def _tampered_log(path, preset: str = "classic") -> str:
    """A small simulated 斗牛 log with tampered payouts and bankers, under `preset`."""
    import json

    from compliance.service_layer.simulate import SimulationSpec, write_log

    spec = SimulationSpec(sessions=40, seed=5, anomalies=0.08, players=(4, 8))
    write_log(spec, str(path))
    if preset != "classic":
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        for line in lines:
            line["variant"] = {"preset": preset}
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def _python_tallies(path: str):
    """The audit's own replay of every session: per-player tallies and issue counts."""
    from collections import Counter

    from compliance.games import get_game
    from compliance.logs.reader import read_sessions

    game, tallies, issues = get_game("douniu"), {}, Counter()
    for sid, item in enumerate(read_sessions(path), 1):
        summary = game.tally_session(item.session, [p.id for p in item.session.players])
        issues.update(issue.check for issue in summary.issues)
        for player, t in summary.players.items():
            if t.rounds:
                tallies[(sid, player)] = (
                    t.rounds, t.banker_rounds, t.staked, t.max_stake, t.net, t.won,
                    t.max_round_swing,
                )  # fmt: skip
    return tallies, issues


def test_duckdb_resettles_every_round_as_the_audit_does(tmp_path):
    from bench.resettle import connect, resettle

    path = _tampered_log(tmp_path / "log.jsonl")
    tallies, issues = _python_tallies(path)
    con = connect()
    found = resettle(con, path)
    rows = con.execute("SELECT sid, player, rounds, banker_rounds, staked, max_stake, net, won, "
                       "max_round_swing FROM player_tallies").fetchall()  # fmt: skip
    assert {(r[0], r[1]): tuple(r[2:]) for r in rows} == tallies
    assert found.settlement_mismatch == issues["settlement_mismatch"] > 0
    assert found.wrong_banker == issues["wrong_banker"] > 0
    assert found.illegal_action == issues["illegal_action"]


def test_duckdb_resettlement_agrees_with_the_stored_audits_tallies(tmp_path):
    from bench.bench import stage_store
    from bench.resettle import connect, resettle
    from compliance.db.engine import make_engine
    from compliance.service_layer.simulate import SimulationSpec, write_log

    path = str(tmp_path / "log.jsonl")
    injected = write_log(SimulationSpec(sessions=40, seed=7, anomalies=0.05), path).anomalies
    db = str(tmp_path / "audit.db")
    stage_store(path, 1, keep=db)
    with make_engine(f"sqlite:///{db}").connect() as conn:
        summary = conn.exec_driver_sql("SELECT summary FROM audit_runs").scalar_one()
    integrity = __import__("json").loads(summary)["integrity"]
    found = resettle(connect(), path)
    assert found.settlement_mismatch == integrity["settlement_mismatch"]
    assert found.wrong_banker == integrity["wrong_banker"]
    assert found.illegal_action == integrity.get("illegal_action", 0)
    assert found.settlement_mismatch + found.wrong_banker == len(injected)


def test_duckdb_resettlement_pays_each_presets_multipliers(tmp_path):
    from bench.resettle import connect, resettle

    for preset in ("steep", "linear"):
        path = _tampered_log(tmp_path / f"{preset}.jsonl", preset)
        tallies, issues = _python_tallies(path)
        con = connect()
        found = resettle(con, path)
        rows = con.execute("SELECT sid, player, rounds, banker_rounds, staked, max_stake, net, "
                           "won, max_round_swing FROM player_tallies").fetchall()  # fmt: skip
        assert {(r[0], r[1]): tuple(r[2:]) for r in rows} == tallies
        assert found.settlement_mismatch == issues["settlement_mismatch"]
        assert found.illegal_action == issues["illegal_action"] > 0  # rake now beyond winnings
        assert found.wrong_banker == issues["wrong_banker"]


def test_scale_pairs_the_audit_with_the_sql_and_dask_with_the_pool(tmp_path, capsys):
    from bench import scale
    from bench.bench import make_log

    path = str(tmp_path / "log.jsonl")
    rounds = make_log(path, 6)
    paired = scale.against_sql(path, rounds, 1, "6:")
    assert paired["audit_cpu"] > 0 and paired["sql_cpu"] > 0 and paired["ratio"] > 0
    dask = scale.dask_against_pool(path, rounds, 2, 1)
    assert dask["dask_cpu_ratio"] > 0 and dask["dask_start_wall"] > 0
    out = capsys.readouterr().out
    assert "DuckDB re-settling" in out and "Dask, 2 workers" in out and "start-up" in out


def test_the_mirrored_bench_finds_its_dumping_pairs_and_prints(capsys):
    from bench import mirrored

    mirrored.main(["3000", "20000"])
    out = capsys.readouterr().out
    assert "3,000 accounts, 20,000 sessions" in out and "3 pairs found" in out


def test_the_signal_rates_count_fair_pools():
    from bench import draw_mirror_rates as signal_rates

    tested, rejected = signal_rates.draw_rate(20, 1)
    assert tested == 20 and 0 <= rejected <= 1


def test_new_processes_time_the_serial_and_the_pooled_audit_in_turn(tmp_path, capsys):
    from bench.fresh import fresh_speedup
    from bench.targets import print_stage_targets
    from compliance.service_layer.simulate import SimulationSpec, write_log

    log = str(tmp_path / "log.jsonl")
    write_log(SimulationSpec(sessions=30, seed=5, players=(6, 6)), log)
    ratio, one, many = fresh_speedup(log, 2, 1)
    assert ratio == one.wall / many.wall > 0
    assert one.cpu > 0 and one.children == 0 and many.children > 0  # the workers are children
    results = {"end_to_end": 1.0, "classify": 1.0, "speedup": 1.5, "ceiling": 1.9}
    print_stage_targets(results | {"speedup_fresh": 1.8}, 2)
    assert (
        "≥ 1.7× on 2 workers: NOT met (1.50× in this process, 1.80× in new processes; "
        "the machine allowed 1.90×)" in capsys.readouterr().out
    )
