"""计时: wall and CPU time of a stage, this process's and its finished children's.

On a host shared with other work the wall clock measures the neighbours too; CPU time
(`time.process_time`, plus `RUSAGE_CHILDREN` for worker processes and command runs)
is what a stage itself cost.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from statistics import median
from typing import Any


@dataclass(frozen=True)
class Timing:
    """墙钟与CPU: seconds of wall clock, of this process's CPU and of its children's."""

    wall: float
    cpu: float
    children: float = 0.0

    @property
    def total_cpu(self) -> float:
        return self.cpu + self.children

    def describe(self) -> str:
        children = f" + {self.children:.2f} s children" if self.children >= 0.005 else ""
        return f"CPU {self.cpu:.2f} s{children}, wall {self.wall:.2f} s"


def children_cpu() -> float:
    """User and system seconds of every child process that has ended and been waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def live_descendants_cpu() -> dict[int, float]:
    """User and system seconds so far of each process below this one that still runs
    (a Dask cluster's nannies and workers, which outlive a timed run)."""
    try:
        import psutil
    except ImportError:
        return {}
    seconds = {}
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        seconds[child.pid] = times.user + times.system
    return seconds


def timed(fn: Callable[[], Any]) -> tuple[Timing, Any]:
    """Run `fn` once; its timing and its result. Children's CPU is that of the children
    that ended during the run plus what the ones still running spent in it."""
    live, kids = live_descendants_cpu(), children_cpu()
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    kids = children_cpu() - kids
    for pid, seconds in live_descendants_cpu().items():
        kids += seconds - live.get(pid, 0.0)
    return Timing(wall, cpu, kids), result


def median_timing(timings: list[Timing]) -> Timing:
    """Each clock's median over the runs (the three need not come from one run)."""
    return Timing(
        median(t.wall for t in timings),
        median(t.cpu for t in timings),
        median(t.children for t in timings),
    )


def best_of(runs: int, fn: Callable[[], Any]) -> Timing:
    """The median timing of `runs` runs of `fn`."""
    return median_timing([timed(fn)[0] for _ in range(runs)])
