"""整块读取: the ledger read in blocks gives the events and the rejects, line for line, that
the line path gives, however the lines are mangled and wherever the blocks are cut."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.duty_findings import ODD_LINES, _event
from compliance.logs import platform_reader
from compliance.logs.platform_reader import _events, event_blocks, iter_records
from compliance.logs.platform_records import LEDGER

BOM = "\ufeff"
MANGLES = ['\\"', "\\", '"', "{", "}", "\n", "\r", "\r\n", " ", "}\n{", '":', "null", BOM, "\x00"]


def _lines(seed: int, count: int, compact: float) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if rng.random() < 0.1:
            out.append(rng.choice(ODD_LINES))
            continue
        row = _event(rng, i, 40)
        line = json.dumps(row, separators=(",", ":")) if rng.random() < compact else json.dumps(row)
        if rng.random() < 0.08:
            at = rng.randrange(len(line) + 1)
            line = line[:at] + rng.choice(MANGLES) + line[at:]
        if rng.random() < 0.03:
            line = line.replace('"platform"', '"platform": "q", "platform"', 1)
        out.append(line + rng.choice(("\n",) * 12 + ("\r\n", "  \n", "\n\n")))
    return out


def _line_path(path: str, limit: int) -> list:
    return list(_events(path, path, 0, None, limit))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(0, 120),
    compact=st.sampled_from([0.0, 0.5, 1.0]),
    block=st.sampled_from([64, 300, 2048, 1 << 20]),
    small=st.sampled_from([0, 256, 8192]),
    limit=st.sampled_from([200, 400, 1 << 20]),
    bom=st.booleans(),
    last_newline=st.booleans(),
)
def test_blocks_read_what_the_line_path_reads(
    tmp_path, monkeypatch, seed, count, compact, block, small, limit, bom, last_newline
):
    monkeypatch.setattr(platform_reader, "BLOCK_BYTES", block)
    monkeypatch.setattr(platform_reader, "SMALL_BLOCK", small)
    text = "".join(_lines(seed, count, compact))
    if not last_newline:
        text = text.rstrip("\n")
    path = tmp_path / f"ledger-{seed}.jsonl"
    path.write_bytes(((BOM if bom else "") + text).encode("utf-8", "surrogatepass"))
    assert list(iter_records(str(path), LEDGER, limit)) == _line_path(str(path), limit)


def test_a_clean_ledger_comes_in_whole_blocks_of_consecutive_lines(tmp_path):
    rng = random.Random(3)
    rows = [json.dumps(_event(rng, i, 40)) for i in range(500)]
    path = tmp_path / "ledger.jsonl"
    path.write_text("\n".join(rows) + "\n")
    blocks = list(event_blocks(str(path)))
    assert [(first, len(events)) for first, events in blocks] == [(1, 500)]
    assert [e.id for e in blocks[0][1]] == [f"e{i}" for i in range(500)]


@pytest.mark.parametrize(
    "line",
    [
        '{"format":"ledger/1","platform":"p","id":"x","account":"a","type":"login",'
        '"at":"2024-03-01T10:00:00+08:00","ref":"r","ref":"r"}',
        '{"format":"ledger/1","platform":"p","id":"x","account":"a","type":"login",'
        '"at":"2024-03-01T10:00:00+08:00","ref":null}',
        '{"format":"ledger/1","platform":"p","id":"x","account":"a","type":"login",'
        '"at":"2024-03-01T10:00:00"}',
        '{"format":"ledger/1","platform":"p","id":"x","account":"a","type":"recharge",'
        '"at":"2024-03-01T10:00:00+08:00","yuan":"6.000"}',
        '{"format":"ledger/1","platform":"p","id":"x","account":"a","type":"login",'
        '"at":"2024-03-01T10:00:00+08:00"} {"format":"ledger/1"}',
    ],
    ids=["repeated key", "explicit null", "no zone", "three places", "two objects"],
)
def test_one_odd_line_among_clean_ones_is_what_the_line_path_makes_of_it(tmp_path, line):
    rng = random.Random(4)
    rows = [json.dumps(_event(rng, i, 40)) for i in range(300)]
    rows[150] = line
    path = tmp_path / "ledger.jsonl"
    path.write_text("\n".join(rows) + "\n")
    assert list(iter_records(str(path), LEDGER)) == _line_path(str(path), 1 << 20)
