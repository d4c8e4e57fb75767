"""变异: hostile variants of valid stakelog/1 lines, for the fuzzer.

Structural mutations parse a valid line into Python objects, walk to a path
(every node of the session, its rounds included, is reachable), change what is
there and write the object back with `dumps`, which can also write what the
standard library cannot: a key twice in one object (`Pairs`) and text spliced
in verbatim (`Verbatim`: `1e999`, a thousand `[`). Byte mutations work on the
written line: they cut it off, or put bytes that are not UTF-8 into a string.

Every mutation takes a `random.Random` (the fuzzer gets one from hypothesis,
so a run is reproducible by its seed) and returns the line, without its
newline, and a short description of what was done, for failure messages.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

Path = tuple[str | int, ...]

MAX_LONG = 3 * 1024 * 1024  # the longest string a mutation writes: a few MB, no more


@dataclass(frozen=True)
class Verbatim:
    """JSON text written as it is (a number no float holds, unbalanced brackets)."""

    text: str


class Pairs(list):
    """A JSON object as (key, value) pairs, so that one key can appear twice."""


def dumps(value: Any) -> str:
    """JSON text of `value`; strings keep non-ASCII characters, control characters are
    escaped (as the standard library does), Verbatim and Pairs as above."""
    if isinstance(value, Verbatim):
        return value.text
    if isinstance(value, Pairs):
        return "{" + ",".join(f"{_str(k)}:{dumps(v)}" for k, v in value) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_str(k)}:{dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    if isinstance(value, str):
        return _str(value)
    return json.dumps(value)


def _str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def encode(value: Any) -> bytes:
    """The line's bytes; a lone surrogate becomes the 3 bytes CESU-8 gives it (not UTF-8)."""
    return dumps(value).encode("utf-8", "surrogatepass")


# -- values -------------------------------------------------------------------------------

EXTREME_INTS = (0, -1, 2**31, 2**31 - 1, -(2**31), 2**63, 2**63 - 1, 2**64, 2**70, -(2**70), 10**17)
HUGE_DECIMALS: tuple[Any, ...] = (
    "NaN",
    "sNaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "-inf",
    "1e999",
    "-1e999",
    "1e-999999",
    "0E-1000000",
    "-0",
    "1e30",
    "0.00001",
    "99999999.99999",
    10**30,
    Verbatim("1e999"),
    Verbatim("-1e999"),
    Verbatim("1E+30"),
    Verbatim("1e-400"),
    Verbatim("NaN"),
    Verbatim("Infinity"),
    Verbatim("0." + "0" * 400 + "1"),
    Verbatim("1" * 400),
)
HOSTILE_TEXT = (
    "\u0000",
    "\u001b[2J",
    "\r",
    "\n",
    "\t",
    "\u202e",
    "\u2028",
    "\ufeff",
    "\u007f",
    "\u0085",
    "\ud800",  # a lone surrogate: written as CESU-8 bytes, which are not UTF-8
    "\U0010ffff",
    "\\",
    '"',
    "%s%n",
    "<script>alert(1)</script>",
)
ESCAPES = ("\\u0000", "\\u001b[2J", "\\ud800", "\\udfff", "\\ud83d\\ude00", "\\u202e", "\\r\\n")
DATES = (
    "0001-01-01T00:00:00+00:00",
    "0001-01-01T00:00:00+23:59",
    "0001-01-01T00:00:00-23:59",
    "9999-12-31T23:59:59+23:59",
    "9999-12-31T23:59:59-23:59",
    "9999-12-31T23:59:59.999999+00:00",
    "2026-03-01T20:00:00+23:59",
    "2026-03-01T20:00:00-23:59",
    "2026-03-01T20:00:00+24:00",
    "2026-03-01T20:00:00Z",
    "2026-03-01T20:00:00",
    "2026-02-30T20:00:00+08:00",
    "2026-13-01T20:00:00+08:00",
    "2026-03-01T24:00:00+08:00",
    "2026-12-31T23:59:60+08:00",
    "0000-01-01T00:00:00+00:00",
    "10000-01-01T00:00:00+00:00",
    "2026-03-01T20:00:00.123456789+08:00",
    "2026-03-01",
    "",
)
SWAPS: tuple[Any, ...] = (
    "",
    "x",
    "1",
    0,
    1,
    -1,
    1.5,
    [],
    [1, "a"],
    {},
    {"a": 1},
    None,
    True,
    False,
)
NESTING = (100, 1000, 5000)


# -- paths ---------------------------------------------------------------------------------


