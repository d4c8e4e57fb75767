"""The ledger's and the accounts' fast tests for repeated keys agree with the full one: a
line they pass names no key twice, and every repeat, however spelt, is still a reject."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DecodeError
from compliance.logs.platform_reader import decode
from compliance.logs.platform_records import ACCOUNTS, LEDGER, Account, LedgerEvent
from compliance.logs.reader import duplicate_key
from compliance.logs.repeated_keys import is_account_unrepeated, is_flat_and_unrepeated

BASE = {
    "format": "ledger/1",
    "platform": "p",
    "id": "e1",
    "account": "a1",
    "type": "recharge",
    "at": "2022-01-07T20:59:00+08:00",
}
OPTIONAL = {
    "yuan": st.sampled_from(["6", "50.00", 6, None]),
    "units": st.sampled_from([0, 60, -5, None]),
    "currency": st.sampled_from(["diamond", 'a"b', "x\\y", "k:v", '":', None]),
    "mode": st.sampled_from(["m", "a, b", None]),
    "result": st.sampled_from(['"yuan":', "null", " spaced ", None]),
    "ref": st.sampled_from(["e0", None]),
}
SEPARATORS = [(",", ":"), (", ", ": "), (",", " : "), (" ,\t", ":\n")]


def _drawn_fields(draw, base: dict, optional: dict) -> list[tuple[str, Any]]:
    """The fields of `base`, and each of `optional` or not, with a value drawn."""
    fields = dict(base)
    for name, values in optional.items():
        if draw(st.booleans()):
            fields[name] = draw(values)
    return list(fields.items())


@st.composite
def ledger_lines(draw):
    items = _drawn_fields(draw, BASE, OPTIONAL)
    if draw(st.booleans()):  # a key named twice, possibly spelt with an escape
        name, value = draw(st.sampled_from(items))
        items.insert(draw(st.integers(0, len(items))), (name, draw(st.sampled_from([value, None]))))
    sep, colon = draw(st.sampled_from(SEPARATORS))
    escape = draw(st.booleans())
    parts = []
    for key, value in items:
        shown = json.dumps(key, ensure_ascii=escape)
        if escape and key == "type":
            shown = '"\\u0074ype"'
        parts.append(f"{shown}{colon}{json.dumps(value, ensure_ascii=escape)}")
    return ("{" + sep.join(parts) + "}\n").encode()


@settings(max_examples=600, deadline=None)
@given(ledger_lines())
def test_a_line_passed_by_the_fast_test_names_no_key_twice(raw):
    _assert_proven_only_without_repeats(raw, LedgerEvent, is_flat_and_unrepeated, LEDGER)


def _assert_proven_only_without_repeats(raw: bytes, kind: type, proof: Any, fmt: Any) -> None:
    """A line `proof` passes names no key twice, and one that names a key twice is refused."""
    try:
        record = msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError:
        return
    if proof(raw, record):
        assert duplicate_key(raw) is None
    if duplicate_key(raw) is not None:
        with pytest.raises(DecodeError, match="twice"):
            decode(fmt, raw)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"format":"ledger/1","platform":"p","id":"e1","account":"a1","type":"login",'
        b'"at":"2022-01-07T20:59:00+08:00","id":"e2"}',
        b'{"format":"ledger/1","platform":"p","id":"e1","account":"a1","type":"login",'
        b'"at":"2022-01-07T20:59:00+08:00","units":1,"units":null}',
        b'{"format":"ledger/1","platform":"p","id":"e1","account":"a1","type":"login",'
        b'"at":"2022-01-07T20:59:00+08:00","\\u0069d":"e2"}',
        b'{"format":"ledger/1","platform":"p","id":"e1","account":"a1","type":"login",'
        b'"at":"2022-01-07T20:59:00+08:00","id" :"e2"}',
    ],
    ids=["plain", "second-null", "escaped", "spaced"],
)
def test_every_spelling_of_a_repeated_key_is_refused(raw):
    with pytest.raises(DecodeError, match="names 'id' twice|names 'units' twice"):
        decode(LEDGER, raw)


def test_a_ledger_event_defaults_every_optional_field_to_none():
    """What the fast test counts on: a field that decoded to a value was named."""
    defaults = [f.default for f in msgspec.structs.fields(LedgerEvent) if f.required is False]
    assert defaults and all(d is None for d in defaults)


ACCOUNT = {"format": "accounts/1", "platform": "p", "id": "a1"}
ACCOUNT_OPTIONAL = {
    "kind": st.sampled_from(["player", "agent", "guest", None]),
    "person": st.sampled_from(["p1", 'a"b', "k:v", '":', None]),
    "real_name": st.sampled_from(["r1", "x\\y", None]),
    "birth_date": st.sampled_from(["2010-03-01", None]),
    "devices": st.sampled_from([[], ["d1"], ["d1", '":'], None]),
    "verification": st.sampled_from(  # an object as its pairs, so that a key may repeat
        [
            (("status", "verified"),),
            (("status", "verified"), ("at", "2021-01-01T00:00:00+08:00")),
            (("status", "pending"), ("ref", "r"), ("status", "failed")),
            (("status", "verified"), ("at", None), ("ref", '":')),
            None,
        ]
    ),
}


def _object(items, sep, colon, escape):
    parts = []
    for key, value in items:
        shown = json.dumps(key, ensure_ascii=escape)
        if escape and key == "kind":
            shown = '"\\u006bind"'
        if isinstance(value, tuple):
            inner = _object(value, sep, colon, escape)
        else:
            inner = json.dumps(value, ensure_ascii=escape)
        parts.append(f"{shown}{colon}{inner}")
    return "{" + sep.join(parts) + "}"


@st.composite
def account_lines(draw):
    items = _drawn_fields(draw, ACCOUNT, ACCOUNT_OPTIONAL)
    if draw(st.booleans()):  # a key named twice, its value the same, another or null
        name, value = draw(st.sampled_from(items))
        again = draw(st.sampled_from([value, None, "agent", "p2"]))
        items.insert(draw(st.integers(0, len(items))), (name, again))
    sep, colon = draw(st.sampled_from(SEPARATORS))
    return (_object(items, sep, colon, draw(st.booleans())) + "\n").encode()


@settings(max_examples=600, deadline=None)
@given(account_lines())
def test_an_account_passed_by_the_fast_test_names_no_key_twice(raw):
    _assert_proven_only_without_repeats(raw, Account, is_account_unrepeated, ACCOUNTS)
