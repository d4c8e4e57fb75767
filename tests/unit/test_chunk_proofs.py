"""`reader.ChunkProofs`: a log's keys proven a chunk of lines at a time, with the same
sessions and the same rejects as each line checked on its own."""

from __future__ import annotations

import contextlib
import functools
import re
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DecodeError
from compliance.logs import distinct_keys, reader
from compliance.logs.distinct_keys import ChunkProofs
from compliance.logs.reader import Located, duplicate_key, sessions_in
from compliance.service_layer.settle import sessions_to_settle
from compliance.service_layer.simulate import SimulationSpec, write_log
from compliance.streams import BOM

_KEY = re.compile(rb'"([a-z_]+)":')


@functools.cache
def _lines() -> tuple[bytes, ...]:
    """Short simulated sessions of four games, one line each."""
    out: list[bytes] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in ("douniu", "bianselong", "chexuan", "yuhuan"):
            path = Path(tmp) / f"{game}.jsonl"
            write_log(SimulationSpec(games=(game,), sessions=2, seed=9), str(path))
            out.extend(path.read_bytes().splitlines())
    return tuple(out)


def _twice(line: bytes, nth: int) -> bytes:
    """The line with its `nth` key (cycling, at whatever depth) named once more before it."""
    found = list(_KEY.finditer(line))
    hit = found[nth % len(found)]
    return line[: hit.start()] + hit.group(0) + b"0," + line[hit.start() :]


MUTATIONS = {
    "clean": lambda line, n: line,
    "a key twice": _twice,
    "cut short": lambda line, n: line[: max(1, len(line) - 1 - n % 40)],
    "an escape": lambda line, n: line.replace(b'"sim"', b'"s\\u0069m"', 1),
    "a space before a colon": lambda line, n: line.replace(b'":', b'" :', 1),
    "an odd quote": lambda line, n: line.replace(b'"sim"', b'"s"im"', 1),
    "not UTF-8": lambda line, n: line.replace(b'"sim"', b'"s\xffm"', 1),
    "blank before": lambda line, n: b"  \r\n" + line,
}
LOGS = st.lists(
    st.tuples(st.integers(0, 7), st.sampled_from(sorted(MUTATIONS)), st.integers(0, 400)),
    min_size=1,
    max_size=12,
)


def _items(data: bytes, chunk: int | None):
    """What `sessions_in` gives: chunk proofs of `chunk` bytes, or (None) none at all."""
    with (
        mock.patch.object(reader, "CHUNK_PROOFS_FROM", 0),
        mock.patch.object(reader, "chunk_proofs", return_value=None)
        if chunk is None
        else contextlib.nullcontext(),
        mock.patch.object(distinct_keys, "PROOF_CHUNK", chunk or 1),
    ):
        return [
            (i.line, i.session) if isinstance(i, Located) else (i.line, i.reason)
            for i in sessions_in(data, "log")
        ]


def _log(picks) -> bytes:
    lines = _lines()
    return b"\n".join(MUTATIONS[how](lines[i % len(lines)], n) for i, how, n in picks) + b"\n"


@settings(max_examples=150, deadline=None)
@given(LOGS, st.integers(1, 60_000), st.booleans())
def test_chunk_proofs_give_what_every_line_checked_alone_gives(picks, chunk, bom):
    data = (BOM if bom else b"") + _log(picks)
    assert _items(data, chunk) == _items(data, None)


@settings(max_examples=100, deadline=None)
@given(LOGS, st.integers(1, 60_000))
def test_a_line_is_proven_only_when_it_names_no_key_twice(picks, chunk):
    data = _log(picks)
    proofs = ChunkProofs(data)
    offset = 0
    with mock.patch.object(distinct_keys, "PROOF_CHUNK", chunk):
        for line in data.splitlines(keepends=True):
            raw = line.rstrip(b"\r\n")
            try:
                reader.typed_decode(reader._decoder, raw, "session")
            except DecodeError:
                proofs.refused()
            else:
                if proofs.line_at(offset):
                    assert duplicate_key(raw) is None
            offset += len(line)


def test_a_clean_log_needs_no_line_checked_alone():
    data = b"\n".join(_lines()) + b"\n"
    with (
        mock.patch.object(reader, "CHUNK_PROOFS_FROM", 0),
        mock.patch.object(reader, "parsed_duplicate_key", side_effect=AssertionError),
    ):
        assert all(isinstance(i, Located) for i in sessions_in(data, "log"))


@pytest.mark.parametrize("where", [0, 3, 7])
def test_settle_refuses_a_repeated_key_in_a_large_log_as_before(tmp_path, where):
    lines = list(_lines())
    line = lines[where]
    in_rounds = sum(1 for hit in _KEY.finditer(line) if hit.start() < line.index(b'"rounds":'))
    lines[where] = _twice(line, in_rounds + 7)  # a key of a round: only the key check sees it
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    messages = []
    for off in (False, True):
        with (
            mock.patch.object(reader, "CHUNK_PROOFS_FROM", 0),
            mock.patch.object(reader, "chunk_proofs", return_value=None)
            if off
            else contextlib.nullcontext(),
            pytest.raises(DecodeError) as caught,
        ):
            sessions_to_settle(path)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert f":{where + 1} session" in messages[0] and "twice" in messages[0]


def test_chunk_proofs_are_made_for_a_large_log_or_a_long_first_line():
    short = b'{"a":1}\n' * 1000
    assert reader.chunk_proofs(short) is None
    assert reader.chunk_proofs(b'{"a":"' + b"x" * reader.NUMPY_PROOF_FROM + b'"}\n' + short)
    with mock.patch.object(reader, "CHUNK_PROOFS_FROM", len(short)):
        assert reader.chunk_proofs(short) is not None
