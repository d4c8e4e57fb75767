"""平台义务的速度: the duties' checks over a generated ledger, CPU time and peak memory.

`python -m bench.duties [EVENTS] [ACCOUNTS] [stored]` (default 1,000,000 and 100,000)
writes an accounts file and a ledger (a third settlements, a third recharges, a third
their confirmations, on the recharge's account; two thirds of the accounts minors) into
a temporary folder, then reads and checks them in this process (no database): events a
second of CPU, and the peak resident memory. With `stored`, also the whole `audit` (a
one-session log, the accounts and the ledger) into a fresh SQLite database, with one
process and with `--workers 2`: CPU of the process and its workers, events a second of
it, the duty findings stored; then the same accounts with a one-event ledger, so that
the ledger's events alone are timed as the engines' rounds are, less a one-event run
(docs/performance.md, "Platform duties").

`python -m bench.duties simulated [FOLDER] [SESSIONS] [RUNS]`: the simulated platform's
accounts, ledger and configuration (made in FOLDER from SESSIONS 斗牛 sessions where it holds
none: 100,000 sessions, about 735,000 events of every type), audited with one process and
with two workers in turn, RUNS times each: the mix of a platform rather than of the payments.
"""

from __future__ import annotations

import json
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bench.timing import Timing, timed
from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.dutydata import load_duties
from compliance.logs.platform_reader import Record, event_blocks, read_records
from compliance.logs.platform_records import ACCOUNTS
from compliance.logs.reader import Reject

SESSION = Path(__file__).resolve().parent.parent / "data" / "samples" / "douniu.jsonl"


@dataclass(frozen=True)
class DutyRate:
    events: int
    accounts: int
    accounts_cpu: float
    cpu: float  # the ledger through the checks, and the findings made
    findings: int
    peak_mib: float

    @property
    def per_second(self) -> float:
        return self.events / self.cpu if self.cpu else 0.0


def write_inputs(folder: Path, events: int, accounts: int, seed: int = 1) -> tuple[Path, Path]:
    rng = random.Random(seed)
    people, ledger = folder / "accounts.jsonl", folder / "ledger.jsonl"
    verified = {"status": "verified", "at": "2021-01-01T00:00:00+08:00"}
    with people.open("w") as out:
        for i in range(accounts):
            born = f"{rng.choice((1980, 2008, 2012))}-03-0{rng.randint(1, 9)}"
            row = {
                "format": "accounts/1",
                "platform": "p",
                "id": f"a{i}",
                "person": f"p{i // 2}",
                "verification": verified,
                "birth_date": born,
            }
            out.write(json.dumps(row) + "\n")
    paid = "a0"
    with ledger.open("w") as out:
        for i in range(events):
            head = {
                "format": "ledger/1",
                "platform": "p",
                "id": f"e{i}",
                "account": f"a{rng.randrange(accounts)}",
                "at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                f"{rng.randint(0, 23):02d}:00:00+08:00",
            }
            if i % 3 == 2:
                row = head | {"type": "confirmation", "ref": f"e{i - 1}", "account": paid}
            elif i % 3 == 1:
                paid = head["account"]
                row = head | {
                    "type": "recharge",
                    "yuan": str(rng.choice((6, 30, 68))),
                    "units": 60,
                    "currency": "diamond",
                }
            else:
                row = head | {"type": "settlement", "units": rng.randint(-500, 500), "mode": "m"}
            out.write(json.dumps(row) + "\n")
    return people, ledger


def duty_rate(events: int, accounts: int) -> DutyRate:
    """Read the accounts, then the ledger through every check, timed in CPU."""
    with tempfile.TemporaryDirectory(prefix="bench-duties-") as folder:
        people, ledger = write_inputs(Path(folder), events, accounts)
        book = load_duties()
        start = time.process_time()
        held = (r.record for r in read_records(str(people), ACCOUNTS) if isinstance(r, Record))
        audit = DutyAudit(book, DutyOptions(date(2025, 1, 1)), held, [], True)
        loaded = time.process_time()
        seen = 0
        for item in event_blocks(str(ledger)):
            if not isinstance(item, Reject):
                audit.events(*item)
                seen += len(item[1])
        found = audit.finish()
        cpu = time.process_time() - loaded
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return DutyRate(seen, accounts, loaded - start, cpu, len(found), peak)


def stored_rate(events: int, accounts: int, workers: int) -> tuple[Timing, int]:
    """The whole audit into a fresh SQLite database; its timing and the duty findings stored."""
    with tempfile.TemporaryDirectory(prefix="bench-duties-") as folder:
        people, ledger = write_inputs(Path(folder), events, accounts)
        return stored_audit(folder, people, ledger, None, workers)


