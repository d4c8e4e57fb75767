"""信号的代价: the CPU the account signals (checks 4, 17, 18's coin traders, 20) add to the
duties pass, on a simulated platform's ledger.

`python -m bench.signal_cost [SESSIONS] [RUNS]` (default 20,000 and 5) simulates one
platform (seed 1, anomalies 0.01), decodes its ledger once, then feeds the decoded
events through the duty checks RUNS times with the signals and RUNS times with them
replaced by a stand-in that does nothing, interleaved, and prints the median CPU of
each (sessions fed too, the finish included; decoding excluded).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.signal_rates import _records
from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.dutydata import load_duties
from compliance.logs.platform_records import ACCOUNTS, CONFIG, LEDGER
from compliance.logs.reader import Located, read_sessions
from compliance.service_layer.simulate import SimulationSpec, write_log
from compliance.service_layer.simulate_platform import write_platform


class Nothing:
    def session(self, *args) -> None: ...
    def see(self, e) -> None: ...
    def finish(self, today) -> None: ...


def main(argv: list[str]) -> None:
    sessions = int(argv[0]) if argv else 20_000
    runs = int(argv[1]) if len(argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "s.jsonl"
        write_log(SimulationSpec(sessions=sessions, seed=1), str(log))
        write_platform(str(log), Path(tmp) / "p", 1, 0.01)
        accounts = _records(Path(tmp) / "p" / "accounts.jsonl", ACCOUNTS)
        config = _records(Path(tmp) / "p" / "config.jsonl", CONFIG)
        events = _records(Path(tmp) / "p" / "ledger.jsonl", LEDGER)
        heads = []
        for item in read_sessions(str(log)):
            if isinstance(item, Located):
                s = item.session
                owner = s.owner.id if s.owner else None
                heads.append(
                    (
                        s.platform,
                        s.session_id,
                        s.room_id,
                        owner,
                        tuple(p.id for p in s.players),
                        s.started_at,
                    )
                )
    book = load_duties()
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(runs):
        for signals in (True, False):
            start = time.process_time()
            audit = DutyAudit(book, DutyOptions(date(2026, 12, 1)), accounts, config, True)
            if not signals:
                audit.signals = Nothing()  # type: ignore[assignment]
            for head in heads:
                audit.session(*head)
            for e in events:
                audit.event(e)
            audit.finish()
            times[signals].append(time.process_time() - start)
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(
        f"{len(events):,} ledger events, {len(heads):,} sessions: with the signals "
        f"{on:.3f} s CPU, without {off:.3f} s (medians of {runs}); the signals add "
        f"{on - off:.3f} s, {(on - off) / len(events) * 1e6:.2f} µs an event"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
