"""规模: the stored audit against DuckDB re-settling in SQL at each size, and Dask against
the process pool, each pair run interleaved (on a shared host paired ratios are what holds)."""

from __future__ import annotations

import os
import tempfile
from statistics import median

from bench.resettle import duckdb_resettle
from bench.timing import Timing, median_timing


def against_sql(path: str, rounds: int, runs: int, label: str) -> dict:
    """Serial stored audits of `path` and DuckDB's re-settlement, interleaved; printed."""
    from bench.bench import stage_line, stage_store

    audits: list[Timing] = []
    sqls: list[Timing] = []
    ratios = []
    for _ in range(runs):
        audits.append(stage_store(path, 1))
        measured = duckdb_resettle(path, 1)
        if measured is None:
            return {}
        sqls.append(measured[0])
        ratios.append(audits[-1].total_cpu / sqls[-1].total_cpu)
    audit, sql = median_timing(audits), median_timing(sqls)
    found = measured[1]
    print(stage_line(f"{label} end to end", rounds, audit))
    note = (
        f"; ours {median(ratios):.2f}× its CPU (median of paired runs); it found "
        f"{found.settlement_mismatch} mismatched rounds, {found.wrong_banker} wrong bankers"
    )
    print(stage_line(f"{label} DuckDB re-settling", rounds, sql, note))
    return {"audit_cpu": audit.total_cpu, "sql_cpu": sql.total_cpu, "ratio": median(ratios)}


def dask_against_pool(path: str, rounds: int, workers: int, runs: int) -> dict:
    """`--workers N` against `--dask` on a local N-worker cluster started beforehand (its
    start-up timed apart), interleaved; CPU of this process, its workers and the cluster's."""
    from bench.bench import stage_line, stage_store
    from bench.timing import timed
    from compliance.service_layer.runners import local_cluster

    try:
        import distributed  # noqa: F401
    except ImportError:
        print("  (no Dask: pip install -e '.[dask]')")
        return {}
    start, cluster = timed(lambda: local_cluster(workers))
    pools: list[Timing] = []
    dasks: list[Timing] = []
    try:
        for _ in range(runs):
            pools.append(stage_store(path, workers))
            dasks.append(stage_store(path, workers, dask=cluster.scheduler_address))
    finally:
        cluster.close()
    pool, dask = median_timing(pools), median_timing(dasks)
    cpu = median(d.total_cpu / p.total_cpu for d, p in zip(dasks, pools, strict=True))
    wall = median(d.wall / p.wall for d, p in zip(dasks, pools, strict=True))
    print(stage_line(f"{workers} workers (pool)", rounds, pool))
    note = f"; {cpu:.2f}× the pool's CPU, {wall:.2f}× its wall (medians of pairs)"
    print(stage_line(f"Dask, {workers} workers", rounds, dask, note))
    print(f"  {'Dask cluster start-up':<22} {start.describe()} (not in the runs above)")
    return {"dask_cpu_ratio": cpu, "dask_wall_ratio": wall, "dask_start_wall": start.wall}


def scaled(n: int, runs: int, workers: int, dask: bool) -> dict:
    """A larger log: the audit against the SQL, and Dask against the pool if asked."""
    from bench.bench import make_log

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.jsonl")
        rounds = make_log(path, n)
        size = os.path.getsize(path) / 1e6
        print(f"{n} six-player 斗牛 sessions, {rounds} rounds, {size:.1f} MB")
        results = {f"resettle_{n}": against_sql(path, rounds, runs, f"{n:,}:")}
        if dask and workers > 1:
            results[f"dask_{n}"] = dask_against_pool(path, rounds, workers, runs)
        return results
