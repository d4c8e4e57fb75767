"""Replay speed of every game engine: rounds per second on one core.

Simulates sessions of each game with `compliance simulate`'s generator, then
times decoding and replaying them (settlement and every integrity check).

    python bench/games.py [--sessions 200]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from compliance.games import game_codes, get_game
from compliance.logs.reader import read_sessions
from compliance.service_layer.simulate import SimulationSpec, write_log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for code in game_codes():
            path = os.path.join(tmp, f"{code}.jsonl")
            log = write_log(SimulationSpec(games=(code,), sessions=args.sessions, seed=5), path)
            sessions = [item.session for item in read_sessions(path)]
            game = get_game(code)
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                for session in sessions:
                    for _result in game.replay(session):
                        pass
                times.append(time.perf_counter() - start)
            best = sorted(times)[len(times) // 2]
            print(f"{code:<11} {log.rounds:>6} rounds  {log.rounds / best:>10,.0f} rounds/s")


if __name__ == "__main__":
    main()
