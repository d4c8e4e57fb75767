"""Benchmark: rounds per second for each stage of an audit, and the DuckDB floor.

Simulates N six-player 斗牛 sessions with `compliance simulate`'s generator,
then times, on one core: decode, settle, metrics, classification and
storage (the whole `audit` into a fresh SQLite file), each stage including
the ones before it. DuckDB computes only the per-player aggregates over the
same file: the floor a pure aggregation engine sets. Peak memory of the end
to end audit is measured in a child process at two sizes.

    python bench/bench.py                 # N = 4000 and 16000 sessions
    python bench/bench.py --sessions 2000 --workers 2

Needs the bench extra for the floor: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from compliance import ruledata
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.metrics import player_metrics, session_metrics
from compliance.games import get_game
from compliance.games.base import decode_rounds
from compliance.games.douniu import DouniuRound
from compliance.logs.reader import Located, read_sessions
from compliance.service_layer import audit as services
from compliance.service_layer import seeding
from compliance.service_layer.simulate import SimulationSpec, write_log

TARGET_RATE = 80_000
TARGET_FLOOR_RATIO = 3.0


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


def best_of(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def stage_decode(path):
    for item in read_sessions(path):
        decode_rounds(item.session.rounds, DouniuRound)


def stage_settle(path):
    game = get_game("douniu")
    for item in read_sessions(path):
        game.tally_session(item.session, [p.id for p in item.session.players])


def stage_metrics(path):
    game = get_game("douniu")
    for item in read_sessions(path):
        s = item.session
        summary = game.tally_session(s, [p.id for p in s.players])
        players = [player_metrics(pid, t, s.point_value) for pid, t in summary.players.items()]
        session_metrics(summary, players, s.point_value)


def stage_classify(path, auditor):
    for item in read_sessions(path):
        if isinstance(item, Located):
            auditor.audit(item)


def stage_store(path, workers: int, url: str | None = None, keep: str | None = None):
    """Seconds to audit `path` end to end into a fresh database (kept at `keep`, if given)."""
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(url or f"sqlite:///{keep or tmp + '/bench.db'}")
        if url:
            with engine.begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        ensure_schema(engine)
        seeding.seed(SqlUnitOfWork(engine))
        start = time.perf_counter()
        services.audit(SqlUnitOfWork(engine), [path], services.AuditOptions(workers=workers))
        elapsed = time.perf_counter() - start
        engine.dispose()
        return elapsed


STORED_TABLES = ("sessions", "player_metrics", "finding_lines", "findings")


def sqlite_alone(audited: str, runs: int) -> float:
    """Seconds SQLite alone takes to store what an audit stored: the same rows, read
    back from `audited`, through the driver's executemany into a fresh file with the
    same schema, pragmas and batches of sessions, commits and close; no Python builds
    a row. The least a stored run can cost on top of judging, in this design."""
    with sqlite3.connect(audited) as source:
        rows = {
            t: source.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall()
            for t in STORED_TABLES
        }
    per_session = {t: len(rows[t]) / len(rows["sessions"]) for t in STORED_TABLES}
    batch = services.AuditOptions().batch_size
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            engine = make_engine(f"sqlite:///{tmp}/alone.db")
            ensure_schema(engine)
            seeding.seed(SqlUnitOfWork(engine))
            with engine.begin() as conn:
                conn.exec_driver_sql(
                    "INSERT INTO audit_runs (started_at, options, files, sessions, rejects, summary)"
                    " VALUES ('2026-01-01', '{}', '[]', 0, 0, '{}')"
                )
            engine.dispose()
            db = sqlite3.connect(f"{tmp}/alone.db", isolation_level=None)
            for pragma in (
                "foreign_keys=ON",
                "journal_mode=WAL",
                "synchronous=NORMAL",
                "wal_autocheckpoint=10000",
            ):
                db.execute(f"PRAGMA {pragma}")
            start = time.perf_counter()
            for i in range(0, len(rows["sessions"]), batch):
                db.execute("BEGIN")
                for t in STORED_TABLES:
                    chunk = rows[t][round(i * per_session[t]) : round((i + batch) * per_session[t])]
                    if chunk:
                        marks = ", ".join("?" * len(chunk[0]))
                        db.executemany(f'INSERT INTO "{t}" VALUES ({marks})', chunk)
                db.execute("COMMIT")
            db.close()
            times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


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


def duckdb_floor(path: str) -> float | None:
    try:
        import duckdb
    except ImportError:
        return None
    sql = f"""
        with seats as (
            select s.session_id, s.point_value, unnest(r.seats) as seat, r.base * r.grab as unit
            from (select session_id, point_value, unnest(rounds) as r
                  from read_json('{path}', format='newline_delimited', columns={{
                      session_id: 'VARCHAR', point_value: 'DECIMAL(12,4)',
                      rounds: 'STRUCT(banker VARCHAR, base INTEGER, grab INTEGER,
                               seats STRUCT(player VARCHAR, cards VARCHAR[], bet INTEGER,
                                            claimed INTEGER, rake INTEGER)[])[]'}})) s
        )
        select session_id, seat.player, max(unit * seat.bet) as single_stake,
               sum(unit * seat.bet) as staked, sum(seat.claimed) as net,
               sum(greatest(seat.claimed, 0)) as won
        from seats group by all
    """

    def run():
        con = duckdb.connect()
        con.execute("SET threads=1")
        con.execute(sql).fetchall()
        con.close()

    return best_of(3, run)


def peak_memory(sessions: int) -> float:
    """Peak RSS (MB) of an end-to-end audit of N sessions, in a fresh process.

    Read from VmHWM: on Linux, getrusage's ru_maxrss survives exec and would
    report this (much larger) benchmark process instead.
    """
    code = (
        "import sys,tempfile; sys.argv=['x'];"
        "from bench.bench import make_log, stage_store, high_water;"
        f"d=tempfile.mkdtemp(); p=d+'/m.jsonl'; make_log(p, {sessions});"
        "stage_store(p, 1);"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[4000, 16000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--pg", metavar="URL", help="also time end to end into this (emptied!) PostgreSQL database"
    )
    args = parser.parse_args()
    book = ruledata.load_book()
    auditor = services.make_auditor(book, services.AuditOptions())
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        n = args.sessions[0]
        path = os.path.join(tmp, "bench.jsonl")
        rounds = make_log(path, n)
        size = os.path.getsize(path) / 1e6
        print(f"{n} six-player 斗牛 sessions, {rounds} rounds, {size:.1f} MB")
        stages = [
            ("decode", lambda: stage_decode(path)),
            ("settle and tally", lambda: stage_settle(path)),
            ("metrics", lambda: stage_metrics(path)),
            ("classify (judged)", lambda: stage_classify(path, auditor)),
        ]
        for name, fn in stages:
            t = best_of(args.runs, fn)
            results[name.split()[0]] = rounds / t
            print(f"  {name:<22} {rounds / t:>10,.0f} rounds/s  ({t:.2f} s, stages so far)")
        serials, pars, ratios = [], [], []
        audited = os.path.join(tmp, "audited.db")
        for run in range(args.runs):  # interleaved: on a noisy host, paired ratios are what holds
            serials.append(stage_store(path, 1, keep=audited if run == 0 else None))
            if args.workers > 1:
                pars.append(stage_store(path, args.workers))
                ratios.append(serials[-1] / pars[-1])
        serial = median(serials)
        results["end_to_end"] = rounds / serial
        print(
            f"  {'end to end (SQLite)':<22} {rounds / serial:>10,.0f} rounds/s  ({serial:.2f} s, "
            f"of which storing and the windows {serial - rounds / results['classify']:.2f} s)"
        )
        if args.workers > 1:
            par = median(pars)
            results["end_to_end_parallel"] = rounds / par
            results["speedup"] = median(ratios)
            print(
                f"  {f'end to end, {args.workers} workers':<22} {rounds / par:>10,.0f} rounds/s"
                f"  ({par:.2f} s, {results['speedup']:.2f}× serial, median of paired runs)"
            )
            results["ceiling"] = machine_ceiling(path, args.workers, args.runs)
            print(
                f"  {'the machine, now':<22} {args.workers} processes of pure Python do "
                f"{results['ceiling']:.2f}× the work of one (the settle stage, median)"
            )
        if args.pg:
            pg = sorted(stage_store(path, 1, args.pg) for _ in range(args.runs))[args.runs // 2]
            results["end_to_end_postgresql"] = rounds / pg
            print(
                f"  {'end to end (PostgreSQL)':<22} {rounds / pg:>10,.0f} rounds/s  ({pg:.2f} s, COPY)"
            )
            if args.workers > 1:
                pgw = median(stage_store(path, args.workers, args.pg) for _ in range(args.runs))
                results["end_to_end_postgresql_parallel"] = rounds / pgw
                print(
                    f"  {f'PostgreSQL, {args.workers} workers':<22} {rounds / pgw:>10,.0f} rounds/s"
                    f"  ({pgw:.2f} s, {pg / pgw:.2f}× its serial run)"
                )
        alone = sqlite_alone(audited, args.runs)
        results["sqlite_alone"] = rounds / alone
        print(
            f"  {'SQLite alone':<22} {rounds / alone:>10,.0f} rounds/s  ({alone:.2f} s: the audit's "
            "rows, no Python building them)"
        )
        floor = duckdb_floor(path)
        if floor is not None:
            judged = rounds / results["classify"]
            results["duckdb_floor"] = rounds / floor
            results["floor_ratio"] = serial / floor
            results["judged_floor_ratio"] = judged / floor
            results["least_stored_floor_ratio"] = (judged + alone) / floor
            print(
                f"  {'DuckDB aggregates only':<22} {rounds / floor:>10,.0f} rounds/s  ({floor:.2f} s); "
                f"ours {serial / floor:.2f}× the floor stored, "
                f"{results['judged_floor_ratio']:.2f}× judged"
            )
            print(
                f"  judged + SQLite alone = {judged + alone:.2f} s, "
                f"{results['least_stored_floor_ratio']:.2f}× the floor and "
                f"{rounds / (judged + alone):,.0f} rounds/s: the best a stored one-core run "
                "could do with this judging and these rows"
            )
    for n in args.sessions:
        mb = peak_memory(n)
        results[f"peak_mb_{n}"] = mb
        print(f"  peak memory, {n} sessions: {mb:.0f} MB")
    for label, rate, ratio in (
        ("end to end, stored", results["end_to_end"], results.get("floor_ratio", 99)),
        ("judged, not stored", results["classify"], results.get("judged_floor_ratio", 99)),
    ):
        print(
            f"target ≥ {TARGET_RATE:,} rounds/s, {label}: "
            f"{'met' if rate >= TARGET_RATE else 'NOT met'}; "
            f"≤ {TARGET_FLOOR_RATIO}× DuckDB: {'met' if ratio <= TARGET_FLOOR_RATIO else 'NOT met'}"
        )
    if args.workers > 1:
        print(
            f"target ≥ 1.6× on {args.workers} workers: "
            f"{'met' if results.get('speedup', 0) >= 1.6 else 'NOT met'}"
        )
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
