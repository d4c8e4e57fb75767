"""分块筛选: a worker's picked lines of a block read as the line path reads them, however the
lines are mangled and wherever the blocks are cut."""

from __future__ import annotations

import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.logs import platform_reader
from compliance.logs.ledger_sift import sifted_blocks
from compliance.logs.reader import Reject
from compliance.service_layer.duty_workers import _owner
from tests.unit.duties.test_ledger_blocks import BOM, _line_path, _lines


def _picks(account: str) -> bool:
    return zlib.crc32(account.encode()) % 2 == 0


def _choose(owners) -> list[int]:
    return [i for i, o in enumerate(owners) if _picks(o.account)]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(0, 120),
    compact=st.sampled_from([0.0, 0.5, 1.0]),
    block=st.sampled_from([64, 300, 2048, 1 << 20]),
    limit=st.sampled_from([200, 400, 1 << 20]),
    bom=st.booleans(),
)
def test_the_picked_lines_read_what_the_line_path_reads(
    tmp_path, monkeypatch, seed, count, compact, block, limit, bom
):
    monkeypatch.setattr(platform_reader, "BLOCK_BYTES", block)
    text = "".join(_lines(seed, count, compact))
    path = tmp_path / f"ledger-{seed}.jsonl"
    path.write_bytes(((BOM if bom else "") + text).encode("utf-8", "surrogatepass"))
    expected = {}
    for item in _line_path(str(path), limit):
        line = item.line if isinstance(item, Reject) else item[0]
        expected[line] = item
    got = []
    for numbers, found in sifted_blocks(str(path), _owner, _choose, limit):
        if isinstance(numbers, Reject):
            got.append((numbers.line, numbers))
        else:
            got.extend((n, (n, e)) for n, e in zip(numbers, found, strict=True))
    assert [line for line, _ in got] == sorted({line for line, _ in got})
    assert len({line for line, _ in got}) == len(got)
    for line, item in got:
        assert expected[line] == item
    lines = {line for line, _ in got}
    for line, item in expected.items():
        if not isinstance(item, Reject) and _picks(item[1].account):
            assert line in lines