def paths(node: Any, here: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, value) of a parsed line, the root first."""
    yield here, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*here, key))
    elif isinstance(node, list) and not isinstance(node, Pairs):
        for index, value in enumerate(node):
            yield from paths(value, (*here, index))


def put(root: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    node = root
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return root


def parent_of(root: Any, path: Path) -> Any:
    node = root
    for step in path[:-1]:
        node = node[step]
    return node


def _pick(rng: random.Random, root: Any, keep: Callable[[Path, Any], bool]) -> Path | None:
    found = [p for p, v in paths(root) if keep(p, v)]
    return rng.choice(found) if found else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(path: Path) -> str:
    return "/".join(str(step) for step in path) or "(root)"


# -- structural mutations --------------------------------------------------------------------
# Each takes (rng, session object, game options) and returns (object, description); the
# object may hold Verbatim and Pairs nodes.

Options = tuple[str, ...]


def delete_key(rng, root, options):
    path = _pick(rng, root, lambda p, v: isinstance(v, dict) and bool(v))
    if path is None:
        return root, "nothing to delete"
    node = parent_of(root, (*path, None))
    key = rng.choice(list(node))
    del node[key]
    return root, f"delete {_show((*path, key))}"


def duplicate_key(rng, root, options):
    path = _pick(rng, root, lambda p, v: isinstance(v, dict) and bool(v))
    if path is None:
        return root, "nothing to duplicate"
    node = parent_of(root, (*path, None))
    key = rng.choice(list(node))
    again = rng.choice([node[key], rng.choice(SWAPS)])
    pairs = Pairs(node.items())
    pairs.insert(rng.randrange(len(pairs) + 1), (key, again))
    return put(root, path, pairs), f"duplicate key {_show((*path, key))} = {again!r:.40}"


def swap_type(rng, root, options):
    path = _pick(rng, root, lambda p, v: bool(p))
    if path is None:
        return root, "nothing to swap"
    old = parent_of(root, path)[path[-1]]
    new = rng.choice([s for s in SWAPS if type(s) is not type(old)])
    return put(root, path, new), f"swap {_show(path)}: {type(old).__name__} -> {new!r}"


def extreme_int(rng, root, options):
    value = rng.choice(EXTREME_INTS)
    path = _pick(rng, root, lambda p, v: _is_int(v))
    if path is not None and rng.random() < 0.8:
        return put(root, path, value), f"int {_show(path)} = {value}"
    # the integers of the header, present in the line or not
    field = rng.choice(["room_fee", "buy_in", "prize", "entry_fee"])
    if field == "room_fee":
        root["owner"] = {"id": "owner-x", "room_fee": value}
    elif field == "buy_in" and isinstance(root.get("players"), list) and root["players"]:
        if isinstance(root["players"][0], dict):
            root["players"][0]["buy_in"] = value
    else:
        root["tournament"] = True
        root["prize"] = {"amount": value, "funded_by": "entry_fees", "entry_fee": value}
    return root, f"int {field} = {value}"


def game_option(rng, root, options):
    name = rng.choice(options) if options and rng.random() < 0.9 else "no_such_option"
    value = rng.choice([*EXTREME_INTS, *EXTREME_INTS, *SWAPS, *HUGE_DECIMALS[:8]])
    variant = root.get("variant")
    if not isinstance(variant, dict):
        variant = root["variant"] = {}
    if not isinstance(variant.get("options"), dict):
        variant["options"] = {}
    variant["options"][name] = value
    if rng.random() < 0.2:
        variant["preset"] = rng.choice(["", "no_such_preset", 0, None])
    return root, f"option {name} = {value!r:.40}"


def decimal(rng, root, options):
    value = rng.choice(HUGE_DECIMALS)
    if rng.random() < 0.7:
        path: Path = rng.choice([("point_value",), ("point_value",), ("scene_cash",)])
        players = root.get("players")
        if rng.random() < 0.2 and isinstance(players, list) and players:
            path = ("players", 0, "scene_cash") if isinstance(players[0], dict) else path
    else:
        found = _pick(rng, root, lambda p, v: _is_int(v) or isinstance(v, float))
        path = found if found is not None else ("point_value",)
    return put(root, path, value), f"decimal {_show(path)} = {value!r:.40}"


def hostile_string(rng, root, options):
    path = _pick(rng, root, lambda p, v: isinstance(v, str) and bool(p))
    if path is None:
        return root, "no string"
    old = parent_of(root, path)[path[-1]]
    bad = rng.choice(HOSTILE_TEXT)
    where = rng.choice(["start", "end", "all"])
    new = {"start": bad + old, "end": old + bad, "all": bad}[where]
    if rng.random() < 0.3:
        escaped = rng.choice(ESCAPES)
        inner = {"start": escaped + _str(old)[1:-1], "end": _str(old)[1:-1] + escaped}
        new = Verbatim('"' + inner.get(where, escaped) + '"')
    return put(root, path, new), f"string {_show(path)} {where} {new!r:.40}"


def hostile_key(rng, root, options):
    path = _pick(rng, root, lambda p, v: isinstance(v, dict) and bool(v))
    if path is None:
        return root, "no object"
    node = parent_of(root, (*path, None))
    key = rng.choice(list(node))
    bad = key + rng.choice(HOSTILE_TEXT)
    node[bad] = node.pop(key)
    return root, f"key {_show((*path, key))} -> {bad!r}"


def deep_nesting(rng, root, options):
    path = _pick(rng, root, lambda p, v: bool(p))
    path = path if path is not None else ("rounds",)
    depth = rng.choice(NESTING)
    shape = rng.choice(["list", "object", "open"])
    if shape == "list":
        text = "[" * depth + "]" * depth
    elif shape == "object":
        text = '{"a":' * depth + "1" + "}" * depth
    else:
        text = "[" * depth
    return put(root, path, Verbatim(text)), f"nesting {_show(path)} {shape} x{depth}"


def long_string(rng, root, options):
    path = _pick(rng, root, lambda p, v: isinstance(v, str) and bool(p))
    path = path if path is not None else ("session_id",)
    length = rng.choice([65, 129, 257, 10_000, 200_000, MAX_LONG])
    unit = rng.choice(["x", "汉", "\\u0000"])
    if unit == "\\u0000":
        value: Any = Verbatim('"' + unit * min(length, MAX_LONG // 6) + '"')
    else:
        value = unit * length
    return put(root, path, value), f"long string {_show(path)} {unit!r} x{length}"


def edge_date(rng, root, options):
    dated = [p for p, v in paths(root) if p and p[-1] in ("started_at", "ended_at")]
    path = rng.choice(dated) if dated and rng.random() < 0.9 else ("ended_at",)
    value = rng.choice(DATES)
    return put(root, path, value), f"date {_show(path)} = {value}"


def empty_list(rng, root, options):
    choice = rng.random()
    if choice < 0.35:
        path: Path = ("rounds",)
    elif choice < 0.6:
        path = ("players",)
    else:
        found = _pick(rng, root, lambda p, v: isinstance(v, list | dict) and bool(p))
        path = found if found is not None else ("rounds",)
    value = rng.choice([[], [], {}, [{}], [[]]])
    return put(root, path, value), f"empty {_show(path)} = {value!r}"


STRUCTURAL = (
    delete_key,
    duplicate_key,
    swap_type,
    extreme_int,
    game_option,
    decimal,
    hostile_string,
    hostile_key,
    deep_nesting,
    long_string,
    edge_date,
    empty_list,
)

# -- byte mutations -----------------------------------------------------------------------

SENTINEL = "\u2603fuzz\u2603"
INVALID_UTF8 = (
    b"\xff",
    b"\xfe\xff",
    b"\xc3\x28",
    b"\xc0\xaf",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\x80",
)


def truncate(rng, line: bytes) -> tuple[bytes, str]:
    cut = rng.randrange(len(line))
    return line[:cut], f"truncate at byte {cut} of {len(line)}"


def invalid_utf8(rng, root) -> tuple[bytes, str]:
    path = _pick(rng, root, lambda p, v: isinstance(v, str) and bool(p))
    path = path if path is not None else ("session_id",)
    bad = rng.choice(INVALID_UTF8)
    put(root, path, SENTINEL)
    line = encode(root).replace(SENTINEL.encode(), bad)
    return line, f"invalid UTF-8 {bad!r} in {_show(path)}"


def raw_garbage(rng, line: bytes) -> tuple[bytes, str]:
    """Bytes the JSON grammar refuses, at a random place of the line."""
    at = rng.randrange(len(line) + 1)
    bad = rng.choice([b"\x00", b"\r", b"\x1b[2J", b",", b"}", b"]", b'"', b"\\", b"\xef\xbb\xbf"])
    return line[:at] + bad + line[at:], f"bytes {bad!r} at {at}"


# -- a line ---------------------------------------------------------------------------------


def mutate(rng: random.Random, valid: bytes, options: Options, steps: int = 1) -> tuple[bytes, str]:
    """A hostile variant of one valid line (no newline at its end) and what was done."""
    root = msgspec.json.decode(valid)
    done: list[str] = []
    kind = rng.random()
    if kind < 0.06:
        line, what = truncate(rng, valid.rstrip(b"\n"))
        return line, what
    if kind < 0.12:
        return invalid_utf8(rng, root)
    for _ in range(steps):
        if not isinstance(root, dict):
            break  # the root became pairs (a key twice): mutations need a dict there
        mutation = rng.choice(STRUCTURAL)
        root, what = mutation(rng, root, options)
        done.append(what)
    line = encode(root)
    if kind > 0.96:
        line, what = raw_garbage(rng, line)
        done.append(what)
    return line, "; ".join(done)
