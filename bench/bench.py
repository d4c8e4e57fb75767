"""Benchmark: rounds per second for each stage of an audit, and the DuckDB floor.

Simulates N six-player 斗牛 sessions with `compliance simulate`'s generator,
then times, on one core: decode, settle, metrics, classification and
storage (the whole `audit` into a fresh SQLite file), each stage including
the ones before it. DuckDB computes the per-player aggregates over the same
file (the floor a pure aggregation engine sets) and, interleaved with the
stored audit at every size, re-settles every round in SQL (bench/resettle.py);
at the largest size `--workers` runs beside the same audit on a local Dask
cluster started beforehand (bench/scale.py), and the stored audit is timed again in new
processes, serial against `--workers` (bench/fresh.py). Peak memory of the end to end
audit is measured in a child process at each size. Every stage is
timed in CPU (this process's, and its workers' as children's) beside wall time.
The share of the demo log's player-sessions that the per-rule-set judge left
to the per-player reference is printed beside the stages (target < 1 %).
Then each engine's rounds/s of `compliance games settle` (bench/games.py) and a
daily audit of 1,000 sessions on stores of 0 / 16,000 / 64,000 (bench/daily.py).

    python bench/bench.py                 # N = 4000 and 16000 sessions
    python bench/bench.py --sessions 2000 --workers 2
    python bench/bench.py --sessions 200 --runs 1 --engine-sessions 20 \
        --store-sizes 0 300 --daily-sessions 50                    # a quick check

Needs the bench extra for the floor: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, run as a script

from bench.daily import daily_audits, print_daily
from bench.floors import duckdb_floor, sqlite_alone
from bench.fresh import fresh_speedup
from bench.games import engine_rates, print_rates
from bench.resettle import duckdb_resettle
from bench.scale import dask_against_pool, scaled
from bench.targets import print_targets
from bench.timing import Timing, best_of, median_timing, timed
from compliance import ruledata
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.metrics import player_metrics, session_metrics
from compliance.games import get_game
from compliance.games.base import decode_rounds
from compliance.games.douniu import DouniuRound
from compliance.logs.reader import read_sessions
from compliance.service_layer import audit as services
from compliance.service_layer import seeding
from compliance.service_layer.simulate import SimulationSpec, write_log


def make_log(path: str, sessions: int, seed: int = 11) -> int:
    spec = SimulationSpec(
        games=("douniu",),
        sessions=sessions,
        seed=seed,
        players=(6, 6),
        rounds=(10, 30),
        high_stakes=0.1,
    )
    return write_log(spec, path).rounds


def stage_decode(path):
    for item in read_sessions(path, engines=get_game):
        decode_rounds(item.session.rounds, DouniuRound)


def stage_settle(path):
    game = get_game("douniu")
    for item in read_sessions(path, engines=get_game):
        game.tally_session(item.session, [p.id for p in item.session.players])


def stage_metrics(path):
    game = get_game("douniu")
    for item in read_sessions(path, engines=get_game):
        s = item.session
        summary = game.tally_session(s, [p.id for p in s.players])
        players = [player_metrics(pid, t, s.point_value) for pid, t in summary.players.items()]
        session_metrics(summary, players, s.point_value)


def stage_classify(path, auditor):
    for _ in auditor.audit_file(path):
        pass


def reference_share(sessions: int = 2000, seed: int = 1) -> float:
    """The share of player-sessions the per-rule-set judge left to the per-player reference,
    on the demo's log (every game, anomalies at 1 %)."""
    from compliance.games import game_codes
    from compliance.service_layer.demo import DEMO_ANOMALIES

    spec = SimulationSpec(
        games=tuple(game_codes()), sessions=sessions, seed=seed, anomalies=DEMO_ANOMALIES
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "demo.jsonl")
        write_log(spec, path)
        auditor = services.make_auditor(ruledata.load_book(), services.AuditOptions())
        stage_classify(path, auditor)
        return auditor.judge.share


def stage_store(
    path, workers: int, url: str | None = None, keep: str | None = None, dask: str | None = None
) -> Timing:
    """The timing of an audit of `path` end to end into a fresh database (kept at `keep`, if
    given), on a Dask cluster at `dask` if given; the CPU of worker processes is counted
    as children's."""
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(url or f"sqlite:///{keep or tmp + '/bench.db'}")
        if url:
            with engine.begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        ensure_schema(engine)
        seeding.seed(SqlUnitOfWork(engine))
        options = services.AuditOptions(workers=workers, dask=dask)
        timing, _ = timed(lambda: services.audit(SqlUnitOfWork(engine), [path], options))
        engine.dispose()
        return timing


def _settle_seconds(path: str) -> float:
    start = time.perf_counter()
    stage_settle(path)
    return time.perf_counter() - start


