"""账户整块读取: the accounts read in blocks give the accounts and the rejects, line for line,
that the line path gives, however the lines are mangled and wherever the blocks are cut."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.logs import platform_reader
from compliance.logs.platform_reader import iter_records, whole_accounts
from compliance.logs.platform_records import ACCOUNTS

BOM = "\ufeff"
MANGLES = ['\\"', "\\", '"', "{", "}", "\n", "\r", "\r\n", " ", "}\n{", '":', "null", BOM, "\x00"]
ODD = [
    '{"format": "accounts/1", "platform": "p", "id": "a", "id": "b"}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "kind": "player", "kind": "player"}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "kind": "agent", "kind" : "player"}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "devices": [], "devices": []}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "kind": "player", "id": "b"}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "person": null}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "birth_date": "1800-01-01"}',
    '{"format": "accounts/1", "platform": "p", "id": "a",'
    ' "verification": {"status": "verified", "status": "failed"}}',
    '{"format": "accounts/1", "platform": "p", "id": "a",'
    ' "verification": {"status": "verified", "at": "2021-01-01T00:00:00"}}',
    '{"format": "accounts/1", "platform": "p", "id": "\\u0061"}',
    '{"format": "accounts/1", "platform": "p", "id": "a"}{"format": "accounts/1"}',
    "[]",
    "",
    '{"format": "accounts/1", "platform": "p", "id": "a", "kind": "player"}',
    '{"format": "accounts/1", "platform": "p", "id": "a", "devices": [ ]}',
]
NAMED_TWICE = 9  # ODD's first lines: a key named twice, a null, a date or zone refused


def _account(rng: random.Random, i: int) -> dict:
    row: dict = {"format": "accounts/1", "platform": "p", "id": f"a{i}"}
    if rng.random() < 0.8:
        row["person"] = f"p{i // 2}"
    if rng.random() < 0.3:
        row["kind"] = rng.choice(("agent", "guest"))
    if rng.random() < 0.7:
        row["verification"] = {"status": "verified", "at": "2021-01-01T00:00:00+08:00"}
    if rng.random() < 0.7:
        row["birth_date"] = f"{rng.choice((1980, 2008, 2012))}-03-0{rng.randint(1, 9)}"
    if rng.random() < 0.2:
        row["devices"] = [f"d{i}"]
    return row


def _lines(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if rng.random() < 0.1:
            line = rng.choice(ODD)
        else:
            row = _account(rng, i)
            line = json.dumps(row, separators=(",", ":")) if rng.random() < 0.5 else json.dumps(row)
        if rng.random() < 0.08:
            at = rng.randrange(len(line) + 1)
            line = line[:at] + rng.choice(MANGLES) + line[at:]
        out.append(line + rng.choice(("\n",) * 12 + ("\r\n", "  \n", "\n\n")))
    return out


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(0, 120),
    block=st.sampled_from([64, 300, 2048, 1 << 20]),
    limit=st.sampled_from([200, 400, 1 << 20]),
    bom=st.booleans(),
    last_newline=st.booleans(),
)
def test_blocks_read_what_the_line_path_reads(
    tmp_path, monkeypatch, seed, count, block, limit, bom, last_newline
):
    monkeypatch.setattr(platform_reader, "BLOCK_BYTES", block)
    text = "".join(_lines(seed, count))
    if not last_newline:
        text = text.rstrip("\n")
    path = tmp_path / f"accounts-{seed}.jsonl"
    path.write_bytes(((BOM if bom else "") + text).encode("utf-8", "surrogatepass"))
    size = path.stat().st_size
    lines = list(iter_records(str(path), ACCOUNTS, limit, end=size))  # a range: the line path
    assert list(iter_records(str(path), ACCOUNTS, limit)) == lines


def test_clean_accounts_come_in_one_block():
    rng = random.Random(5)
    block = "".join(json.dumps(_account(rng, i)) + "\n" for i in range(300)).encode()
    accounts = whole_accounts(block)
    assert accounts is not None and [a.id for a in accounts] == [f"a{i}" for i in range(300)]


def test_a_block_with_an_account_named_twice_is_left_to_the_line_path():
    for odd in ODD[:NAMED_TWICE]:
        assert whole_accounts((odd + "\n").encode()) is None


def test_defaults_named_once_a_line_stay_in_the_block():
    """As the simulator and many exports write them: `"kind": "player"` and `"devices": []`."""
    rng = random.Random(7)
    rows = [_account(rng, i) | {"kind": "player"} for i in range(200)]
    rows += [{"format": "accounts/1", "platform": "p", "id": "z", "devices": []}]
    block = "".join(json.dumps(row) + "\n" for row in rows).encode()
    accounts = whole_accounts(block)
    assert accounts is not None and len(accounts) == 201
    assert {a.kind for a in accounts} == {"player"} and accounts[-1].devices == []
