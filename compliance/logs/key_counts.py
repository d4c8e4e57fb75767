"""键名计数: prove that no object of a session line names a key twice, by counting its keys.

The line is decoded once more into a mirror of its types, `Session` and the game's round
record, in which every field defaults to `msgspec.UNSET`: a field the line gives is set, one
it leaves out is not, and a key named twice sets its field once. Written back by msgspec,
the mirror has one `:` for each distinct key of each object, and after them only the line's
own values (the header's as the bytes they were, a round's as decoded).

The proof is a count of colons. Every key of the line is followed by a colon outside the
strings, so the line has at least as many colons as keys, K, and its strings' colons on top.
Without a backslash a string's bytes are what it decodes to, and a value written back adds
no colon (a round's leaves may only be strings, numbers, booleans, null, literals, enums
and decimals; the header's values are copied as they were), so the mirror's encoding has D colons for its
D distinct keys and at most the line's strings' colons. Equal counts therefore leave
K = D: no object names a key twice. Unequal counts, a backslash, a line the mirror does
not decode (not UTF-8, a round that is not its game's) or a game whose round type has no
mirror (a field of `Any`, a union of records, a record read as an array, a time in a round)
prove nothing, and the caller asks the exact check (`reader.duplicate_key`).

It is meant for a line whose header `Session` has already decoded: the header's scalar
fields are read as raw bytes in the mirror, which is sound only because their types hold.

A round field that lists records of two keys, a text and then a list of leaves (升级's
tricks, `{"player":"…","cards":[…]}` some hundred times a round), and with it the round's
lists of leaves, are not decoded but kept as their bytes and proven by counting bytes
(`raw_fields`): building their objects cost more than the rest of the proof. Whatever that
does not prove goes to the whole mirror, as before.

A game may prove some round fields itself (`EngineSpec.keys_apart`, 掼蛋's plays): a third
mirror keeps them as raw JSON, copied when written back, so their colons stand on both sides
of the count, and the game's prover answers for their keys (and their bytes, by decoding
them). The prover is given the mirror's records of the rounds, which it may keep (掼蛋 makes
its rounds of them rather than decode them again). Where that proves nothing, the whole
mirror is asked as before.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import types
from collections.abc import Callable
from dataclasses import dataclass
from types import GenericAlias
from typing import Annotated, Any, Literal, Protocol, Union, get_args, get_origin

import msgspec
import msgspec.structs

from compliance.errors import ComplianceError
from compliance.logs.bytecount import occurrences
from compliance.logs.raw_fields import RawFields, emptied_colons, flat_leaves, raw_fields
from compliance.logs.records import Session

_encode = msgspec.json.encode
_SCALARS = (str, int, float, bool, type(None), decimal.Decimal)
_HEADER_SCALARS = (*_SCALARS, datetime.datetime, datetime.date, datetime.time)
_UNIONS = (Union, types.UnionType)


class NoMirror(Exception):
    """A type whose keys a mirror cannot count."""


def _is_scalar(tp: Any, allowed: tuple[type, ...]) -> bool:
    origin = get_origin(tp)
    if origin is Annotated:
        return _is_scalar(get_args(tp)[0], allowed)
    if origin is Literal:
        return all(isinstance(v, (str, int)) for v in get_args(tp))
    if origin in _UNIONS:
        return all(_is_scalar(arg, allowed) for arg in get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return all(isinstance(m.value, (str, int)) for m in tp)
    return tp in allowed


class _Mirrors:
    """Mirrors of one kind: header ones, whose scalar leaves stay raw bytes (their types were
    decoded already), or round ones, whose leaves are decoded (checked, UTF-8 and all)."""

    def __init__(self, raw_leaves: bool, kept: dict[type, dict[str, Any]] | None = None):
        self.raw_leaves = raw_leaves
        self.kept = kept or {}  # fields of a record kept as their bytes, by their types
        self.allowed = _HEADER_SCALARS if raw_leaves else _SCALARS
        self.made: dict[type, type] = {}
        self.making: set[type] = set()

    def of(self, tp: Any) -> Any:
        if _is_scalar(tp, self.allowed):
            return msgspec.Raw if self.raw_leaves else _bare(tp)
        origin = get_origin(tp)
        if origin is Annotated:
            return self.of(get_args(tp)[0])
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            return self.record(tp)
        args = get_args(tp)
        if origin in (list, set, frozenset) or (
            origin is tuple and len(args) == 2 and args[1] is Ellipsis
        ):
            return _many(self.of(args[0]))
        if origin is tuple and args:
            return GenericAlias(tuple, tuple(self.of(arg) for arg in args))
        if origin is dict:
            return GenericAlias(dict, (_bare(args[0]), self.of(args[1])))
        if origin in _UNIONS:
            kept = [arg for arg in args if arg is not type(None)]
            if len(kept) == 1:
                return self.of(kept[0]) | None
        raise NoMirror(repr(tp))

    def record(self, tp: type) -> type:
        if tp in self.made:
            return self.made[tp]
        config = tp.__struct_config__  # type: ignore[attr-defined]
        if config.array_like or config.tag_field is not None or tp in self.making:
            raise NoMirror(tp.__name__)
        self.making.add(tp)
        kept = self.kept.get(tp, {})
        try:
            fields = [
                (
                    f.encode_name,
                    (kept[f.encode_name] if f.encode_name in kept else self.of(f.type))
                    | msgspec.UnsetType,
                    msgspec.UNSET,
                )
                for f in msgspec.structs.fields(tp)
            ]
        finally:
            self.making.discard(tp)
        made = msgspec.defstruct(
            f"{tp.__name__}Keys", fields, kw_only=True, forbid_unknown_fields=True, gc=False
        )
        self.made[tp] = made
        return made


def _many(tp: Any) -> Any:
    """A sequence of `tp` as a tuple: cheaper to decode than a list, which the collector tracks."""
    return GenericAlias(tuple, (tp, ...))


def _bare(tp: Any) -> Any:
    """A leaf's type without its bounds (the real decode holds those)."""
    if get_origin(tp) is Annotated:
        return _bare(get_args(tp)[0])
    if get_origin(tp) in _UNIONS:
        return Union[tuple(_bare(arg) for arg in get_args(tp))]  # noqa: UP007
    return tp


