"""`raw_fields`: 升级's tricks, deals, kitty and buried cards proven free of repeated keys by
counting bytes, and only when the exact check agrees; the reader's outcome is the same as with the exact check alone."""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest import mock

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games import get_game
from compliance.games.guandan.record import GuandanHand
from compliance.games.shengji.record import ShengjiHand
from compliance.logs import key_counts, reader
from compliance.logs.key_counts import keys_counted
from compliance.logs.raw_fields import PairList, RawFields, emptied_colons, flat_leaves, pair_lists
from tests.key_proofs import assert_agrees_with_the_exact_check, simulated_lines

PLAY = b'{"player":"'


def _lines() -> tuple[bytes, ...]:
    return simulated_lines("shengji")


def _at_play(line: bytes, nth: int, text: bytes, after: int = 0) -> bytes:
    """`text` put into the line `after` bytes past the start of its `nth` play (cycling)."""
    starts = []
    at = line.find(PLAY)
    while at >= 0:
        starts.append(at)
        at = line.find(PLAY, at + 1)
    at = starts[nth % len(starts)] + after
    return line[:at] + text + line[at:]


DEEP = b"[" * 960 + b"]" * 960
MUTATIONS = {
    "clean": lambda line, n: line,
    "the player twice": lambda line, n: _at_play(line, n, b'"player":"x",', 1),
    "the cards twice": lambda line, n: _at_play(line, n, b'"cards":[],', 1),
    "the cards twice, the first a text": lambda line, n: _at_play(line, n, b'"cards":"S2",', 1),
    "another key": lambda line, n: _at_play(line, n, b'"combo":"x",', 1),
    "an empty object": lambda line, n: _at_play(line, n, b"{},"),
    "a play of the player alone": lambda line, n: _at_play(line, n, b'{"player":"x"},'),
    "a repeat in an object among the cards": lambda line, n: line.replace(
        b'"cards":["', b'"cards":[{"a":1,"a":2},"', 1 + n % 3
    ),
    "a play among the cards": lambda line, n: line.replace(
        b'"cards":["', b'"cards":[{"player":"a","cards":[]},"', 1 + n % 3
    ),
    "deep among the cards": lambda line, n: line.replace(
        b'"cards":["', b'"cards":[' + DEEP + b',"', 1
    ),
    "a long number among the cards": lambda line, n: line.replace(
        b'"cards":["', b'"cards":[' + b"7" * 4400 + b',"', 1
    ),
    "braces and colons in a name": lambda line, n: line.replace(b'"player":"', b'"player":"{:', 1),
    "a name of the joint": lambda line, n: line.replace(
        b'"player":"', b'"player":"\\",\\"cards\\":[', 1
    ),
    "spaces": lambda line, n: line.replace(b'","cards":[', b'", "cards" : [', 1 + n % 4),
    "not UTF-8 in a name": lambda line, n: line.replace(
        b'"player":"', b'"player":"\xc3\xa9\xff', 1
    ),
    "UTF-8 in a name": lambda line, n: line.replace(b'"player":"', b'"player":"\xc3\xa9', 1),
    "an empty object and one of two texts and two lists": lambda line, n: _at_play(
        line, n, b'{},{"a":"x","cards":[],"b":"y","cards":[]},'
    ),
    "a play of the player alone and one with the cards twice": lambda line, n: _at_play(
        line, n, b'{"player":"x"},{"player":"y","cards":[],"cards":[]},'
    ),
    "an object in the kitty": lambda line, n: line.replace(
        b'"kitty":[', b'"kitty":[{"a":1,"a":2},', 1
    ),
    "an object in a deal": lambda line, n: line.replace(
        b'"deal":{"', b'"deal":{"x":[{"a":[]}],"', 1
    ),
    "a list in the buried cards": lambda line, n: line.replace(
        b'"buried":[', b'"buried":[' + b"[" * (n % 3 + 1) + b"]" * (n % 3 + 1) + b",", 1
    ),
    "a list in a deal, after a newline": lambda line, n: line.replace(
        b'"deal":{"', b'"deal":{"x":["a",\n["b"]],"', 1
    ),
    "the kitty a text": lambda line, n: line.replace(b'"kitty":[', b'"kitty":"[","x":[', 1),
    "a deal's player twice": lambda line, n: line.replace(
        b'"deal":{"', b'"deal":{"x":[],"x":[],"', 1
    ),
    "the deal twice": lambda line, n: line.replace(b'"deal":', b'"deal":{},"deal":', 1),
    "a long number in the kitty": lambda line, n: line.replace(
        b'"kitty":[', b'"kitty":[' + b"7" * 4400 + b",", 1
    ),
    "not UTF-8 in the kitty": lambda line, n: line.replace(b'"kitty":["', b'"kitty":["\xff', 1),
    "the tricks twice": lambda line, n: line.replace(b'"tricks":', b'"tricks":[],"tricks":', 1),
}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 50), st.sampled_from(sorted(MUTATIONS)), st.integers(0, 400))
def test_what_the_counts_prove_the_exact_check_agrees_with(i, how, n):
    lines = _lines()
    assert_agrees_with_the_exact_check(MUTATIONS[how](lines[i % len(lines)], n))


class _Refusing:
    def decode(self, raw: bytes) -> Any:
        raise AssertionError("the whole mirror was asked")


def test_clean_tricks_are_proven_without_the_whole_mirror():
    proof = key_counts._proof("shengji", get_game)
    assert proof is not None and proof.bytes_kept is not None
    for line in _lines():
        session = reader.typed_decode(reader._decoder, line, "session")
        unused = dataclasses.replace(proof, whole=_Refusing())
        with mock.patch.object(key_counts, "_proofs", {ShengjiHand: unused}):
            assert keys_counted(line, session, get_game)


def test_only_lists_of_a_text_and_then_a_list_are_pair_lists():
    assert pair_lists(ShengjiHand) == (PairList("tricks", PLAY, b'","cards":['),)
    assert pair_lists(GuandanHand) == ()

    class Two(msgspec.Struct):
        cards: list[str]
        player: str

    assert pair_lists(msgspec.defstruct("R", [("x", list[Two])])) == ()


def test_a_list_nested_past_the_bound_is_not_proven():
    pair = pair_lists(ShengjiHand)

    class Round(msgspec.Struct):
        tricks: Any

    shallow = msgspec.Raw(b'[[{"player":"a","cards":[' + b"[]," * 10 + b'"S2"]}]]')
    deep = msgspec.Raw(b'[[{"player":"a","cards":[' + b"[" * 500 + b"]" * 500 + b"]}]]")
    assert emptied_colons([Round(shallow)], pair) == 2
    assert emptied_colons([Round(shallow), Round(deep)], pair) == -1


def test_leaf_lists_are_flat_lists_without_objects():
    class Round(msgspec.Struct):
        kitty: Any
        deal: Any

    fields = RawFields(leaves=("kitty",), leaf_maps=("deal",))

    def flat(kitty: bytes, *deal: bytes) -> bool:
        lists = {str(i): msgspec.Raw(d) for i, d in enumerate(deal)}
        return flat_leaves([Round(msgspec.Raw(kitty), lists)], fields)

    assert flat(b'["S2","S3"]', b"[]", b'["H2"]')
    assert not flat(b'["S2",{}]', b"[]")
    assert not flat(b'["S2",[]]', b"[]")
    assert not flat(b'["S2"]', b'"["', b"[[]]")
    assert not flat(b'"S2"', b"[[]]")
    assert not flat(b'["S2"]', b"[" + b"1" * 5000 + b"]")
    assert not flat(b'["S\xff"]')
