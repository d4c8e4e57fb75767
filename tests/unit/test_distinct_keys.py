"""`distinct_keys.keys_distinct` proves only what the exact check (`duplicate_key`) finds."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.logs.distinct_keys import MAX_DEPTH, keys_distinct
from compliance.logs.reader import duplicate_key, parsed_duplicate_key
from compliance.service_layer.simulate import SimulationSpec, write_log

KEYS = st.sampled_from(["a", "b", "player", "cards", "u00031", "x{", "[y", "键", "a" * 9, "a" * 20])
STRINGS = st.one_of(
    st.sampled_from(["C3", "H10", "", "{", "}", "[", "]", '"', "\\", ":", ",", "a,b", "吴29"]),
    st.text(max_size=6),
)
SCALARS = st.one_of(
    st.integers(-5, 10**20), st.booleans(), st.none(), STRINGS, st.floats(-1e3, 1e3)
)
SPACES = st.sampled_from(["", "", "", " ", "\n"])


def _text(node, space: str) -> str:
    """JSON text of `node`, where a list of pairs is an object that may name a key twice."""
    if isinstance(node, tuple):
        pairs = (f"{json.dumps(k, ensure_ascii=False)}{space}:{_text(v, space)}" for k, v in node)
        return "{" + f",{space}".join(pairs) + "}"
    if isinstance(node, list):
        return "[" + f",{space}".join(_text(v, space) for v in node) + "]"
    return json.dumps(node, ensure_ascii=False)


NODES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(st.tuples(KEYS, inner), max_size=6).map(tuple),
    ),
    max_leaves=40,
)


@settings(max_examples=1500, deadline=None)
@given(NODES, SPACES)
def test_what_it_proves_the_exact_check_agrees_with(node, space):
    raw = _text(node, space).encode()
    msgspec.json.decode(raw)  # a decoded line, as the reader gives it
    if keys_distinct(raw):
        assert duplicate_key(raw) is None
    assert parsed_duplicate_key(raw) == duplicate_key(raw)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(KEYS, SCALARS), min_size=1, max_size=8, unique_by=lambda p: p[0]))
def test_compact_objects_without_repeats_are_proven(pairs):
    """Every key plain ASCII without a backslash: the proof goes through (else it is no use)."""
    plain = tuple((k, v) for k, v in pairs if k.isascii() and "\\" not in json.dumps(v))
    raw = _text([(), plain, [plain, ()]], "").encode()
    assert duplicate_key(raw) is None
    assert keys_distinct(raw)


@pytest.mark.parametrize(
    "text",
    [
        '{"a":1,"a":2}',
        '{"a":{"b":1},"a":2}',
        '{"x":[{"player":"u1","cards":["C3"],"player":"u2"}]}',
        '{"x":[{"k":1},{"k":2,"j":{"k":3},"k":4}]}',
        '{"x":{"aaaaaaaaaaaaaaaaaa":1,"aaaaaaaaaaaaaaaaaa":2}}',
        '{"s":"{\\"a\\":1,\\"a\\":2}","t":{"u":1,"u":1}}',
        '{"k":"[{","z":1,"z":2}',
        '{"a":1, "a":2}',
        '{"a" :1,"a":2}',
    ],
)
def test_a_repeat_is_never_proven_away(text):
    raw = text.encode()
    assert duplicate_key(raw) is not None
    assert not keys_distinct(raw)
    assert parsed_duplicate_key(raw) == duplicate_key(raw)


@pytest.mark.parametrize(
    "text",
    [
        '{"k":"x{","a":{"k":1},"b":[{"k":2},{"k":3}]}',
        '{"a":{"b":{"a":{"b":1}}},"b":{}}',
        '{"aaaaaaaaaaaaaaaaaa1":1,"aaaaaaaaaaaaaaaaaa2":2}',
    ],
)
def test_the_same_key_in_other_objects_is_no_repeat(text):
    raw = text.encode()
    assert duplicate_key(raw) is None
    assert parsed_duplicate_key(raw) is None


def test_deep_and_foreign_lines_go_to_the_exact_check():
    deep = b'{"a":' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}"
    assert not keys_distinct(deep)
    assert not keys_distinct(b'{"a":"\xff","b":1}')  # not UTF-8: the exact check says how
    assert not keys_distinct(b'{"a":"\\u0041","b":1}')


@pytest.mark.parametrize("game", ["guandan", "shengji", "douniu", "yuhuan"])
def test_simulated_logs_are_proven_without_the_exact_check(tmp_path, game):
    path = tmp_path / "log.jsonl"
    write_log(SimulationSpec(games=(game,), sessions=5, seed=3), str(path))
    lines = path.read_bytes().splitlines()
    assert lines and all(keys_distinct(line) for line in lines)
    twice = [line.replace(b'"game":', b'"game":"x","game":', 1) for line in lines]
    assert all(not keys_distinct(line) and duplicate_key(line) == "game" for line in twice)


def test_a_long_line_goes_to_the_numpy_proof_and_a_repeat_in_it_is_still_named():
    from compliance.logs.reader import NUMPY_PROOF_FROM

    rounds = ",".join(f'{{"n":{i},"bet":1}}' for i in range(NUMPY_PROOF_FROM // 16))
    clean = f'{{"rounds":[{rounds}],"x":1}}'.encode()
    twice = f'{{"rounds":[{rounds},{{"n":1,"bet":1,"bet":9}}],"x":1}}'.encode()
    assert len(clean) >= NUMPY_PROOF_FROM and keys_distinct(clean)
    assert parsed_duplicate_key(clean) is None
    assert parsed_duplicate_key(twice) == duplicate_key(twice) == "bet"
