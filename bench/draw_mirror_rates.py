"""信号误报率: the false-positive rates of issue 24's signals at their default parameters.

`python -m bench.draw_mirror_rates [SESSIONS] [POOLS]` (default 5,000 and 1,000), for seeds
1, 2 and 3:

- mirrored gains (check 18): a simulated platform (`compliance simulate --sessions
  SESSIONS --seed S --anomalies 0.01 --platform-records DIR`) audited into a temporary
  SQLite database; the clean accounts are every account of the sessions but the injected
  groups' (the honest look-alikes among them), and a false positive is a clean account
  named in a mirrored-gains finding; every injected group must be found;
- draw frequencies (check 14): POOLS fair pools (the simulator's six-item pool with its
  rare items, 100 to 2,000 paid draws each) through the duties engine; a false positive
  is a pool rejected at α = 0.001. (A draw finding names a pool, never an account.)

docs/platform-duties.md, "Signals: false-positive rates", holds the figures.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli
from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.dutydata import load_duties
from compliance.logs.platform_records import DrawOdds, LedgerEvent
from compliance.service_layer.simulate_mirrors import FAIR
from compliance.service_layer.simulate_platform import write_platform

SEEDS = (1, 2, 3)


def mirrored_rate(sessions: int, seed: int) -> tuple[int, int, int, int]:
    """(clean accounts, clean accounts flagged, injected groups, groups found)."""
    runner = CliRunner()
    with tempfile.TemporaryDirectory(prefix="bench-signals-") as folder:
        root = Path(folder)
        log, records = root / "s.jsonl", root / "platform"
        made = runner.invoke(
            cli,
            ["simulate", "--sessions", str(sessions), "--seed", str(seed), "--anomalies", "0.01"]
            + ["-o", str(log), "--platform-records", str(records)],
        )
        assert made.exit_code == 0, made.output
        injected = set(write_platform(str(log), root / "again", seed, 0.01).injected)
        groups = {s for d, s in injected if d == "mirrored-gains-2007"}
        result = runner.invoke(
            cli,
            ["audit", str(log), "--format", "jsonl", "--db", f"sqlite:///{root / 'a.db'}"]
            + ["--accounts", str(records / "accounts.jsonl")]
            + ["--ledger", str(records / "ledger.jsonl")]
            + ["--platform-config", str(records / "config.jsonl")],
        )
        players = {p["id"] for line in log.open() for p in json.loads(line)["players"]}
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    found = {
        r["subject"]
        for r in rows
        if r["kind"] == "duty" and r["check"] == "mirrored_gains" and r["status"] == "breached"
    }
    dumping = {a for g in groups for a in g.removeprefix("accounts:").split("+")}
    flagged = {a for s in found - groups for a in s.removeprefix("accounts:").split("+")}
    clean = players - dumping
    return len(clean), len(flagged & clean), len(groups), len(groups & found)


def draw_rate(pools: int, seed: int) -> tuple[int, int]:
    """(fair pools, fair pools rejected)."""
    rng = random.Random(seed)
    items, chances = zip(*((k, float(v)) for k, v in FAIR.items()), strict=True)
    odds = [
        DrawOdds(
            format="platform-config/1", platform="p", pool="box", item=k, probability=Decimal(v)
        )
        for k, v in FAIR.items()
    ]
    book, rejected = load_duties(), 0
    at = datetime.fromisoformat("2025-06-01T12:00:00+08:00")
    for _ in range(pools):
        audit = DutyAudit(book, DutyOptions(date(2025, 12, 1)), None, odds, True)
        for n, item in enumerate(rng.choices(items, chances, k=rng.randint(100, 2000))):
            audit.event(
                LedgerEvent(
                    format="ledger/1",
                    platform="p",
                    id=f"d{n}",
                    account=f"a{n % 50}",
                    type="draw",
                    at=at,
                    yuan=Decimal(6),
                    pool="box",
                    result=item,
                )
            )
        rejected += any(
            f.check == "draw_frequencies" and f.status == "breached" for f in audit.finish()
        )
    return pools, rejected


def main(argv: list[str]) -> None:
    sessions = int(argv[0]) if argv else 5000
    pools = int(argv[1]) if len(argv) > 1 else 1000
    for seed in SEEDS:
        clean, flagged, groups, found = mirrored_rate(sessions, seed)
        tested, rejected = draw_rate(pools, seed)
        print(
            f"seed {seed}: mirrored gains {flagged} of {clean:,} clean accounts flagged, "
            f"{found} of {groups} injected groups found; draw frequencies {rejected} of "
            f"{tested:,} fair pools rejected"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