def stored_audit(
    folder: str, people: Path, ledger: Path, config: Path | None, workers: int
) -> tuple[Timing, int]:
    """The audit of the sample session with these records into a fresh SQLite database in
    `folder`: its timing, and the duty findings stored."""
    from compliance.db.engine import ensure_schema, make_engine
    from compliance.db.unit_of_work import SqlUnitOfWork
    from compliance.service_layer import audit as services
    from compliance.service_layer.duties import DutyInputs

    db = Path(folder) / f"bench-{workers}.db"
    db.unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{db}")
    ensure_schema(engine)
    inputs = DutyInputs(
        accounts=str(people), ledger=str(ledger), config=str(config) if config else None
    )
    options = services.AuditOptions(workers=workers, duties=inputs)
    timing, summary = timed(lambda: services.audit(SqlUnitOfWork(engine), [str(SESSION)], options))
    with SqlUnitOfWork(engine) as uow:
        stored = len(uow.duties.findings(summary.run_id))
    engine.dispose()
    db.unlink()
    return timing, stored


def simulated(folder: Path, sessions: int, runs: int) -> None:
    """The simulated platform's records (`compliance simulate --platform-records`, made in
    `folder` for `sessions` 斗牛 sessions unless there already): every event type, the
    modes' caps configured, injected breaches; audited with one process and two workers,
    alternating, `runs` times each."""
    from compliance.service_layer.simulate import SimulationSpec, write_log
    from compliance.service_layer.simulate_platform import write_platform

    people, ledger, config = (
        folder / name for name in ("accounts.jsonl", "ledger.jsonl", "config.jsonl")
    )
    if not ledger.exists():
        folder.mkdir(parents=True, exist_ok=True)
        log = folder / "sessions.jsonl"
        write_log(SimulationSpec(sessions=sessions, seed=5, anomalies=0.02), str(log))
        write_platform(str(log), folder, 5, 0.02)
        log.unlink()
    with ledger.open("rb") as fh:
        events = sum(1 for _ in fh)
    for run in range(runs):
        for workers in (1, 2):
            timing, stored = stored_audit(str(folder), people, ledger, config, workers)
            print(
                f"simulated platform, run {run + 1}, --workers {workers}: {events:,} events: "
                f"{timing.describe()} = {events / timing.total_cpu:,.0f} events/s of CPU; "
                f"{stored:,} duty findings stored"
            )


def print_calibration() -> None:
    from bench.games import CALIBRATION_LOOP, calibration

    print(
        f"host calibration: {calibration():.3f} s CPU for {CALIBRATION_LOOP:,} turns of a "
        "pure-Python loop (bench/games.py)"
    )


def main(argv: list[str]) -> None:
    if argv and argv[0] == "simulated":
        folder = Path(argv[1]) if len(argv) > 1 else Path(tempfile.gettempdir()) / "bench-platform"
        sessions = int(argv[2]) if len(argv) > 2 else 100_000
        simulated(folder, sessions, int(argv[3]) if len(argv) > 3 else 2)
        print_calibration()
        return
    events = int(argv[0]) if argv else 1_000_000
    accounts = int(argv[1]) if len(argv) > 1 else 100_000
    if "stored" in argv[2:]:
        whole = {}
        for workers in (1, 2):
            timing, stored = stored_rate(events, accounts, workers)
            whole[workers] = timing
            print(
                f"duties stored, --workers {workers}: {events:,} events, {accounts:,} accounts: "
                f"{timing.describe()} = {events / timing.total_cpu:,.0f} events/s of CPU; "
                f"{stored:,} duty findings stored"
            )
        one, _ = stored_rate(1, accounts, 1)
        alone = whole[1].total_cpu - one.total_cpu
        print(
            f"the same accounts and a one-event ledger, --workers 1: {one.describe()}; "
            f"the ledger's events alone: {(events - 1) / alone:,.0f} events/s of CPU"
            if alone > 0
            else "the ledger's events alone: too few to time"
        )
        print_calibration()
        return
    rate = duty_rate(events, accounts)
    print(
        f"duties: {rate.accounts:,} accounts read in {rate.accounts_cpu:.2f} s CPU; "
        f"{rate.events:,} ledger events checked in {rate.cpu:.2f} s CPU = "
        f"{rate.per_second:,.0f} events/s; {rate.findings:,} findings; "
        f"peak RSS {rate.peak_mib:,.0f} MiB"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
