"""原样留存的字段: round fields the key-counting mirror keeps as their bytes, and how they
are proven by counting bytes to name no key twice (`key_counts`).

Two kinds, found from a round type that has the first:

Pair lists. A round field whose type lists (in lists …) records of exactly two fields, a text and then
a list of leaves (升级's tricks: `{"player":"…","cards":[…]}`), is left as its bytes by the
key-counting mirror (`key_counts`), which then asks this module about them. The texts of a
line's such fields, joined, are proven when

- the record's opening `{"player":"` occurs N times and its joint `","cards":[` N times,
- the line has exactly 2N colons more than the mirror written back with those fields
  emptied (`key_counts.keys_counted`), and
- each field has fewer than `MAX_BRACKETS` `[`, is no longer than Python's limit on an
  integer's digits, and is ASCII or UTF-8.

Why that suffices, for a line a JSON decoder has accepted and that has no backslash, so
that quotes alternate opening and closing and no string holds a quote: in an opening, the
quote after `{` cannot close a string (the word after it would then be bare text outside
a string, which JSON does not allow), so its `{` opens an object whose first key is the
record's first, with a text value; in a joint the first quote cannot open a string (the
same), so the second key follows a text value in its object and its value is a list. The
colons bound the keys: every key has one colon after it, and the rest of the line (with no
more keys than its mirror, no more colons in its strings) takes none of the 2N, so these
fields hold at most 2N keys: the N first keys and the N second keys counted, and no other.
An object without an opening then has no key at all (its first key would be neither: a
second key follows a comma), and one with an opening has one second key, right after its
first (a second key counted follows a text value, and a second key's value is a list,
ending `]`). So no object names a key twice. Each object with keys holds a list, so the
fields nest at most 2 × `MAX_BRACKETS` + 1 deep and no decoder that checks the line after
this one finds them too deep; no integer in them is too long for `json`; and they are text
as the decoded mirror would require. What is not proven is left to the whole mirror.

Leaf lists. A round field that is a list of leaves (text, numbers …), or an object of
such lists (升级's deal), is kept as its bytes too when its round has pair lists. Its
texts, joined, are proven when none has a `{` (so none holds a key), each opens with the
only `[` it has (one flat list: no nesting to speak of), each is no longer than Python's
limit on an integer's digits and they are ASCII or UTF-8; they are written back as they
were, so their colons count alike on both sides. An object of lists keeps its keys in the
mirror, where a key named twice is set once and so is counted.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, get_args, get_origin

import msgspec
import msgspec.structs

MAX_BRACKETS = 400
EMPTIED = msgspec.Raw(b"[]")
_KEY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class PairList:
    """A round field (its name in the JSON) listing two-key records, with their two keys'
    opening and joint as bytes."""

    field: str
    opening: bytes
    joint: bytes


def _items(tp: Any) -> Any:
    """What a list (or tuple of any length) of `tp` holds; None if it is not one."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    origin, args = get_origin(tp), get_args(tp)
    if origin is list and len(args) == 1:
        return args[0]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


def _bare(tp: Any) -> Any:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def _pair_record(tp: Any) -> tuple[str, str] | None:
    """The two keys of a record of a text and a list, in that order, or None."""
    if not (isinstance(tp, type) and issubclass(tp, msgspec.Struct)):
        return None
    config = tp.__struct_config__  # type: ignore[attr-defined]
    if config.array_like or config.tag_field is not None:
        return None
    fields = msgspec.structs.fields(tp)
    if len(fields) != 2 or _bare(fields[0].type) is not str or _items(fields[1].type) is None:
        return None
    names = (fields[0].encode_name, fields[1].encode_name)
    if not all(_KEY_NAME.fullmatch(name) for name in names):
        return None
    return names


