"""日志读取: stream sessions from .jsonl / .jsonl.gz files, line-numbered.

Every line ends as a decoded `Session` or a `Reject`; nothing is dropped.
A file can be read whole or by a byte range that starts and ends on line
boundaries, which is how parallel audits split their input. Standard input
(`-`), pipes and FIFOs are read whole, front to back; gzip is known by its
name or its first bytes, and a byte-order mark before the first line is dropped.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import jiter
import msgspec

from compliance.errors import DecodeError
from compliance.logs.key_counts import Engines, keys_counted
from compliance.logs.lines import (
    MAX_LINE_BYTES,
    LongLine,
    UnreadableRest,
    iter_lines_at,
    lines_of,
)
from compliance.logs.records import ID_LENGTH, Session, SessionId

_decoder = msgspec.json.Decoder(Session)
_id_decoder = msgspec.json.Decoder(SessionId)
MAX_POINT_VALUE = 100_000_000  # what the database's point_value column holds
MAX_CASH = Decimal(10**15)  # yuan, as every stored money figure (domain/storable.py)
TOO_DEEP = (
    "nested too deeply to decode (arrays or objects inside one another past the decoder's limit)"
)
_ID_PATTERN = re.compile(rb'"session_id"\s*:\s*"([^"\\]{1,200})"')


@dataclass(frozen=True, slots=True)
class Reject:
    """拒收: a line that could not be audited, with where it was and why."""

    file: str
    line: int
    session_id: str | None
    reason: str

    def describe(self) -> str:
        where = f"{self.file}:{self.line}"
        sid = f" session {self.session_id}" if self.session_id else ""
        return f"{where}{sid}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Located:
    """A decoded session and where it came from: the line's number, its first byte's offset
    (in the file, or in the stream as decompressed), the SHA-256 of its bytes (without the
    line ending or a byte-order mark), and the bytes themselves where they are to be kept."""

    file: str
    line: int
    session: Session
    offset: int = -1
    digest: str | None = None
    raw: bytes | None = None


def typed_decode(decoder: msgspec.json.Decoder, raw: bytes, what: str) -> Any:
    """The line decoded into `decoder`'s type; DecodeError with a one-line reason."""
    try:
        return decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise DecodeError(f"invalid {what}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise DecodeError(f"malformed JSON: {exc}") from None
    except RecursionError:
        raise DecodeError(TOO_DEEP) from None


def decode_session(raw: bytes, engines: Engines | None = None) -> Session:
    """Decode one line; raise DecodeError with a one-line reason. With `engines`
    (`compliance.games.get_game`) its keys are proven distinct by counting them against its
    game's round record (`key_counts`); what that leaves, `parsed_duplicate_key` checks."""
    session: Session = typed_decode(_decoder, raw, "session")
    proven = engines is not None and keys_counted(raw, session, engines)
    twice = None if proven else parsed_duplicate_key(raw)
    if twice is not None:
        raise DecodeError(f"a JSON object names {twice!r} twice (the last would win unseen)")
    if session.started_at.tzinfo is None:
        raise DecodeError("started_at has no time zone")
    if session.point_value is not None and not session.point_value.is_finite():
        raise DecodeError("point_value must be a finite number")
    if session.point_value is not None and not 0 < session.point_value < MAX_POINT_VALUE:
        raise DecodeError(
            f"point_value must be a positive number of yuan below {MAX_POINT_VALUE:,}"
        )
    places = session.point_value.as_tuple().exponent if session.point_value is not None else 0
    if isinstance(places, int) and places < -4:
        raise DecodeError("point_value has more than 4 decimal places (a ten-thousandth of a yuan)")
    check_cash("scene_cash", session.scene_cash)
    for i, player in enumerate(session.players):
        check_cash(f"players[{i}].scene_cash", player.scene_cash)
    return session


def check_cash(field: str, cash: Decimal | None) -> None:
    """现场赌资: yuan, finite, from 0 to below 10^15, to the fen (the money columns' figures)."""
    if cash is None:
        return
    if not cash.is_finite() or not 0 <= cash < MAX_CASH:
        raise DecodeError(f"{field} must be a number of yuan from 0 to below 10^15")
    places = cash.as_tuple().exponent
    if isinstance(places, int) and places < -2:
        raise DecodeError(f"{field} has more than 2 decimal places (a fen)")


def duplicate_key(raw: bytes) -> str | None:
    """The first key named twice in one object of the line, at any depth, escapes read.

    jiter (compiled) proves most lines free of repeats; a line it refuses for any
    reason (a repeat, or nesting past its limit of 200) is read again by the standard
    library, which names the key exactly or finds none.
    """
    try:
        jiter.from_json(raw, catch_duplicate_keys=True, cache_mode="keys")
    except ValueError:
        return _named_twice(raw)
    return None


NUMPY_PROOF_FROM = 32_768  # bytes: below, jiter's parse is the cheaper proof


def parsed_duplicate_key(raw: bytes) -> str | None:
    """`duplicate_key` of a line a JSON decoder has accepted: a long one is proven free
    of repeats in numpy (`distinct_keys`), without building its objects; a short one
    by jiter, whose parse costs less there (a 9 kB 斗牛 line: 137 µs against numpy's
    241; a 75 kB 升级 line: 1,860 against 809; docs/performance.md). numpy loads with the
    first long line, so a log of short ones starts without it."""
    if len(raw) >= NUMPY_PROOF_FROM:
        from compliance.logs.distinct_keys import keys_distinct

        if keys_distinct(raw):
            return None
    return duplicate_key(raw)


def _named_twice(raw: bytes) -> str | None:
    objects: list[list[tuple[str, object]]] = []
    try:
        json.loads(raw, object_pairs_hook=objects.append)
    except RecursionError:
        raise DecodeError(TOO_DEEP) from None
    except ValueError as exc:
        raise DecodeError(f"malformed JSON: {exc}") from None
    if sum(map(len, objects)) == sum(map(len, map(dict, objects))):
        return None
    for pairs in objects:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                return key
            seen.add(key)
    return None


def guess_session_id(raw: bytes) -> str | None:
    """The session id of a line that failed to decode, if one can be seen (cut to what
    the rejects' column holds)."""
    try:
        found = _id_decoder.decode(raw).session_id
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        match = _ID_PATTERN.search(raw)
        found = match.group(1).decode("utf-8", "replace") if match else None
    if found is not None and len(found) > ID_LENGTH:
        return found[: ID_LENGTH - 1] + "…"
    return found


def read_sessions(
    path: str,
    start: int = 0,
    end: int | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
    keep_lines: bool = False,
    engines: Engines | None = None,
) -> Iterator[Located | Reject]:
    """Every session of a file (or byte range), in order, or the reject it became;
    where the rest of a file cannot be read, one reject says from which line. Both
    name the file `name` where given (a stream spooled to a file keeps the name given).
    `keep_lines`: each session carries its line's bytes. `engines`: as `decode_session`."""
    lines = iter_lines_at(path, start, end, max_line_bytes)
    yield from _sessions(lines, name or path, keep_lines, engines=engines)


def sessions_in(
    data: bytes, name: str, engines: Engines | None = None
) -> Iterator[Located | Reject]:
    """Every session of a log already read into memory (plain bytes), as `read_sessions`
    but without the lines' digests (such a log is settled, not stored)."""
    lines = lines_of(io.BytesIO(data), MAX_LINE_BYTES)
    yield from _sessions(lines, name, digests=False, engines=engines)


def _sessions(
    lines: Iterator[tuple[int, bytes | LongLine, int]],
    shown: str,
    keep_lines: bool = False,
    digests: bool = True,
    engines: Engines | None = None,
):
    try:
        for number, raw, offset in lines:
            if isinstance(raw, LongLine):
                yield Reject(shown, number, None, raw.reason())
                continue
            try:
                session = decode_session(raw, engines)
                if not digests:
                    yield Located(shown, number, session, offset)
                    continue
                content = raw.rstrip(b"\r\n")
                digest = hashlib.sha256(content).hexdigest()
                kept = content if keep_lines else None
                yield Located(shown, number, session, offset, digest, kept)
            except DecodeError as exc:
                yield Reject(shown, number, guess_session_id(raw), str(exc))
    except UnreadableRest as exc:
        yield Reject(shown, exc.line, None, exc.reason)