def mirror_of(round_type: type, kept: dict[str, Any] | None = None) -> type:
    """The mirror of a session line whose rounds are `round_type` records, the round fields
    named in `kept` of the types given there (`raw_fields`); NoMirror where a type's keys
    cannot be counted."""
    header = _Mirrors(raw_leaves=True)
    rounds = _Mirrors(raw_leaves=False, kept={round_type: kept or {}})
    fields = []
    for f in msgspec.structs.fields(Session):
        tp = _many(rounds.of(round_type)) if f.name == "rounds" else header.of(f.type)
        fields.append((f.encode_name, tp | msgspec.UnsetType, msgspec.UNSET))
    return msgspec.defstruct(
        "SessionKeys", fields, kw_only=True, forbid_unknown_fields=True, gc=False
    )


class Engines(Protocol):
    """What finds a game's round record: `compliance.games.get_game`, given by the caller
    (the engines import this package, so it cannot import them)."""

    def __call__(self, code: str, /) -> Any: ...


# a game's proof of round fields apart: the mirror's record of each round of a line (the
# field as raw JSON, UNSET where a round leaves it out), and the line's raw `rounds` as
# `Session` decoded them
Prover = Callable[[tuple[Any, ...], msgspec.Raw], bool]


@dataclass(frozen=True, slots=True)
class _Proof:
    """A game's decoders of mirrors: `whole`; where its rounds list two-key records,
    `bytes_kept` that keeps those and its leaf lists as their bytes (`raw_fields`); where
    the game proves round fields itself, `apart` that keeps them raw, with their `provers`."""

    whole: msgspec.json.Decoder[Any]
    kept: RawFields = RawFields()
    bytes_kept: msgspec.json.Decoder[Any] | None = None
    apart: msgspec.json.Decoder[Any] | None = None
    provers: tuple[tuple[str, Prover], ...] = ()


_proofs: dict[type, _Proof | None] = {}


def _proof(game: str, engines: Engines) -> _Proof | None:
    try:
        spec = engines(game).spec
    except ComplianceError:  # not a game: the line is refused later
        return None
    round_type = spec.round_type
    if round_type not in _proofs:
        try:
            whole: msgspec.json.Decoder[Any] = msgspec.json.Decoder(mirror_of(round_type))
        except NoMirror:
            _proofs[round_type] = None
        else:
            kept = raw_fields(round_type, lambda tp: _is_scalar(tp, _SCALARS))
            fast: msgspec.json.Decoder[Any] | None = None
            if kept.pairs:
                fast = msgspec.json.Decoder(mirror_of(round_type, kept.mirror_types()))
            provers = getattr(spec, "keys_apart", {})
            apart: msgspec.json.Decoder[Any] | None = None
            if provers:
                raw = dict.fromkeys(provers, msgspec.Raw)
                apart = msgspec.json.Decoder(mirror_of(round_type, raw))
            _proofs[round_type] = _Proof(whole, kept, fast, apart, tuple(provers.items()))
    return _proofs[round_type]


def keys_counted(raw: bytes, session: Session, engines: Engines) -> bool:
    """True: proven that no object of the line, decoded as `session`, names a key twice
    (its rounds as `engines` says its game's are). False proves nothing."""
    if b"\\" in raw:
        return False
    proof = _proof(session.game, engines)
    if proof is None:
        return False
    colons = occurrences(raw, b":")
    if proof.apart is not None and _proven_apart(raw, colons, session.rounds, proof.apart, proof):
        return True
    if proof.bytes_kept is not None:
        mirror = _decoded(proof.bytes_kept, raw)
        if mirror is None:  # the whole mirror accepts no more than this one
            return False
        rounds = () if mirror.rounds is msgspec.UNSET else mirror.rounds
        taken = emptied_colons(rounds, proof.kept.pairs)
        if (
            taken >= 0
            and flat_leaves(rounds, proof.kept)
            and colons == occurrences(_encode(mirror), b":") + taken
        ):
            return True
    mirror = _decoded(proof.whole, raw)
    return mirror is not None and colons == occurrences(_encode(mirror), b":")


def _decoded(decoder: msgspec.json.Decoder[Any], raw: bytes) -> Any:
    try:
        return decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def _proven_apart(
    raw: bytes, colons: int, rounds: msgspec.Raw, apart: msgspec.json.Decoder[Any], proof: _Proof
) -> bool:
    """The count with the fields apart copied raw (their colons on both sides), and those
    fields proven by the game. A proof here is one the whole mirror would give: each prover
    says its text decodes as its field's type with no key named twice in it."""
    mirror = _decoded(apart, raw)
    if mirror is None or mirror.rounds is msgspec.UNSET:
        return False
    if colons != occurrences(_encode(mirror), b":"):
        return False
    return all(prove(mirror.rounds, rounds) for _, prove in proof.provers)