def pair_lists(round_type: type) -> tuple[PairList, ...]:
    """The fields of `round_type` that list (in lists …) two-key records."""
    found = []
    for f in msgspec.structs.fields(round_type):
        items = _items(f.type)
        while items is not None and _items(items) is not None:
            items = _items(items)
        keys = _pair_record(items) if items is not None else None
        if keys is not None:
            first, second = keys
            opening = b'{"' + first.encode() + b'":"'
            joint = b'","' + second.encode() + b'":['
            found.append(PairList(f.encode_name, opening, joint))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class RawFields:
    """The fields of a round type kept as their bytes: pair lists, leaf lists, and objects
    of leaf lists (by their names in the JSON)."""

    pairs: tuple[PairList, ...] = ()
    leaves: tuple[str, ...] = ()
    leaf_maps: tuple[str, ...] = ()

    def mirror_types(self) -> dict[str, Any]:
        """Each field's type in the mirror."""
        kept: dict[str, Any] = {pair.field: msgspec.Raw for pair in self.pairs}
        kept.update(dict.fromkeys(self.leaves, msgspec.Raw))
        kept.update(dict.fromkeys(self.leaf_maps, dict[str, msgspec.Raw]))
        return kept


def raw_fields(round_type: type, is_leaf: Callable[[Any], bool]) -> RawFields:
    """The fields of `round_type` to keep as bytes (none unless it has pair lists);
    `is_leaf` tells a leaf type."""
    pairs = pair_lists(round_type)
    if not pairs:
        return RawFields()
    leaves, leaf_maps = [], []
    for f in msgspec.structs.fields(round_type):
        tp = _bare(f.type)
        items = _items(tp)
        if items is not None and is_leaf(items):
            leaves.append(f.encode_name)
        elif get_origin(tp) is dict:
            key, value = get_args(tp)
            items = _items(value)
            if _bare(key) is str and items is not None and is_leaf(items):
                leaf_maps.append(f.encode_name)
    return RawFields(pairs, tuple(leaves), tuple(leaf_maps))


def flat_leaves(rounds: Any, fields: RawFields) -> bool:
    """True: the leaf lists of `rounds` (a mirror's records) read as the module's docstring
    says."""
    texts: list[Any] = []
    for record in rounds:
        for name in fields.leaves:
            text = getattr(record, name)
            if text is not msgspec.UNSET:
                texts.append(text)
        for name in fields.leaf_maps:
            lists = getattr(record, name)
            if lists is not msgspec.UNSET:
                texts.extend(lists.values())
    if not texts:
        return True
    joined = b"\0".join(texts)  # no JSON text holds a NUL byte
    digits = sys.get_int_max_str_digits()
    return (
        b"{" not in joined
        and joined.startswith(b"[")
        and joined.count(b"[") == joined.count(b"\0[") + 1 == len(texts)
        and not (digits and max(map(len, texts)) > digits)
        and _text(joined)
    )


def _text(joined: bytes) -> bool:
    if joined.isascii():
        return True
    try:
        joined.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def emptied_colons(rounds: Any, pairs: tuple[PairList, ...]) -> int:
    """The 2N colons that the pair lists of `rounds` (a mirror's records) take, each list
    replaced in its record by `[]` (for the mirror to be written back without them); -1
    where their texts do not read as the module's docstring says (nothing is then proven)."""
    objects = 0
    digits = sys.get_int_max_str_digits()
    for pair in pairs:
        texts = []
        for record in rounds:
            text = getattr(record, pair.field)
            if text is not msgspec.UNSET:
                texts.append(text)
                setattr(record, pair.field, EMPTIED)
        if not texts:
            continue
        joined = b"\n".join(texts)
        count = joined.count(pair.opening)
        if joined.count(pair.joint) != count:
            return -1
        if digits and max(map(len, texts)) > digits:
            return -1  # a number too long for `json` to read could hide in it
        if not _text(joined):
            return -1
        if not _shallow(joined, texts):
            return -1
        objects += count
    return 2 * objects


def _shallow(joined: bytes, texts: list[Any]) -> bool:
    start = 0
    for text in texts:
        end = start + len(text)
        if joined.count(b"[", start, end) >= MAX_BRACKETS:
            return False
        start = end + 1
    return True
