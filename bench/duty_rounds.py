"""Checks 9 and 10 on the sessions' rounds: what they add to the duties pass's second
reading of the session files, in CPU time (docs/performance.md, "Checks 9 and 10").

`python -m bench.duty_rounds LOG [REPEATS]` reads the log's sessions as the duties pass
does, with and without building each session's rounds' money and feeding checks 9 and
10 (every game mode configured, caps out of reach), interleaved; medians of CPU seconds.
"""

from __future__ import annotations

import statistics
import sys
import time

from compliance.domain.duties.collect import Collector
from compliance.domain.duties.fees import OutcomeFees
from compliance.domain.duties.round_points import RoundPoints
from compliance.dutydata import load_duties
from compliance.games import game_codes
from compliance.logs.platform_records import ModeConfig
from compliance.logs.reader import Located, read_sessions
from compliance.service_layer.duties import sitting_of

LIMIT = 1 << 26


def _modes(platform: str) -> dict[tuple[str, str], ModeConfig]:
    return {
        (platform, code): ModeConfig(
            format="platform-config/1",
            platform=platform,
            mode=code,
            round_cap=10**15,
            day_cap=10**15,
        )
        for code in game_codes()
    }


def read(path: str) -> int:
    return sum(isinstance(item, Located) for item in read_sessions(path, max_line_bytes=LIMIT))


def read_and_check(path: str) -> int:
    book, collect = load_duties(), Collector()
    fees, points, n = OutcomeFees(book, collect), None, 0
    for item in read_sessions(path, max_line_bytes=LIMIT):
        if isinstance(item, Located):
            s = sitting_of(item.session)
            if points is None:
                points = RoundPoints(book, _modes(s.platform), collect)
            fees.see(s)
            points.see(s)
            n += 1
    if points is not None:
        points.finish()
    return n


def main(path: str, repeats: int = 5) -> None:
    plain, checked = [], []
    for _ in range(repeats):
        for runs, fn in ((plain, read), (checked, read_and_check)):
            start = time.process_time()
            sessions = fn(path)
            runs.append(time.process_time() - start)
    a, b = statistics.median(plain), statistics.median(checked)
    print(
        f"{sessions} sessions: read {a:.2f} s CPU, read + checks 9 and 10 {b:.2f} s "
        f"(+{b - a:.2f} s, {1000 * (b - a) / sessions:.2f} ms a session)"
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
