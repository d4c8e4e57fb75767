"""The ledger checked in parts by person gives the findings of one pass, whatever the
number of parts: a varied ledger (minors, persons with several accounts, confirmations
on other accounts, unit prices that drift, draws, rejects, and the signals' patterns:
devices, payers and regions that change, fraud flags, coin traders' small transfers,
agents' room cards, a rigged draw pool) split 2 and 3 ways, with the shipped book."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime

import msgspec
import pytest

from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.domain.duties.partition import Router, bucket
from compliance.dutydata import load_duties
from compliance.logs.platform_reader import Record, read_records
from compliance.logs.platform_records import ACCOUNTS, CONFIG, LEDGER, Account
from compliance.service_layer.duty_workers import PartSpec, ledger_part

BOOK = load_duties()
TYPES = ["recharge"] * 6 + ["confirmation"] * 5 + ["settlement"] * 6 + ["transfer"] * 6 + [
    "grant", "draw", "draw", "draw", "draw", "withdrawal", "redemption", "room_card_purchase", "login", "login",
    "room_card_use", "room_card_use", "fraud_flag", "reverification", "restriction",
]  # fmt: skip
CONFIG_ROWS = [
    {"kind": "mode", "platform": "p", "mode": "m", "round_cap": 400, "day_cap": 900},
    {"kind": "recharge_cap", "platform": "p", "yuan": "50"},
    {"kind": "features", "platform": "p", "transfers": False},
    {"kind": "draw", "platform": "p", "pool": "gold", "item": "a", "probability": "0.5"},
    {"kind": "draw", "platform": "p", "pool": "gold", "item": "b", "probability": "0.5"},
    {"kind": "draw", "platform": "p", "pool": "jade", "item": "a", "probability": "0.9"},
    {"kind": "draw", "platform": "p", "pool": "jade", "item": "b", "probability": "0.1"},
    {"kind": "draw", "platform": "q", "pool": "gold", "item": "a", "probability": "1"},
]
AGENTS = 40  # a0 … a39 are agents
SESSIONS = 60


def write(folder, events=4000, accounts=600, seed=3):
    rng = random.Random(seed)
    with (folder / "accounts.jsonl").open("w") as out:
        for i in range(accounts):
            row = {"format": "accounts/1", "platform": rng.choice("pq"), "id": f"a{i}"}
            if rng.random() < 0.9:
                row["person"] = f"p{i // 3}"
            if rng.random() < 0.95:
                row["birth_date"] = f"{rng.choice((1980, 2008, 2012, 2016))}-05-1{i % 10}"
            if i < AGENTS:
                row["kind"] = "agent"
            out.write(json.dumps(row) + "\n")
    with (folder / "config.jsonl").open("w") as out:
        for row in CONFIG_ROWS:
            out.write(json.dumps({"format": "platform-config/1"} | row) + "\n")
    with (folder / "ledger.jsonl").open("w") as out:
        for i in range(events):
            kind = rng.choice(TYPES)
            row = {
                "format": "ledger/1",
                "platform": "p" if rng.random() < 0.7 else "q",
                "id": f"e{i}",
                "account": f"a{rng.randrange(accounts + 30)}",
                "type": kind,
                "at": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                f"{rng.randint(0, 23):02d}:00:00{rng.choice(('+08:00', '+08:00', 'Z'))}",
            }
            if kind in ("recharge", "room_card_purchase", "draw", "withdrawal"):
                row["yuan"] = rng.choice(("6", "30", "50", "50.01", "68", "6.5"))
            if kind in ("recharge", "grant", "transfer", "draw", "settlement"):
                row["units"] = rng.choice((60, 61, 300)) if kind != "settlement" else 450
                row["currency"] = rng.choice(("diamond", "points"))
            if kind == "settlement":
                row["units"], row["mode"] = rng.randint(-600, 600), "m"
            if kind == "confirmation":
                row["ref"] = f"e{max(0, i - rng.randint(1, 4))}"
            if kind == "transfer":
                row["counterpart"] = f"a{rng.randrange(5)}"  # a few receivers of many senders
                row["units"] = rng.choice((60, 300, 1500, 2500))
                row["at"] = f"2024-03-{rng.randint(1, 28):02d}T10:00:00+08:00"
            if kind in ("transfer", "withdrawal") and rng.random() < 0.1:
                row["account"], row["units"] = f"a{rng.randrange(5)}", 50000  # a trader's sale
                row["at"] = f"2024-03-{rng.randint(1, 28):02d}T11:00:00+08:00"
            if kind in ("login", "recharge"):
                row["device"] = f"d{rng.randrange(3)}"
                row["region"] = rng.choice(("11", "31", "44"))
                row["payer"] = f"payer{rng.randrange(3)}" if kind == "recharge" else None
            if kind == "draw":
                row["pool"] = rng.choice(("gold", "jade", "jade", None))
                row["result"] = "a" if rng.random() < 0.7 else "b"
            if kind == "room_card_use":
                table = rng.randrange(SESSIONS)
                row["session_id"] = f"s{table}"
                row["account"] = f"a{table % 10 if rng.random() < 0.5 else rng.randrange(AGENTS)}"
            out.write(json.dumps(row) + "\n" if rng.random() > 0.002 else '{"broken": \n')


def sessions(audit, seed=5):
    """Sessions with agents at their tables (check 17 reads their players)."""
    rng = random.Random(seed)
    for i in range(SESSIONS):
        players = [f"a{i % 10}", f"a{rng.randrange(600)}", f"a{rng.randrange(600)}"]
        start = datetime(2024, rng.randint(3, 4), rng.randint(1, 28), 12, tzinfo=UTC)
        audit.session(rng.choice("pq"), f"s{i}", f"r{i % 7}", players[0], players, start)


def one_pass(folder, options):
    accounts = [r.record for r in read_records(str(folder / "accounts.jsonl"), ACCOUNTS)]
    config = [r.record for r in read_records(str(folder / "config.jsonl"), CONFIG)]
    audit = DutyAudit(BOOK, options, accounts, config, True)
    sessions(audit)
    for item in read_records(str(folder / "ledger.jsonl"), LEDGER):
        if isinstance(item, Record):
            audit.event(item.record, item.line)
    return audit


def in_parts(folder, options, n):
    accounts = [r.record for r in read_records(str(folder / "accounts.jsonl"), ACCOUNTS)]
    config = [r.record for r in read_records(str(folder / "config.jsonl"), CONFIG)]
    audit = DutyAudit(BOOK, options, accounts, config, True)
    sessions(audit)
    spec = PartSpec(
        BOOK,
        options,
        str(folder / "accounts.jsonl"),
        str(folder / "config.jsonl"),
        str(folder / "ledger.jsonl"),
        "ledger.jsonl",
        1 << 20,
        n,
        None,
        1,
        audit.signals.agents.sessions,
    )
    parts = [ledger_part(spec, me) for me in range(n)]
    for part in parts:
        audit.absorb(part.part)
    return audit, parts


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("per_account", [False, True], ids=["per-person", "per-account"])
def test_the_parts_give_the_findings_of_one_pass(tmp_path, n, per_account):
    write(tmp_path)
    options = DutyOptions(date(2025, 1, 1), per_account)
    whole = one_pass(tmp_path, options)
    split, parts = in_parts(tmp_path, options, n)
    expected = [msgspec.json.encode(f) for f in whole.finish()]
    assert [msgspec.json.encode(f) for f in split.finish()] == expected
    assert split.statuses() == whole.statuses()
    assert {
        "unit-price-2009",
        "recharge-confirmation-2016",
        "minor-pay-under-8-2019",
        "account-resale-signal",
        "fraud-reverify-signal",
        "draw-frequencies-2016",
        "agent-own-table-signal",
        "coin-trader-signal",
    } <= {json.loads(f)["duty"] for f in expected}
    assert sum(p.records for p in parts) + sum(p.rejects for p in parts) == 4000
    assert all(p.records for p in parts)


def test_a_persons_accounts_go_to_one_worker():
    accounts = [
        Account(format="accounts/1", platform="p", id=f"a{i}", person=f"p{i // 4}")
        for i in range(400)
    ]
    owners: dict[str, set[int]] = {}
    for me in range(3):
        router = Router(3, me)
        for a in router.take(accounts):
            owners.setdefault(a.person or "", set()).add(me)
    assert len(owners) == 100 and all(len(mine) == 1 for mine in owners.values())
    assert {bucket("p", p, 3) for p in owners} == {0, 1, 2}
