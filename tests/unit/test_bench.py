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
    games.print_rates([rate])
    assert "douniu" in capsys.readouterr().out


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
