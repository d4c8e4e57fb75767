"""The reader's limits (issue 16): long lines, gzip bombs, deep nesting, the schema's bounds."""

from __future__ import annotations

import json
import tracemalloc
import zlib

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.cli import cli
from compliance.logs.lines import split_ranges
from compliance.logs.reader import Located, Reject, duplicate_key, read_sessions
from compliance.logs.schema import session_schema
from compliance.service_layer.runners import partition_ranges
from tests.hostile import good, line

MIB = 1 << 20


def test_a_gzip_bomb_of_one_long_line_is_one_reject_read_in_bounded_memory(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"x" * MIB
    with path.open("wb") as fh:
        fh.write(packer.compress(b'{"session_id": "bomb", "junk": "'))
        for _ in range(50):
            fh.write(packer.compress(block))
        fh.write(packer.compress(b'"}\n' + line(dict(good(), session_id="after")).encode()))
        fh.write(packer.flush())
    tracemalloc.start()
    try:
        items = list(read_sessions(str(path), max_line_bytes=MIB))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [type(i) for i in items] == [Reject, Located]
    assert items[0].line == 1 and items[1].line == 2
    assert (
        items[0].reason == f"line longer than 1,048,576 bytes ({50 * MIB + 34:,} bytes): not read"
    )
    assert peak < 8 * MIB


def test_byte_ranges_over_a_long_line_still_own_each_line_once(tmp_path):
    path = tmp_path / "long.jsonl"
    long = dict(good(), session_id="long")
    long["players"][0]["name"] = "y" * (3 * MIB)
    path.write_text(
        line(dict(good(), session_id="a")) + line(long) + line(dict(good(), session_id="b"))
    )
    whole = [(type(i).__name__, i.line) for i in read_sessions(str(path), max_line_bytes=MIB)]
    assert whole == [("Located", 1), ("Reject", 2), ("Located", 3)]
    for ranges in (split_ranges(str(path), 7), partition_ranges(str(path), 4)):
        pieces = [
            (type(i).__name__, i.line)
            for start, end in ranges
            for i in read_sessions(str(path), start, end, max_line_bytes=MIB)
        ]
        assert pieces == whole


def test_audit_takes_max_line_bytes_and_names_the_long_line(tmp_path, sqlite_url):
    path = tmp_path / "x.jsonl"
    path.write_text(line(good()) + line(dict(good(), session_id="second")))
    result = CliRunner().invoke(
        cli,
        ["audit", str(path), "--max-line-bytes", "1000"],
        env={"COMPLIANCE_DB_URL": sqlite_url},
    )
    assert result.exit_code == 1, result.output  # no session could be read
    assert f"reject: {path}:1: line longer than 1,000 bytes (" in result.stderr
    assert "audited 0 sessions, 2 rejected" in result.stderr


def test_the_schema_shows_every_bound_of_the_decoder():
    schema = session_schema()
    defs = schema["$defs"]
    session = defs["Session"]["properties"]
    assert session["players"]["maxItems"] == 100
    assert session["rounds"]["maxItems"] == 100_000
    assert defs["Player"]["properties"]["name"]["maxLength"] == 256
    assert defs["Player"]["properties"]["buy_in"]["anyOf"][0]["maximum"] == 10**15
    assert defs["DouniuSeat"]["properties"]["bet"]["maximum"] == 1000
    assert defs["DouniuSeat"]["properties"]["claimed"]["minimum"] == -(10**15)
    assert defs["ChexuanAction"]["properties"]["amount"]["anyOf"][0]["minimum"] == 0
    point_value = session["point_value"]["anyOf"][0]
    assert point_value["exclusiveMaximum"] == 100_000_000


def test_an_option_given_as_key_value_is_held_to_the_same_bounds(sqlite_url):
    runner = CliRunner()
    result = runner.invoke(
        cli,
        ["games", "eval", "douniu", "SA", "H2", "C3", "D4", "S5", "--option", "bull_5=5000"],
        env={"COMPLIANCE_DB_URL": sqlite_url},
    )
    assert result.exit_code == 1
    assert "bad variant options: Expected `int` <= 1000 - at `$.bull_5`" in result.output


def test_deep_json_on_standard_input_is_a_usage_error_not_an_internal_one(sqlite_url):
    result = CliRunner().invoke(
        cli,
        ["games", "eval", "yuhuan"],
        input="[" * 100_000 + "]" * 100_000,
        env={"COMPLIANCE_DB_URL": sqlite_url},
    )
    assert result.exit_code == 2 and "internal error" not in result.output


def _twice(text: str, key: str, first: str, second: str) -> str:
    return text.replace(f'"{key}": {first}', f'"{key}": {first}, "{key}": {second}', 1)


def test_a_key_named_twice_in_one_object_is_a_reject_naming_it(tmp_path):
    text = line(dict(good(), point_value="1"))
    cases = [
        _twice(text, "point_value", '"1"', '"1000"'),
        _twice(text, "bet", "3", "1"),
        _twice(text, "claimed", "60", "0"),
        _twice(text, "room_fee", "10", "0"),
        text.replace('"point_value": "1"', '"point_value": "1", "point_valu\\u0065": "9"'),
        text,
    ]
    path = tmp_path / "twice.jsonl"
    path.write_text("".join(cases))
    items = list(read_sessions(str(path)))
    reasons = [i.reason if isinstance(i, Reject) else None for i in items]
    assert reasons == [
        "a JSON object names 'point_value' twice (the last would win unseen)",
        "a JSON object names 'bet' twice (the last would win unseen)",
        "a JSON object names 'claimed' twice (the last would win unseen)",
        "a JSON object names 'room_fee' twice (the last would win unseen)",
        "a JSON object names 'point_value' twice (the last would win unseen)",
        None,
    ]
    assert items[0].session_id == good()["session_id"]


_keys = st.sampled_from(["a", "b", "\\u0061", "point_value", "bet", "é", "\\\\", '\\"'])
_json = st.recursive(
    st.sampled_from(["1", '"x"', "null", "true", "-2.5e3", "[]", "{}"]),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.lists(st.tuples(_keys, inner), max_size=4).map(
            lambda kvs: "{" + ",".join(f'"{k}": {v}' for k, v in kvs) + "}"
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None)
@given(_json, st.integers(min_value=0, max_value=250))
def test_the_fast_duplicate_check_answers_as_the_standard_librarys_own(text, depth):
    """jiter's proof of no repeat, with its fallback, never misses one json.loads sees."""
    raw = ("[" * depth + text + "]" * depth).encode()
    objects: list = []
    json.loads(raw, object_pairs_hook=objects.append)
    repeats = [
        k for pairs in objects for i, (k, _) in enumerate(pairs) if k in [p[0] for p in pairs[:i]]
    ]
    found = duplicate_key(raw)
    assert (found is None) == (not repeats)
    if found is not None:
        assert found in repeats
