"""目标: the benchmark's figures against the targets of issues 3 and 22."""

from __future__ import annotations

from bench.daily import TARGET_DAILY_RATIO
from bench.games import TARGET_ENGINE_RATE

TARGET_RATE = 80_000  # issue 3, rounds per CPU second
TARGET_FLOOR_RATIO = 3.0  # issue 3, against DuckDB's aggregates
TARGET_RESETTLE_RATIO = 1.3  # issue 22, against DuckDB re-settling in SQL
TARGET_DASK_RATIO = 1.2  # issue 22, a local Dask run against the process pool
TARGET_SPEEDUP = 1.7  # issue 22, two workers, where the machine allows 1.9×


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def print_targets(results: dict, workers: int) -> None:
    if "end_to_end" in results:
        print_stage_targets(results, workers)
    print_scale_targets(results)


def print_stage_targets(results: dict, workers: int) -> None:
    for label, rate, ratio in (
        ("end to end, stored", results["end_to_end"], results.get("floor_ratio")),
        ("judged, not stored", results["classify"], results.get("judged_floor_ratio")),
    ):
        floor = "no DuckDB" if ratio is None else verdict(ratio <= TARGET_FLOOR_RATIO)
        print(
            f"target (issue 3) ≥ {TARGET_RATE:,} rounds/s, {label}: "
            f"{verdict(rate >= TARGET_RATE)}; ≤ {TARGET_FLOOR_RATIO}× DuckDB's aggregates: {floor}"
        )
    sizes = sorted(int(k.rsplit("_", 1)[1]) for k in results if k.startswith("resettle_ratio_"))
    for n in sizes or [None]:
        resettle = results.get(f"resettle_ratio_{n}")
        print(
            f"target (issue 22) stored audit CPU ≤ {TARGET_RESETTLE_RATIO}× DuckDB re-settling "
            + (
                "in SQL: not measured (no DuckDB)"
                if resettle is None
                else f"in SQL, {n:,} sessions: "
                + verdict(resettle <= TARGET_RESETTLE_RATIO)
                + f" ({resettle:.2f}×)"
            )
        )
    if "dask_cpu_ratio" in results:
        cpu, wall = results["dask_cpu_ratio"], results["dask_wall_ratio"]
        print(
            f"target (issue 22) Dask on {workers} local workers within {TARGET_DASK_RATIO}× of "
            f"--workers {workers}: {verdict(cpu <= TARGET_DASK_RATIO)} ({cpu:.2f}× in CPU, "
            f"{wall:.2f}× in wall time; cluster start-up apart)"
        )
    if workers > 1:
        speedup, ceiling = results.get("speedup", 0), results.get("ceiling", 0)
        fresh = results.get("speedup_fresh")
        both = speedup if fresh is None else min(speedup, fresh)
        new = "" if fresh is None else f", {fresh:.2f}× in new processes"
        print(
            f"target (issue 22) ≥ {TARGET_SPEEDUP}× on {workers} workers: "
            f"{verdict(both >= TARGET_SPEEDUP)} ({speedup:.2f}× in this process{new}; "
            f"the machine allowed {ceiling:.2f}×)"
        )


def print_scale_targets(results: dict) -> None:
    if "daily_cpu" in results:
        daily = results["daily_cpu"]
        base, largest = daily.get("0"), max(daily, key=int)
        if base and largest != "0":
            ratio = daily[largest] / base
            print(
                f"target (issue 22) daily audit on {int(largest):,} stored ≤ {TARGET_DAILY_RATIO}× "
                f"the empty store: {verdict(ratio <= TARGET_DAILY_RATIO)} ({ratio:.2f}×)"
            )
    if "engines" in results:
        slow = [
            code
            for code, rate in results["engines"].items()
            if rate is None or rate < TARGET_ENGINE_RATE
        ]
        print(
            f"target (issue 22) every engine ≥ {TARGET_ENGINE_RATE:,} rounds/s per core: "
            + (verdict(True) if not slow else f"NOT met ({', '.join(slow)})")
        )
