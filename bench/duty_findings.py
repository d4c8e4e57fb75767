"""义务结果对照: the duty findings of a varied ledger, written out to be compared byte for
byte between two trees (a change meant to be faster must find the same).

`python bench/duty_findings.py OUT [EVENTS]` (run as a script, so that `compliance` is
whichever tree the interpreter's venv installs) writes into OUT:

- `ledger.txt`: a varied ledger (default 200,000 events: every ledger check, rejects of
  every kind, three zones, persons with several accounts, blank, CRLF and spaced lines,
  escapes, a byte-order mark) checked with the whole book in one pass and in 2 and 3
  parts (every check splits since the signals have `part`/`absorb`): every finding as
  JSON, the statuses, the rejects (about 400 MB at 200,000 events);
- `stored.txt`: the simulated platform (`compliance simulate --platform-records
  --guests --anomalies 0.05`) audited into a fresh SQLite database with one process
  and with `--workers 2`: the stored duty findings, statuses and rejects.

Compare two trees with `diff -r OUT_A OUT_B` (docs/performance.md, "Platform duties").
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
from datetime import date
from pathlib import Path

import msgspec

from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.dutydata import load_duties
from compliance.logs.platform_reader import Record, event_blocks, read_records
from compliance.logs.platform_records import ACCOUNTS, CONFIG
from compliance.logs.reader import Reject
from compliance.service_layer.duty_workers import PartSpec, ledger_part

TODAY = date(2025, 1, 1)
TYPES = (
    ["recharge"] * 8
    + ["confirmation"] * 6
    + ["settlement"] * 8
    + ["room_card_purchase"] * 2
    + ["draw"] * 2
    + ["login"] * 2
    + ["grant", "transfer", "withdrawal", "redemption", "room_card_use", "refund"]
    + ["fraud_flag", "reverification", "restriction"]
)
ZONES = ("+08:00", "+08:00", "+08:00", "Z", "-05:00")
CONFIG_ROWS = [
    {"kind": "mode", "platform": "p", "mode": "m", "round_cap": 400, "day_cap": 900},
    {"kind": "mode", "platform": "p", "mode": "free", "stakes_points": False},
    {"kind": "mode", "platform": "q", "mode": "m", "round_cap": 300},
    {"kind": "recharge_cap", "platform": "p", "yuan": "50"},
    {"kind": "recharge_cap", "platform": "p", "yuan": "30", "game": "m"},
    {"kind": "features", "platform": "p", "transfers": False},
    {"kind": "features", "platform": "q", "transfers": True, "draws": True},
    {"kind": "draw", "platform": "q", "pool": "gold", "item": "a", "probability": "0.7"},
    {"kind": "draw", "platform": "q", "pool": "gold", "item": "b", "probability": "0.3"},
    {"kind": "retention", "platform": "p", "record": "recharges", "oldest": "2024-01-01"},
    {"kind": "retention", "platform": "q", "record": "logins", "oldest": "2024-11-01"},
]


def _accounts(rng: random.Random, accounts: int):
    for i in range(accounts):
        row: dict = {"format": "accounts/1", "platform": rng.choice("pq"), "id": f"a{i}"}
        if rng.random() < 0.9:
            row["person"] = f"p{i // 3}"
        if rng.random() < 0.95:
            row["birth_date"] = f"{rng.choice((1980, 2008, 2009, 2012, 2016))}-05-1{i % 10}"
        if rng.random() < 0.8:
            status = rng.choice(("verified", "verified", "verified", "pending", "unverified"))
            row["verification"] = {"status": status, "at": "2021-01-01T00:00:00+08:00"}
        if rng.random() < 0.6:
            row["real_name"] = f"n{i // 3}"
        row["kind"] = rng.choice(("player",) * 12 + ("agent", "guest"))
        if rng.random() < 0.3:
            row["devices"] = [f"d{rng.randrange(accounts // 4)}"]
        yield row


def _event(rng: random.Random, i: int, accounts: int) -> dict:
    kind = rng.choice(TYPES)
    month, day, hour = rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23)
    row: dict = {
        "format": "ledger/1",
        "platform": "p" if rng.random() < 0.7 else "q",
        "id": f"e{i}",
        "account": f"a{rng.randrange(accounts + 30)}",
        "type": kind,
        "at": f"2024-{month:02d}-{day:02d}T{hour:02d}:{rng.choice((0, 30)):02d}:00"
        f"{rng.choice(ZONES)}",
    }
    if kind in ("recharge", "room_card_purchase", "draw", "withdrawal", "refund"):
        row["yuan"] = rng.choice(("6", "30", "50", "50.01", "68", "6.5", "200", "0"))
    if kind in ("recharge", "grant", "transfer", "draw", "withdrawal", "redemption"):
        row["units"] = rng.choice((60, 61, 300, 1000))
        row["currency"] = rng.choice(("diamond", "diamond", "points", "room_card"))
    if kind == "recharge" and rng.random() < 0.3:
        row["mode"] = "m"
    if kind in ("recharge", "room_card_purchase") and rng.random() < 0.2:
        row["payer"] = f"n{rng.randrange(accounts // 3)}"
    if kind == "settlement":
        row["units"] = rng.randint(-600, 600)
        row["mode"] = rng.choice(("m", "m", "m", "free", "other"))
    if kind == "confirmation":
        row["ref"] = f"e{max(0, i - rng.randint(1, 4))}"
    if kind == "transfer":
        row["counterpart"] = rng.choice(("a1", "a2", row["account"]))
    if kind == "grant":
        row["reason"] = rng.choice(("login", "first_recharge", "compensation"))
    if kind == "draw":
        row["pool"], row["result"] = "gold", rng.choice("ab")
    if kind in ("login", "recharge") and rng.random() < 0.5:
        row["device"] = f"d{rng.randrange(accounts // 4)}"
        row["region"] = rng.choice(("430000", "110000"))
    if kind == "room_card_use":
        row["session_id"], row["units"] = f"s{rng.randrange(50)}", 1
    return row


ODD_LINES = [
    '{"broken": \n',
    "\n",
    "   \n",
    '{"format": "ledger/1", "platform": "p", "id": "x1", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00", "yuan": "6"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x2", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan": "6.001"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x3", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan": "6", "yuan": "7"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x4", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan" : "6", "yuan": "70"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x\\u0035", "account": "a1",'
    ' "type": "login", "at": "2024-03-01T10:00:00+08:00"}\n',
    '{"format":"ledger/1","platform":"p","id":"x6","account":"a2","type":"recharge",'
    '"at":"2024-03-01T10:00:00+08:00","yuan":"68","units":60,"currency":"diamond"}\r\n',
    '{"format": "ledger/1", "platform": "p", "id": "x7", "account": "a1", "type": "nope",'
    ' "at": "2024-03-01T10:00:00+08:00"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x8", "account": "a1", "type": "login",'
    ' "at": "2024-03-01T10:00:00+08:00", "ref": null, "ref": null}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x9", "account": "a3", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan": 36, "units": 60, "currency": "diamond"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x10", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan": "-1"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x11", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan": "NaN"}\n',
    '  {"format": "ledger/1", "platform": "p", "id": "x12", "account": "a4", "type": "login",'
    ' "at": "2024-03-01T10:00:00+08:00"}  \n',
    '{"format": "ledger/1", "platform": "p", "id": "x13", "account": "a1", "type": "login",'
    ' "at": "2024-03-01T10:00:00+08:00"} {"format": "ledger/1"}\n',
    "[1, 2]\n",
    '{"format": "ledger/1", "platform": "p", "id": "x14", "account": "a1", "type": "login",'
    ' "at": "2024-03-01T10:00:00+08:00", "extra": 1}\n',
    '{"format": "ledger/1", "platform": "p", "id": "' + "y" * 400 + '", "account": "a1",'
    ' "type": "login", "at": "2024-03-01T10:00:00+08:00"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x15", "account": "a1", "type": "recharge",'
    ' "at": "2024-03-01T10:00:00+08:00", "yuan": "6.000"}\n',
    '{"format": "ledger/1", "platform": "p", "id": "x16", "account": "a5", "type": "recharge",'
    ' "at": "1991-06-01T10:00:00+08:00", "yuan": "6.00", "units": 60, "currency": "diamond"}\n',
]


def write_varied(folder: Path, events: int, accounts: int = 3000, seed: int = 5) -> None:
    rng = random.Random(seed)
    with (folder / "accounts.jsonl").open("w") as out:
        for row in _accounts(rng, accounts):
            out.write(json.dumps(row) + "\n")
    with (folder / "config.jsonl").open("w") as out:
        for row in CONFIG_ROWS:
            out.write(json.dumps({"format": "platform-config/1"} | row) + "\n")
    with (folder / "ledger.jsonl").open("w", newline="") as out:
        out.write("\ufeff")
        for i in range(events):
            if rng.random() < 0.003:
                out.write(rng.choice(ODD_LINES))
                continue
            row = _event(rng, i, accounts)
            if rng.random() < 0.02:
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
            else:
                out.write(json.dumps(row) + "\n")
        out.write(json.dumps(_event(rng, events, accounts)))  # no newline at the end


def _held(folder: Path, kind: str, name: str) -> list:
    return [r.record for r in read_records(str(folder / name), kind) if isinstance(r, Record)]


def _dump(out, title: str, audit: DutyAudit, rejects: list) -> None:
    out.write(f"== {title}\n")
    for f in audit.finish():
        out.write(msgspec.json.encode(f).decode() + "\n")
    out.write(json.dumps(audit.statuses()) + "\n")
    for r in rejects:
        out.write(f"reject {r.file}:{r.line} {r.session_id} {r.reason}\n")


def _driver(folder: Path, book, options: DutyOptions) -> DutyAudit:
    """The audit that one pass feeds, or that the parts are absorbed into."""
    held = _held(folder, ACCOUNTS, "accounts.jsonl"), _held(folder, CONFIG, "config.jsonl")
    return DutyAudit(book, options, *held, True)


def _one_pass(folder: Path, audit: DutyAudit) -> list:
    rejects = []
    for item in event_blocks(str(folder / "ledger.jsonl")):
        if isinstance(item, Reject):
            rejects.append(item)
        else:
            audit.events(*item)
    return rejects


def _in_parts(folder: Path, book, options: DutyOptions, audit: DutyAudit, n: int) -> list:
    files = (str(folder / name) for name in ("accounts.jsonl", "config.jsonl", "ledger.jsonl"))
    spec = PartSpec(book, options, *files, "ledger.jsonl", 1 << 20, n, None, 1)
    rejects = []
    for me in range(n):
        result = ledger_part(spec, me)
        audit.absorb(result.part)
        rejects.extend(result.unstored)
    return sorted(rejects, key=lambda r: r.line)


def ledger_findings(folder: Path, out) -> None:
    book = load_duties()
    for n in (1, 2, 3):
        for per_account in (False, True):
            options = DutyOptions(TODAY, per_account)
            audit = _driver(folder, book, options)
            if n == 1:
                rejects = _one_pass(folder, audit)
                title = f"whole book, per account {per_account}, one pass"
            else:
                rejects = _in_parts(folder, book, options, audit, n)
                title = f"whole book in {n} parts, per account {per_account}"
            _dump(out, title, audit, rejects)


def stored_findings(folder: Path, out) -> None:
    from click.testing import CliRunner

    from compliance.cli import cli
    from compliance.db.engine import make_engine
    from compliance.db.unit_of_work import SqlUnitOfWork

    runner = CliRunner()
    sessions, records = folder / "s.jsonl", folder / "platform"
    made = runner.invoke(
        cli,
        [
            "simulate",
            *("--sessions", "3000", "--anomalies", "0.05", "--seed", "4", "--guests"),
            *("-o", str(sessions), "--platform-records", str(records)),
        ],
    )
    assert made.exit_code == 0, made.output
    for workers in ("1", "2"):
        db = folder / f"w{workers}.db"
        result = runner.invoke(
            cli,
            [
                "audit",
                str(sessions),
                str(records / "guests.jsonl"),
                *("--accounts", str(records / "accounts.jsonl")),
                *("--ledger", str(records / "ledger.jsonl")),
                *("--platform-config", str(records / "config.jsonl")),
                *("--format", "jsonl", "--db", f"sqlite:///{db}", "--workers", workers),
            ],
        )
        assert result.exit_code in (0, 3), result.output
        out.write(f"== stored, --workers {workers}\n")
        with sqlite3.connect(db) as conn:
            [(run_id,)] = conn.execute("SELECT max(id) FROM audit_runs")
            rejects = conn.execute(
                "SELECT file, line, session_id, reason FROM rejects WHERE run_id = ?"
                " ORDER BY file, line",
                (run_id,),
            ).fetchall()
        engine = make_engine(f"sqlite:///{db}")
        with SqlUnitOfWork(engine) as uow:
            for f in uow.duties.findings(run_id):
                out.write(msgspec.json.encode(f).decode() + "\n")
            out.write(json.dumps(uow.duties.statuses(run_id)) + "\n")
        engine.dispose()
        for file, line, sid, reason in rejects:
            out.write(f"reject {Path(file).name}:{line} {sid} {reason}\n")


def main(argv: list[str]) -> None:
    target = Path(argv[0])
    events = int(argv[1]) if len(argv) > 1 else 200_000
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="duty-findings-") as tmp:
        folder = Path(tmp)
        write_varied(folder, events)
        with (target / "ledger.txt").open("w") as out:
            ledger_findings(folder, out)
        with (target / "stored.txt").open("w") as out:
            stored_findings(folder, out)


if __name__ == "__main__":
    main(sys.argv[1:])
