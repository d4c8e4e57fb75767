"""新进程: the stored audit timed in a new interpreter per run, as `compliance audit` runs.

The stages of bench.py run in this process, warm: its modules imported, its caches filled,
DuckDB loaded beside them, and a pool's workers forked from all of that. A user's audit is a
new process, whose workers start from a small one. Here each run is a child interpreter that
makes a fresh SQLite store, seeds it, and times `services.audit` alone (imports and the
schema outside the clock, as they are outside the in-process stage): serial and `workers`
alternate, and the speed-up is the median of the pairs' wall-clock ratios.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from statistics import median

from bench.timing import Timing, median_timing

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, tempfile
sys.path.insert(0, sys.argv[3])
from bench.timing import timed
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services, seeding
with tempfile.TemporaryDirectory() as tmp:
    engine = make_engine(f"sqlite:///{tmp}/fresh.db")
    ensure_schema(engine)
    seeding.seed(SqlUnitOfWork(engine))
    options = services.AuditOptions(workers=int(sys.argv[2]))
    t, _ = timed(lambda: services.audit(SqlUnitOfWork(engine), [sys.argv[1]], options))
    engine.dispose()
print(json.dumps([t.wall, t.cpu, t.children]))
"""


def fresh_store(path: str, workers: int) -> Timing:
    """One audit of `path` into a new store, timed inside a new interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, path, str(workers), str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu, children = json.loads(done.stdout.splitlines()[-1])
    return Timing(wall, cpu, children)


def fresh_speedup(path: str, workers: int, runs: int) -> tuple[float, Timing, Timing]:
    """(median of the paired wall ratios, serial timing, `workers` timing), medians."""
    serials, pars, ratios = [], [], []
    for _ in range(runs):
        serials.append(fresh_store(path, 1))
        pars.append(fresh_store(path, workers))
        ratios.append(serials[-1].wall / pars[-1].wall)
    return median(ratios), median_timing(serials), median_timing(pars)
