"""键名: 掼蛋's plays proven free of repeated keys apart from the line's mirror
(`decode.keys_proven`, `EngineSpec.keys_apart`): the reader proves exactly the lines the
whole mirror proves, never one with a repeat, and the plays it keeps for the rounds' decode
are those the decode would read."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import msgspec
from hypothesis import example, given, settings
from hypothesis import strategies as st

from compliance.errors import DecodeError, LogError
from compliance.games import get_game
from compliance.games.guandan import GAME, decode
from compliance.logs import key_counts, reader
from compliance.logs.key_counts import keys_counted
from compliance.logs.reader import duplicate_key
from tests.key_proofs import simulated_lines

# texts put inside the plays: repeats of each key of a play, and what breaks the cuts
INSERTS = [
    b'"player":"x",', b'"player":"u00001",', b'"cards":["S3"],', b'"cards":[],',
    b'"combo":"single:3",', b'"combo":null,', b'"player":"cards",', b'"x":1,', b" ",
    b"\n", b"},{", b'"', b"\\", b"\x01", b"\xff", b'"pl\\u0061yer":"x",', b"[]",
]  # fmt: skip


def _lines() -> tuple[bytes, ...]:
    return simulated_lines("guandan")


def _edited(line: bytes, rng: random.Random, edits: int) -> bytes:
    """Inserts just after a play's `{` or a comma inside the plays."""
    for _ in range(edits):
        start = line.find(b'"plays":[')
        spots = [i + 1 for i in range(start, len(line)) if line[i] in b"{,"]
        at = rng.choice(spots)
        line = line[:at] + rng.choice(INSERTS) + line[at:]
    return line


def _whole_only() -> Any:
    """`keys_counted` with the whole mirror alone, as before the plays were proven apart."""
    return mock.patch.object(key_counts, "_proven_apart", return_value=False)


def _read(raw: bytes) -> Any:
    try:
        session = reader.decode_session(raw, get_game)
    except DecodeError as exc:
        return str(exc)
    try:
        return list(GAME.replay(session))
    except LogError as exc:  # a hostile edit may name a player the deal does not hold
        return f"{type(exc).__name__}: {exc}"


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.booleans())
@example(33792, 1, False)  # a player named "cards" in the deal: the replay's DealError
def test_the_plays_proven_apart_prove_what_the_whole_mirror_proves(seed, edits, cold):
    rng = random.Random(seed)
    lines = _lines()
    raw = _edited(lines[rng.randrange(len(lines))], rng, edits)
    if cold:
        decode.known.clear()
    try:
        session = reader.typed_decode(reader._decoder, raw, "session")
    except DecodeError:
        return
    proven = keys_counted(raw, session, get_game)
    with _whole_only():
        assert proven == keys_counted(raw, session, get_game)
    if proven:
        assert duplicate_key(raw) is None
    decode.ready.clear()
    with _whole_only():
        before = _read(raw)
    assert _read(raw) == before  # the plays kept by the proof, as the decode reads them


def test_simulated_lines_are_proven_apart_and_their_plays_kept():
    decode.ready.clear()
    decode.known.clear()
    for raw in _lines():
        session = reader.typed_decode(reader._decoder, raw, "session")
        assert keys_counted(raw, session, get_game)
        assert id(session.rounds) in decode.ready
        with mock.patch.object(decode, "plays_of", side_effect=AssertionError):
            assert list(GAME.replay(session))
    assert not decode.ready


def test_a_repeat_inside_a_play_is_never_proven():
    raw = _lines()[0]
    at = raw.index(b'"plays":[{') + len(b'"plays":[{')
    for pairs in (b'"player":"x",', b'"cards":[],', b'"combo":null,"combo":null,'):
        twice = raw[:at] + pairs + raw[at:]
        session = reader.typed_decode(reader._decoder, twice, "session")
        decode.known.clear()
        assert not keys_counted(twice, session, get_game)
        assert duplicate_key(twice) is not None


# texts put at the head of a hand: fields the key mirror reads unbounded, and repeats
HAND_INSERTS = [
    b'"rake":0,', b'"rake":3,', b'"rake":-1,', b'"rake":1000000000000001,', b'"rake":1.0,',
    b'"stake":null,', b'"stake":2,', b'"stake":-2,', b'"stake":true,', b'"level":null,',
    b'"level":"A",', b'"level":"1",', b'"tribute":[],', b'"plays":[],', b'"rake":0,"rake":0,',
    b'"claimed":{"x":1000000000000001},', b'"claimed":{"x":-1000000000000000},',
    b'"tribute":[{"payer":"x","receiver":"y","card":"S3"}],',
    b'"tribute":[{"payer":"x","card":"S3"}],', b'"finish":[],',
]  # fmt: skip


def _hand_edited(line: bytes, rng: random.Random, edits: int) -> bytes:
    """Inserts just before a hand's `deal`, or a field of a hand cut out."""
    for _ in range(edits):
        spots = [i for i in range(len(line)) if line.startswith(b'"deal":', i)]
        if not spots:
            break
        at = rng.choice(spots)
        if rng.random() < 0.8:
            line = line[:at] + rng.choice(HAND_INSERTS) + line[at:]
        else:
            for field in (b'"claimed":', b'"deal":', b'"finish":', b',"returned":'):
                cut = line.find(field, at)
                if cut >= 0 and rng.random() < 0.5:
                    end = line.index(b"}" if field != b'"finish":' else b"]", cut) + 1
                    line = line[:cut] + line[end:].lstrip(b",")
                    break
    return line


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
@example(0, 0)
def test_the_hands_kept_by_the_proof_are_those_the_rounds_decode_gives(seed, edits):
    rng = random.Random(seed)
    lines = _lines()
    raw = _hand_edited(lines[rng.randrange(len(lines))], rng, edits)
    decode.ready.clear()
    try:
        session = reader.decode_session(raw, get_game)
    except DecodeError:
        return
    kept = decode.ready.get(id(session.rounds))
    try:
        decoded: Any = decode._hands.decode(session.rounds)
    except msgspec.ValidationError:
        decoded = None
    if kept is not None and kept[2] is not None:
        assert kept[2] == decoded  # made only where the decode would make the same hands
    with mock.patch.object(decode, "_hands_of", return_value=None):
        decode.ready.clear()
        before = _read(raw)
    decode.ready.clear()
    assert _read(raw) == before
