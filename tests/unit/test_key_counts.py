"""`key_counts.keys_counted` proves only what the exact check (`duplicate_key`) finds, and the
reader gives the same sessions and rejects with it as with the exact check alone."""

from __future__ import annotations

import contextlib
import functools
import re
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DecodeError
from compliance.games import game_codes, get_game
from compliance.logs import key_counts, reader
from compliance.logs.key_counts import NoMirror, keys_counted, mirror_of
from compliance.logs.reader import Located, duplicate_key, read_sessions, sessions_in
from compliance.logs.records import Session
from compliance.service_layer.settle import sessions_to_settle
from compliance.service_layer.simulate import SimulationSpec, write_log
from compliance.streams import BOM
from tests.key_proofs import assert_agrees_with_the_exact_check

_KEY = re.compile(rb'"([a-z0-9_]+)":')


@functools.cache
def _lines() -> tuple[tuple[str, bytes], ...]:
    """(game, line) of short simulated sessions of every game, some tampered with."""
    out: list[tuple[str, bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in game_codes():
            path = Path(tmp) / f"{game}.jsonl"
            spec = SimulationSpec(games=(game,), sessions=2, seed=9, rounds=(1, 3), anomalies=0.3)
            write_log(spec, str(path))
            out.extend((game, line) for line in path.read_bytes().splitlines())
    return tuple(out)


def _nth_key(line: bytes, nth: int) -> re.Match[bytes]:
    found = list(_KEY.finditer(line))
    return found[nth % len(found)]


def _twice(line: bytes, nth: int, value: bytes = b"0") -> bytes:
    """The line with its `nth` key (cycling, at whatever depth) named once more before it."""
    hit = _nth_key(line, nth)
    return line[: hit.start()] + hit.group(0) + value + b"," + line[hit.start() :]


def _value_swapped(line: bytes, nth: int, value: bytes) -> bytes:
    """The line with the value after its `nth` key's colon begun by `value` instead."""
    hit = _nth_key(line, nth)
    return line[: hit.end()] + value + b"," + b'"zz":' + line[hit.end() :]


def _into_object(line: bytes, nth: int, pairs: bytes) -> bytes:
    """The line with `pairs` opening its `nth` object (cycling) that has a key."""
    starts = [m.start() + 1 for m in re.finditer(rb'\{"', line)]
    at = starts[nth % len(starts)]
    return line[:at] + pairs + b"," + line[at:]


def _first_key_again(line: bytes, nth: int) -> bytes:
    """The line with the first key of its `nth` object (cycling) named again, first, as 0."""
    starts = [m.start() + 1 for m in re.finditer(rb'\{"', line)]
    at = starts[nth % len(starts)]
    key = line[at : line.index(b'"', at + 1) + 1]
    return line[:at] + key + b":0," + line[at:]


MUTATIONS = {
    "clean": lambda line, n: line,
    "a key twice": _twice,
    "a key twice, the first with colons in it": lambda line, n: _twice(line, n, b'"a:b:c"'),
    "a key twice, the first an object": lambda line, n: _twice(line, n, b'{"x":1,"x":2}'),
    "a key twice, spaced": lambda line, n: _twice(line, n, b" 1 ").replace(b'":', b'" :', 1),
    "an object with a repeat where a value was": lambda line, n: _value_swapped(
        line, n, b'{"q":1,"q":2}'
    ),
    "a colon in a string": lambda line, n: line.replace(b'"sim"', b'"s:im"', 1),
    "cut short": lambda line, n: line[: max(1, len(line) - 1 - n % 40)],
    "an escape": lambda line, n: line.replace(b'"sim"', b'"s\\u0069m"', 1),
    "an escaped repeat": lambda line, n: _into_object(line, n, b'"\\u0061":1,"a":2'),
    "a repeat in an object": lambda line, n: _into_object(line, n, b'"a":1,"a":2'),
    "its first key again": lambda line, n: _first_key_again(line, n),
    "spaces around colons": lambda line, n: line.replace(b'":', b'" : ', 1 + n % 5),
    "tabs and newlines": lambda line, n: line.replace(b",", b",\t", 1 + n % 5),
    "an odd quote": lambda line, n: line.replace(b'"sim"', b'"s"im"', 1),
    "not UTF-8": lambda line, n: line[: len(line) // 2] + b"\xff" + line[len(line) // 2 :],
    "a surrogate": lambda line, n: line.replace(b'"sim"', b'"s\xed\xa0\x80m"', 1),
    "a big number": lambda line, n: line.replace(b":1,", b":123456789012345678901234567890,", 1),
    "a float": lambda line, n: line.replace(b":2,", b":2.0e0,", 1),
    "blank before": lambda line, n: b"  \r\n" + line,
}
LOGS = st.lists(
    st.tuples(st.integers(0, 200), st.sampled_from(sorted(MUTATIONS)), st.integers(0, 400)),
    min_size=1,
    max_size=10,
)


def _pick(i: int, how: str, n: int) -> tuple[str, bytes]:
    lines = _lines()
    game, line = lines[i % len(lines)]
    return game, MUTATIONS[how](line, n)


def _header(raw: bytes) -> Session:
    return reader.typed_decode(reader._decoder, raw, "session")


@settings(max_examples=600, deadline=None)
@given(st.integers(0, 200), st.sampled_from(sorted(MUTATIONS)), st.integers(0, 400))
def test_what_it_proves_the_exact_check_agrees_with(i, how, n):
    game, raw = _pick(i, how, n)
    assert_agrees_with_the_exact_check(raw)


@settings(max_examples=150, deadline=None)
@given(picks=LOGS, bom=st.booleans())
def test_the_reader_gives_what_the_exact_check_alone_gives(tmp_path_factory, picks, bom):
    data = (BOM if bom else b"") + b"\n".join(_pick(*p)[1] for p in picks) + b"\n"
    path = tmp_path_factory.mktemp("log") / "log.jsonl"
    path.write_bytes(data)

    def items():
        return [
            [(i.line, i.session) if isinstance(i, Located) else (i.line, i.reason) for i in found]
            for found in (
                sessions_in(data, "log", get_game),
                read_sessions(str(path), name="log", engines=get_game),
            )
        ]

    counted = items()
    with mock.patch.object(reader, "keys_counted", return_value=False):
        assert counted == items()


@pytest.mark.parametrize("game", game_codes())
def test_every_game_has_a_mirror_and_its_simulated_lines_are_proven(game):
    lines = [line for code, line in _lines() if code == game]
    assert lines and all(keys_counted(line, _header(line), get_game) for line in lines)


@pytest.mark.parametrize("game", game_codes())
def test_a_repeat_of_any_key_is_never_proven_away(game):
    line = next(line for code, line in _lines() if code == game)
    for nth in range(len(_KEY.findall(line))):
        for value in (b"0", b'"a:b"', b"[]"):
            twice = _twice(line, nth, value)
            named = _nth_key(line, nth).group(1).decode()
            assert not keys_counted(twice, _header(line), get_game)
            assert duplicate_key(twice) == named


def test_a_clean_log_asks_no_line_of_the_exact_check():
    data = b"\n".join(line for _, line in _lines()) + b"\n"
    with mock.patch.object(reader, "parsed_duplicate_key", side_effect=AssertionError):
        assert all(isinstance(i, Located) for i in sessions_in(data, "log", get_game))


@pytest.mark.parametrize("where", [0, 3, 7])
def test_settle_refuses_a_repeated_key_of_a_round_as_before(tmp_path, where):
    lines = [line for _, line in _lines()]
    line = lines[where]
    in_rounds = sum(1 for hit in _KEY.finditer(line) if hit.start() < line.index(b'"rounds":'))
    lines[where] = _twice(line, in_rounds + 2)  # a key of a round: only the key check sees it
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    messages = []
    for off in (False, True):
        with (
            mock.patch.object(reader, "keys_counted", return_value=False)
            if off
            else contextlib.nullcontext(),
            pytest.raises(DecodeError) as caught,
        ):
            sessions_to_settle(path)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert f":{where + 1} session" in messages[0] and "twice" in messages[0]


def test_an_unknown_game_or_a_line_of_another_game_is_left_to_the_exact_check():
    game, line = _lines()[0]
    session = _header(line)
    assert keys_counted(line, session, get_game)
    session.game = "no-such-game"
    assert not keys_counted(line, session, get_game)
    session.game = next(code for code, _ in _lines() if code != game)
    assert not keys_counted(line, session, get_game)


class _Leaf(msgspec.Struct, forbid_unknown_fields=True):
    n: int
    when: datetime | None = None


class _Tagged(msgspec.Struct, tag=True):
    n: int


class _Array(msgspec.Struct, array_like=True):
    n: int


class _Loop(msgspec.Struct):
    next: _Loop | None = None


class _Other(msgspec.Struct):
    m: int


@pytest.mark.parametrize(
    "round_type",
    [
        msgspec.defstruct("R1", [("x", Any)]),
        msgspec.defstruct("R2", [("x", msgspec.Raw)]),
        msgspec.defstruct("R3", [("x", _Tagged)]),
        msgspec.defstruct("R4", [("x", list[_Array])]),
        msgspec.defstruct("R5", [("x", _Loop)]),
        msgspec.defstruct("R6", [("x", _Leaf | _Other)]),
        _Leaf,  # a time in a round could be written back with another number of colons
    ],
)
def test_a_round_type_whose_keys_cannot_be_counted_has_no_mirror(round_type):
    with pytest.raises(NoMirror):
        mirror_of(round_type)


def test_a_mirror_leaves_unset_what_the_line_leaves_out():
    class Seat(msgspec.Struct, forbid_unknown_fields=True):
        player: str
        bet: int = 1

    mirror = key_counts._Mirrors(raw_leaves=False).of(list[Seat])
    decoded = msgspec.json.decode(b'[{"player":"u1"},{"player":"u2","bet":1}]', type=mirror)
    assert msgspec.json.encode(decoded) == b'[{"player":"u1"},{"player":"u2","bet":1}]'
