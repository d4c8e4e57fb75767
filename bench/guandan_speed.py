"""掼蛋的速度: hands per CPU second of the replay and of a settle, in this process.

Times, on a simulated 掼蛋 log, (a) the replay as `bench/games.py` does it (decoding each
session's rounds and replaying them, parsed sessions in hand), best of `--runs`, and
(b) a whole settle in process (`sessions_to_settle`, `replay_sessions`, the printed
text), best of `--runs`. It adds nothing to sys.path, so run with another tree's
interpreter it times that tree's code: interleave runs of two trees to compare them.

    python bench/guandan_speed.py LOG [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import time

from compliance.cli.games import _text_lines
from compliance.games import get_game
from compliance.logs.reader import read_sessions
from compliance.service_layer import settle as svc


def best(runs: int, fn) -> float:
    seconds = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        seconds.append(time.process_time() - start)
    return min(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sessions = [item.session for item in read_sessions(args.log)]
    game = get_game("guandan")
    hands = sum(1 for s in sessions for _ in game.replay(s))

    def replay() -> None:
        for session in sessions:
            for _result in game.replay(session):
                pass

    def settle() -> None:
        gen0, *older = gc.get_threshold()
        gc.set_threshold(50_000, *older)  # as `games settle` runs
        try:
            read = svc.sessions_to_settle(args.log)
            results = svc.replay_sessions(read)
            for session, rounds in zip(read, results, strict=True):
                _text_lines(session, rounds)
        finally:
            gc.set_threshold(gen0, *older)

    replay_s = best(args.runs, replay)
    settle_s = best(args.runs, settle)
    print(
        f"hands {hands}  replay {replay_s:.3f} s {hands / replay_s:,.0f} hands/s  "
        f"settle {settle_s:.3f} s {hands / settle_s:,.0f} hands/s"
    )


if __name__ == "__main__":
    main()
