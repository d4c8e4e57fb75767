"""Replay speed of every game engine: rounds per second on one core.

Simulates sessions of each game with `compliance simulate`'s generator, then
times decoding and replaying them (settlement and every integrity check) in
this process, and the CPU time of `compliance games settle` on the log less
that of a one-session log of the same game (start-up and imports cancel out),
per round: the measure of issue 22, whose target is 10,000 rounds/s per core.

The log is made long enough that the command's work is many times the spread of
its start-up: each game gets the sessions that its in-process replay takes about
`--budget` CPU seconds over (from a pilot of 20 sessions), unless `--sessions`
fixes them. The runs are interleaved (log, one session, in process), the medians
printed with the runs' spread, and a host calibration beside them: CPU seconds
of a fixed pure-Python loop, to compare hosts by.

    python bench/games.py [--budget 2] [--sessions N] [--runs 3]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, run as a script

from bench.timing import timed
from compliance.games import game_codes, get_game
from compliance.logs.reader import read_sessions
from compliance.service_layer.simulate import SimulationSpec, write_log

TARGET_ENGINE_RATE = 10_000
PILOT_SESSIONS = 20
MAX_SESSIONS = 20_000
CALIBRATION_LOOP = 3_000_000


@dataclass(frozen=True)
class EngineRate:
    """一个引擎的速度: rounds of the log, replayed in process and through the CLI, per CPU
    second; each a median, with the lowest and highest of the runs."""

    code: str
    sessions: int
    rounds: int
    replay: float
    replay_spread: tuple[float, float]
    settle_cli: float | None  # None: the margin over one session was within the noise
    settle_spread: tuple[float, float] | None
    startup: tuple[float, float, float]  # the one-session command's CPU: median, min, max

    @property
    def meets_target(self) -> bool:
        return self.settle_cli is not None and self.settle_cli >= TARGET_ENGINE_RATE

    @property
    def outside_engine_us(self) -> float | None:
        """Microseconds of CPU a round costs in `games settle` beyond its in-process replay
        (reading the file, the command's output)."""
        if self.settle_cli is None:
            return None
        return 1e6 * (1 / self.settle_cli - 1 / self.replay)


def calibration(runs: int = 3) -> float:
    """CPU seconds of a fixed pure-Python loop (median): the host's speed, to compare by."""

    def loop() -> int:
        total = 0
        for i in range(CALIBRATION_LOOP):
            total += i * i % 7
        return total

    seconds = []
    for _ in range(runs):
        start = time.process_time()
        loop()
        seconds.append(time.process_time() - start)
    return median(seconds)


def replay_cpu(code: str, path: str) -> float:
    """CPU seconds of replaying the parsed sessions of `path` in process (decoding excluded)."""
    sessions = [item.session for item in read_sessions(path)]
    game = get_game(code)

    def replay():
        for session in sessions:
            for _result in game.replay(session):
                pass

    return timed(replay)[0].cpu


def settle_cli_cpu(path: str) -> float:
    """CPU seconds of one `compliance games settle` run on `path`, output discarded."""
    command = [sys.executable, "-m", "compliance", "games", "settle", path]
    run = lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=True)  # noqa: E731
    return timed(run)[0].children


def sessions_for(code: str, budget: float, tmp: str) -> int:
    """Sessions whose in-process replay takes about `budget` CPU seconds (a pilot's rate)."""
    pilot = os.path.join(tmp, f"{code}-pilot.jsonl")
    rounds = write_log(SimulationSpec(games=(code,), sessions=PILOT_SESSIONS, seed=5), pilot).rounds
    per_round = replay_cpu(code, pilot) / max(rounds, 1)
    per_session = per_round * rounds / PILOT_SESSIONS
    wanted = math.ceil(budget / per_session) if per_session > 0 else MAX_SESSIONS
    return max(PILOT_SESSIONS, min(MAX_SESSIONS, wanted))


def engine_rate(
    code: str, sessions: int | None, runs: int, tmp: str, budget: float = 2.0
) -> EngineRate:
    """The rates of one game: its log against one session, in interleaved runs."""
    if sessions is None:
        sessions = sessions_for(code, budget, tmp)
    path, one = os.path.join(tmp, f"{code}.jsonl"), os.path.join(tmp, f"{code}-1.jsonl")
    rounds = write_log(SimulationSpec(games=(code,), sessions=sessions, seed=5), path).rounds
    one_rounds = write_log(SimulationSpec(games=(code,), sessions=1, seed=5), one).rounds
    settles, starts, replays = [], [], []
    for _ in range(runs):
        whole, single = settle_cli_cpu(path), settle_cli_cpu(one)
        starts.append(single)
        if whole > single:
            settles.append((rounds - one_rounds) / (whole - single))
        replays.append(rounds / replay_cpu(code, path))
    enough = len(settles) == runs
    return EngineRate(
        code,
        sessions,
        rounds,
        median(replays),
        (min(replays), max(replays)),
        median(settles) if enough else None,
        (min(settles), max(settles)) if enough else None,
        (median(starts), min(starts), max(starts)),
    )


def engine_rates(sessions: int | None, runs: int, budget: float = 2.0) -> list[EngineRate]:
    """Every game's rates; `sessions` None: each game's from `budget` (sessions_for)."""
    with tempfile.TemporaryDirectory() as tmp:
        return [engine_rate(code, sessions, runs, tmp, budget) for code in game_codes()]


def _spread(low: float, high: float) -> str:
    return f"{low:,.0f}–{high:,.0f}"


def print_rates(rates: list[EngineRate], calibrated: float | None = None) -> None:
    calibrated = calibration() if calibrated is None else calibrated
    print(
        f"every engine, one core, per CPU second (target ≥ {TARGET_ENGINE_RATE:,} rounds/s"
        " of `compliance games settle`, issue 22); medians, the runs' lowest–highest beside"
    )
    print(
        f"  host calibration: {calibrated:.3f} s CPU for {CALIBRATION_LOOP:,} turns of a "
        "pure-Python loop (bench/games.py, calibration)"
    )
    print(
        f"  {'game':<11} {'sessions':>8} {'rounds':>7}  {'replay':>22}  {'games settle':>22}"
        f"  {'outside the engine':>18}  {'start-up CPU':>18}"
    )
    for r in rates:
        verdict = "met" if r.meets_target else "NOT met"
        replay = f"{r.replay:,.0f} ({_spread(*r.replay_spread)})"
        if r.settle_cli is None or r.settle_spread is None:
            cli, outside = "noise", "-"
        else:
            cli = f"{r.settle_cli:,.0f} ({_spread(*r.settle_spread)})"
            outside = f"{r.outside_engine_us:,.1f} µs/round"
        start, low, high = r.startup
        startup = f"{start:.2f} s ({low:.2f}–{high:.2f})"
        print(
            f"  {r.code:<11} {r.sessions:>8} {r.rounds:>7}  {replay:>22}  {cli:>22}"
            f"  {outside:>18}  {startup:>18}  {verdict}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sessions", type=int, help="sessions of every game (default: from --budget)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=2.0,
        help="CPU seconds of in-process replay each game's log is sized to (default 2)",
    )
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print_rates(engine_rates(args.sessions, args.runs, args.budget))


if __name__ == "__main__":
    main()
