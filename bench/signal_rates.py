"""信号误报率: checks 4, 17, 18 (coin traders) and 20 on simulated platforms, the injected
patterns found and the false positives on the clean part, per seed.

`python -m bench.signal_rates [SESSIONS] [SEEDS] [ANOMALIES]` (default 20,000 sessions,
seeds 1,2,3, anomalies 0.01) simulates each platform (`compliance simulate
--platform-records`), runs the duty checks on it in this process (no database, no
session judging: the signals read only the sessions' rooms and players and the
records), and prints, per signal and seed, the injected cases found and the clean
accounts flagged. An account is clean if no injected case names it.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from datetime import date
from pathlib import Path

from compliance.domain.duties.engine import DutyAudit, DutyOptions, Play
from compliance.dutydata import load_duties
from compliance.logs.platform_reader import Record, read_records
from compliance.logs.platform_records import ACCOUNTS, CONFIG, LEDGER
from compliance.logs.reader import Located, read_sessions
from compliance.service_layer.simulate import SimulationSpec, write_log
from compliance.service_layer.simulate_platform import write_platform

SIGNALS = (
    "account-resale-signal",
    "agent-own-table-signal",
    "coin-trader-signal",
    "fraud-reverify-signal",
)


def _records(path: Path, kind: str) -> list:
    return [r.record for r in read_records(str(path), kind) if isinstance(r, Record)]


def measure(sessions: int, seed: int, anomalies: float, folder: Path) -> dict:
    log_path = folder / f"s{seed}.jsonl"
    write_log(SimulationSpec(sessions=sessions, seed=seed), str(log_path))
    made = write_platform(str(log_path), folder / f"p{seed}", seed, anomalies)
    records = folder / f"p{seed}"
    accounts = _records(records / "accounts.jsonl", ACCOUNTS)
    engine = DutyAudit(
        load_duties(),
        DutyOptions(date(2026, 12, 1)),
        accounts,
        _records(records / "config.jsonl", CONFIG),
        True,
    )
    for item in read_sessions(str(log_path)):
        if isinstance(item, Located):
            s = item.session
            owner = s.owner.id if s.owner else None
            ids = tuple(p.id for p in s.players)
            engine.session(s.platform, s.session_id, s.room_id, owner, ids, s.started_at)
            for p in s.players:
                engine.play(Play(s.platform, p.id, s.session_id, s.started_at, s.ended_at))
    naive = Naive({a.id: a for a in accounts})
    for item in read_sessions(str(log_path)):
        if isinstance(item, Located):
            naive.played.update(p.id for p in item.session.players)
    for event in _records(records / "ledger.jsonl", LEDGER):
        engine.event(event)
        naive.see(event)
    found = {(f.duty, f.subject) for f in engine.finish() if f.status == "breached"}
    injected = set(made.injected)
    named = {subject.removeprefix("account:") for _, subject in injected}
    clean = [a.id for a in accounts if a.id not in named]
    out = {"accounts": len(accounts), "clean": len(clean)}
    for duty in SIGNALS:
        planted = {i for i in injected if i[0] == duty}
        flagged = {f for f in found if f[0] == duty}
        false = Counter(s.removeprefix("account:") in named for _, s in flagged - planted)
        naive_false = len(naive.flagged(duty) - named)
        out[duty] = (len(planted & flagged), len(planted), false[False], naive_false)
    return out


class Naive:
    """The rules a look-alike is built to trip: any new device, payer or region; an agent
    who used room cards and played; eight senders in and anything out; any fraud flag."""

    def __init__(self, accounts: dict):
        self.accounts = accounts
        self.played: set[str] = set()
        self.seen: dict[tuple[str, str], set[str]] = {}
        self.cards: set[str] = set()
        self.senders: dict[str, set[str]] = {}
        self.out: set[str] = set()
        self.flags: set[str] = set()

    def see(self, e) -> None:
        for dim in ("device", "payer", "region"):
            value = getattr(e, dim)
            if value is not None:
                self.seen.setdefault((e.account, dim), set()).add(value)
        if e.type == "room_card_use":
            self.cards.add(e.account)
        if e.type == "transfer" and e.counterpart:
            self.senders.setdefault(e.counterpart, set()).add(e.account)
        if e.type in ("transfer", "withdrawal", "redemption"):
            self.out.add(e.account)
        if e.type == "fraud_flag":
            self.flags.add(e.account)

    def flagged(self, duty: str) -> set[str]:
        if duty == "account-resale-signal":
            return {a for (a, _), values in self.seen.items() if len(values) > 1}
        if duty == "agent-own-table-signal":
            agents = {a for a, r in self.accounts.items() if r.kind == "agent"}
            return agents & self.cards & self.played
        if duty == "coin-trader-signal":
            return {a for a, s in self.senders.items() if len(s) >= 8} & self.out
        return self.flags


def main(argv: list[str]) -> None:
    sessions = int(argv[0]) if argv else 20_000
    seeds = [int(s) for s in argv[1].split(",")] if len(argv) > 1 else [1, 2, 3]
    anomalies = float(argv[2]) if len(argv) > 2 else 0.01
    totals: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            got = measure(sessions, seed, anomalies, Path(tmp))
            totals["clean"] += got["clean"]
            print(f"seed {seed}: {got['accounts']} accounts, {got['clean']} clean")
            for duty in SIGNALS:
                hit, planted, false, naive = got[duty]
                totals[duty] += false
                totals[f"naive {duty}"] += naive
                print(
                    f"  {duty}: injected {hit}/{planted} found; clean accounts flagged {false} "
                    f"(a naive rule: {naive})"
                )
    for duty in SIGNALS:
        rate = totals[duty] / totals["clean"] if totals["clean"] else 0.0
        print(
            f"{duty}: {totals[duty]} of {totals['clean']} clean accounts ({rate:.5f}); "
            f"a naive rule {totals[f'naive {duty}']}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