def machine_ceiling(path: str, workers: int, runs: int) -> float:
    """How much more pure-Python work `workers` processes get done than one, on this
    host now: the settle stage alone, then once in each of `workers` processes at
    once. The audit's speed-up can come near this, not above it."""
    from multiprocessing import get_context

    ratios = []
    with get_context("fork").Pool(workers) as pool:
        for _ in range(runs):
            one = _settle_seconds(path)
            start = time.perf_counter()
            pool.map(_settle_seconds, [path] * workers)
            ratios.append(workers * one / (time.perf_counter() - start))
    return median(ratios)


def peak_memory(sessions: int) -> float:
    """Peak RSS (MB) of an end-to-end audit of N sessions, in a fresh process.

    Read from VmHWM: on Linux, getrusage's ru_maxrss survives exec and would
    report this (much larger) benchmark process instead.
    """
    code = (
        "import sys,tempfile; sys.argv=['x']\n"
        "from bench.bench import make_log, stage_store, high_water\n"
        "with tempfile.TemporaryDirectory() as d:\n"
        f"    make_log(d + '/m.jsonl', {sessions}); stage_store(d + '/m.jsonl', 1)\n"
        "print(high_water())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def high_water() -> float:
    """This process's peak resident memory in MB."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stage_line(name: str, rounds: int, t: Timing, note: str = "") -> str:
    """One printed stage: rounds per CPU second (children's included), then both clocks."""
    return f"  {name:<22} {rounds / t.total_cpu:>10,.0f} rounds/CPU-s  ({t.describe()}{note})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[4000, 16000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--pg", metavar="URL", help="also time end to end into this (emptied!) PostgreSQL database"
    )
    parser.add_argument(
        "--engine-sessions",
        type=int,
        metavar="N",
        help="sessions of each game for the engines' rounds/s (default: from --engine-budget; "
        "0: skip)",
    )
    parser.add_argument(
        "--engine-budget",
        type=float,
        default=2.0,
        metavar="S",
        help="CPU seconds of in-process replay each engine's log is sized to (bench/games.py)",
    )
    parser.add_argument(
        "--store-sizes",
        type=int,
        nargs="*",
        default=[0, 16000, 64000],
        metavar="N",
        help="stored sessions for the daily audit (cached under the temp dir; none: skip)",
    )
    parser.add_argument("--daily-sessions", type=int, default=1000, metavar="N")
    parser.add_argument(
        "--memory-sessions",
        type=int,
        nargs="*",
        metavar="N",
        help="sizes for the peak memory of a fresh audit (default: --sessions; none: skip)",
    )
    parser.add_argument(
        "--no-dask", action="store_true", help="skip Dask against the pool (largest size)"
    )
    parser.add_argument(
        "--skip-stages", action="store_true", help="only the engines and the daily audit"
    )
    args = parser.parse_args()
    results = {} if args.skip_stages else stages(args)
    if args.engine_sessions != 0:
        rates = engine_rates(args.engine_sessions, args.runs, args.engine_budget)
        print_rates(rates)
        results["engines"] = {r.code: r.settle_cli for r in rates}
    if args.store_sizes:
        daily = daily_audits(args.store_sizes, args.daily_sessions, args.runs)
        print_daily(daily, args.daily_sessions)
        results["daily_cpu"] = {str(r.stored): r.timing.cpu for r in daily}
    print_targets(results, args.workers)
    if args.json:
        print(json.dumps(results))


def stages(args) -> dict:
    """The stages on the first size, the workers, the floors and peak memory at every size."""
    book = ruledata.load_book()
    auditor = services.make_auditor(book, services.AuditOptions())
    results: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        n = args.sessions[0]
        path = os.path.join(tmp, "bench.jsonl")
        rounds = make_log(path, n)
        size = os.path.getsize(path) / 1e6
        print(f"{n} six-player 斗牛 sessions, {rounds} rounds, {size:.1f} MB")
        print("  (rounds per CPU second of this process and its workers; each stage includes")
        print("   the ones before it)")
        stages = [
            ("decode", lambda: stage_decode(path)),
            ("settle and tally", lambda: stage_settle(path)),
            ("metrics", lambda: stage_metrics(path)),
            ("classify (judged)", lambda: stage_classify(path, auditor)),
        ]
        for name, fn in stages:
            t = best_of(args.runs, fn)
            results[name.split()[0]] = rounds / t.cpu
            print(stage_line(name, rounds, t))
        judged = rounds / results["classify"]
        results["reference_share"] = reference_share()
        print(
            f"  {'judged per player':<22} {results['reference_share']:.2%} of the demo log's "
            "player-sessions went to the per-player reference (target < 1 %)"
        )
        serials, pars, ratios, sqls = [], [], [], []
        audited = os.path.join(tmp, "audited.db")
        for run in range(args.runs):  # interleaved: on a noisy host, paired ratios are what holds
            serials.append(stage_store(path, 1, keep=audited if run == 0 else None))
            sqls.append(duckdb_resettle(path, 1))
            if args.workers > 1:
                pars.append(stage_store(path, args.workers))
                ratios.append(serials[-1].wall / pars[-1].wall)
        serial = median_timing(serials)
        results["end_to_end"] = rounds / serial.cpu
        results["end_to_end_cpu"] = serial.cpu
        note = f"; storing and the windows {serial.cpu - judged:.2f} s CPU"
        print(stage_line("end to end (SQLite)", rounds, serial, note))
        if args.workers > 1:
            par = median_timing(pars)
            results["end_to_end_parallel"] = rounds / par.wall
            results["speedup"] = median(ratios)
            note = f"; {results['speedup']:.2f}× serial in wall time, median of paired runs"
            print(stage_line(f"end to end, {args.workers} workers", rounds, par, note))
            results["ceiling"] = machine_ceiling(path, args.workers, args.runs)
            print(
                f"  {'the machine, now':<22} {args.workers} processes of pure Python do "
                f"{results['ceiling']:.2f}× the work of one (the settle stage, median, wall)"
            )
            fresh, one, many = fresh_speedup(path, args.workers, args.runs)
            results["speedup_fresh"] = fresh
            print(
                f"  {'new processes':<22} serial {one.describe()}; {args.workers} workers "
                f"{many.describe()}: {fresh:.2f}× serial in wall time (as the CLI runs)"
            )
        if args.pg:
            pg = median_timing([stage_store(path, 1, args.pg) for _ in range(args.runs)])
            results["end_to_end_postgresql"] = rounds / pg.cpu
            print(stage_line("end to end (PostgreSQL)", rounds, pg, "; COPY"))
            if args.workers > 1:
                pgw = median_timing(
                    [stage_store(path, args.workers, args.pg) for _ in range(args.runs)]
                )
                results["end_to_end_postgresql_parallel"] = rounds / pgw.wall
                note = f"; {pg.wall / pgw.wall:.2f}× its serial run in wall time"
                print(stage_line(f"PostgreSQL, {args.workers} workers", rounds, pgw, note))
        alone = sqlite_alone(audited, args.runs)
        results["sqlite_alone"] = rounds / alone.cpu
        print(
            stage_line("SQLite alone", rounds, alone, ": the audit's rows, no Python building them")
        )
        floor = duckdb_floor(path, args.runs)
        if floor is not None:
            results["duckdb_floor"] = rounds / floor.cpu
            results["floor_ratio"] = serial.cpu / floor.cpu
            results["judged_floor_ratio"] = judged / floor.cpu
            results["least_stored_floor_ratio"] = (judged + alone.cpu) / floor.cpu
            note = (
                f"; ours {results['floor_ratio']:.2f}× its CPU stored, "
                f"{results['judged_floor_ratio']:.2f}× judged"
            )
            print(stage_line("DuckDB aggregates only", rounds, floor, note))
            print(
                f"  judged + SQLite alone = {judged + alone.cpu:.2f} s CPU, "
                f"{results['least_stored_floor_ratio']:.2f}× the floor and "
                f"{rounds / (judged + alone.cpu):,.0f} rounds/s: the best a stored one-core run "
                "could do with this judging and these rows"
            )
        if sqls[0] is not None:
            sql = median_timing([t for t, _ in sqls])
            ratio = median(a.cpu / t.cpu for a, (t, _) in zip(serials, sqls, strict=True))
            results["resettle_ratio"] = results[f"resettle_ratio_{n}"] = ratio
            found = sqls[-1][1]
            note = (
                f"; ours {ratio:.2f}× its CPU stored (paired runs); it found "
                f"{found.settlement_mismatch} mismatched rounds, {found.wrong_banker} wrong bankers"
            )
            print(stage_line("DuckDB re-settling (SQL)", rounds, sql, note))
        largest = max(args.sessions)
        if n == largest and not args.no_dask and args.workers > 1:
            results.update(dask_against_pool(path, rounds, args.workers, args.runs))
    for more in args.sessions[1:]:
        larger = scaled(more, args.runs, args.workers, more == largest and not args.no_dask)
        for key, value in larger.items():
            results.update({k: v for k, v in value.items() if k.startswith("dask")})
            if key.startswith("resettle") and value:
                results[f"resettle_ratio_{more}"] = value["ratio"]
    for n in args.sessions if args.memory_sessions is None else args.memory_sessions:
        mb = peak_memory(n)
        results[f"peak_mb_{n}"] = mb
        print(f"  peak memory, {n} sessions: {mb:.0f} MB")
    return results


if __name__ == "__main__":
    main()
