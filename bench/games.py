"""Replay speed of every game engine: rounds per second on one core.

Simulates sessions of each game with `compliance simulate`'s generator, then
times decoding and replaying them (settlement and every integrity check) in
this process, and the CPU time of `compliance games settle` on the log less
that of a one-session log of the same game (start-up and imports cancel out),
per round: the measure of issue 22, whose target is 10,000 rounds/s per core.

    python bench/games.py [--sessions 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, run as a script

from bench.timing import best_of, timed
from compliance.games import game_codes, get_game
from compliance.logs.reader import read_sessions
from compliance.service_layer.simulate import SimulationSpec, write_log

TARGET_ENGINE_RATE = 10_000


@dataclass(frozen=True)
class EngineRate:
    """一个引擎的速度: rounds of the log, replayed in process and through the CLI, per CPU second."""

    code: str
    rounds: int
    replay: float
    settle_cli: float | None  # None: the margin over one session was within the noise

    @property
    def meets_target(self) -> bool:
        return self.settle_cli is not None and self.settle_cli >= TARGET_ENGINE_RATE


def replay_rate(code: str, path: str, rounds: int, runs: int) -> float:
    """Rounds per CPU second of decoding nothing more: replaying parsed sessions in process."""
    sessions = [item.session for item in read_sessions(path)]
    game = get_game(code)

    def replay():
        for session in sessions:
            for _result in game.replay(session):
                pass

    return rounds / best_of(runs, replay).cpu


def settle_cli_cpu(path: str) -> float:
    """CPU seconds of one `compliance games settle` run on `path`, output discarded."""
    command = [sys.executable, "-m", "compliance", "games", "settle", path]
    run = lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=True)  # noqa: E731
    return timed(run)[0].children


def engine_rate(code: str, sessions: int, runs: int, tmp: str) -> EngineRate:
    """The rates of one game, `sessions` simulated sessions against one, interleaved runs."""
    path, one = os.path.join(tmp, f"{code}.jsonl"), os.path.join(tmp, f"{code}-1.jsonl")
    rounds = write_log(SimulationSpec(games=(code,), sessions=sessions, seed=5), path).rounds
    one_rounds = write_log(SimulationSpec(games=(code,), sessions=1, seed=5), one).rounds
    margins = [settle_cli_cpu(path) - settle_cli_cpu(one) for _ in range(runs)]
    margin = median(margins)
    rate = (rounds - one_rounds) / margin if margin > 0 else None
    return EngineRate(code, rounds, replay_rate(code, path, rounds, runs), rate)


def engine_rates(sessions: int, runs: int) -> list[EngineRate]:
    with tempfile.TemporaryDirectory() as tmp:
        return [engine_rate(code, sessions, runs, tmp) for code in game_codes()]


def print_rates(rates: list[EngineRate]) -> None:
    print(
        f"every engine, one core, per CPU second (target ≥ {TARGET_ENGINE_RATE:,} rounds/s"
        " of `compliance games settle`, issue 22)"
    )
    print(f"  {'game':<11} {'rounds':>6}  {'replay':>10}  {'games settle':>12}")
    for r in rates:
        verdict = "met" if r.meets_target else "NOT met"
        cli = "noise" if r.settle_cli is None else f"{r.settle_cli:,.0f}"
        print(f"  {r.code:<11} {r.rounds:>6}  {r.replay:>10,.0f}  {cli:>12}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print_rates(engine_rates(args.sessions, args.runs))


if __name__ == "__main__":
    main()
