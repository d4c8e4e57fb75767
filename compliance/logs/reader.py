"""日志读取: stream sessions from .jsonl / .jsonl.gz files, line-numbered.

Every line ends as a decoded `Session` or a `Reject`; nothing is dropped.
A file can be read whole or by a byte range that starts and ends on line
boundaries, which is how parallel audits split their input. Standard input
(`-`), pipes and FIFOs are read whole, front to back; gzip is known by its
name or its first bytes, and a byte-order mark before the first line is dropped.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import jiter
import msgspec

from compliance.errors import DecodeError
from compliance.logs.records import ID_LENGTH, Session, SessionId
from compliance.streams import BOM, is_gzip_file, is_stream, open_log

if TYPE_CHECKING:
    from compliance.logs.distinct_keys import ChunkProofs

_decoder = msgspec.json.Decoder(Session)
_id_decoder = msgspec.json.Decoder(SessionId)
MAX_POINT_VALUE = 100_000_000  # what the database's point_value column holds
MAX_CASH = Decimal(10**15)  # yuan, as every stored money figure (domain/storable.py)
MAX_LINE_BYTES = 64 << 20
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


def is_gzip(path: str) -> bool:
    """Gzip by its name or its magic bytes; a stream is not opened to find out."""
    return path.endswith(".gz") or (not is_stream(path) and is_gzip_file(path))


def is_whole(path: str) -> bool:
    """Read only whole, front to back: gzip, standard input, a pipe or a FIFO."""
    return is_stream(path) or is_gzip(path)


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


def decode_session(raw: bytes, keys_proven: bool = False) -> Session:
    """Decode one line; raise DecodeError with a one-line reason. `keys_proven`: the line's
    keys are known distinct already (`distinct_keys.ChunkProofs`), so they are not checked again."""
    session: Session = typed_decode(_decoder, raw, "session")
    twice = None if keys_proven else parsed_duplicate_key(raw)
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


CHUNK_PROOFS_FROM = 16 << 20  # bytes of a log of short lines: below, numpy's import outweighs


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


@dataclass(frozen=True, slots=True)
class LongLine:
    """超长行: a line longer than the limit, skipped without being held; its length in bytes."""

    length: int
    limit: int

    def reason(self) -> str:
        return f"line longer than {self.limit:,} bytes ({self.length:,} bytes): not read"


def _next_line(fh, limit: int) -> tuple[bytes | LongLine, int]:
    """The next line (b"" at the end) or, past `limit` bytes, a LongLine; and the bytes consumed.

    A long line is skipped to its newline a chunk at a time, so no more than
    `limit` bytes are ever held.
    """
    raw = fh.readline(limit + 1)
    if len(raw) <= limit or raw.endswith(b"\n"):
        return raw, len(raw)
    return _rest_of_long(fh, raw, limit)


def _rest_of_long(fh, raw: bytes, limit: int) -> tuple[LongLine, int]:
    """A line past `limit` whose first `limit` + 1 bytes are `raw`: read to its end."""
    length = len(raw)
    while True:
        chunk = fh.readline(1 << 20)
        length += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            break
    content = length - 1 if chunk.endswith(b"\n") else length
    return LongLine(content, limit), length


def iter_lines(
    path: str, start: int = 0, end: int | None = None, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | LongLine]]:
    """(line number, bytes) of every non-blank line; a byte range for plain files."""
    for number, raw, _ in iter_lines_at(path, start, end, max_line_bytes):
        yield number, raw


def iter_lines_at(
    path: str, start: int = 0, end: int | None = None, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | LongLine, int]]:
    """(line number, bytes, offset) of every non-blank line; a byte range for plain files.

    A range owns the lines that start inside it. Line numbers in a range are
    counted from the file's beginning, so rejects name the true line. A line
    longer than `max_line_bytes` comes as a LongLine, read past in bounded memory.
    """
    if is_whole(path):
        if start or end is not None:
            raise ValueError("gzip files and streams are read whole")
        yield from _whole_lines(path, max_line_bytes)
        return
    with open(path, "rb") as fh:
        marks = _line_marks(path, fh)
        number = 0
        if start:
            known = max((o for o in marks if o <= start - 1), default=0)
            number = marks.get(known, 0) + _count_lines(fh, known, start - 1)
            fh.seek(start - 1)
            if fh.read(1) != b"\n":
                while (chunk := fh.readline(1 << 20)) and not chunk.endswith(b"\n"):
                    pass
            number += 1
        pos = fh.tell()
        limit = end if end is not None else float("inf")
        readline = fh.readline
        while pos < limit:
            got = readline(max_line_bytes + 1)
            size = len(got)
            raw: bytes | LongLine = got
            if size > max_line_bytes and not got.endswith(b"\n"):
                raw, size = _rest_of_long(fh, got, max_line_bytes)
            if not raw:
                break
            number += 1
            at, pos = pos, pos + size
            if number == 1:
                raw = _without_bom(raw)
            if isinstance(raw, LongLine) or not raw.isspace():
                yield number, raw, at
        marks[pos] = number


def _whole_lines(path: str, max_line_bytes: int) -> Iterator[tuple[int, bytes | LongLine, int]]:
    with open_log(path) as fh:
        yield from _lines_of(fh, max_line_bytes)


def _lines_of(fh, max_line_bytes: int) -> Iterator[tuple[int, bytes | LongLine, int]]:
    """Every non-blank line of a stream read front to back, with its offset in the stream;
    damage of a gzip stream ends it as UnreadableRest."""
    number = pos = 0
    unzipping = isinstance(fh, gzip.GzipFile)
    try:
        while True:
            raw, size = _next_line(fh, max_line_bytes)
            if not raw:
                break
            number += 1
            at, pos = pos, pos + size
            if number == 1:
                raw = _without_bom(raw)
            if isinstance(raw, LongLine) or not raw.isspace():
                yield number, raw, at
    except (OSError, EOFError, zlib.error) as exc:
        if not unzipping:
            raise
        raise UnreadableRest(number + 1, _gzip_reason(exc)) from None


def _without_bom(raw: bytes | LongLine) -> bytes | LongLine:
    """A UTF-8 byte-order mark (which editors on Windows write) is no part of the JSON."""
    if isinstance(raw, bytes) and raw.startswith(BOM):
        return raw[len(BOM) :]
    return raw


class UnreadableRest(Exception):
    """The file cannot be read on from this line (a corrupt or cut-off gzip stream)."""

    def __init__(self, line: int, reason: str):
        super().__init__(reason)
        self.line, self.reason = line, reason


def _gzip_reason(exc: Exception) -> str:
    if isinstance(exc, EOFError):
        what = "the gzip stream is cut off"
    elif isinstance(exc, gzip.BadGzipFile) and "Not a gzipped file" in str(exc):
        what = "not a gzip file"
    else:
        what = f"corrupt gzip data ({exc})"
    return f"{what}: nothing from this line on can be read"


_MARKS: dict[tuple, dict[int, int]] = {}


def _line_marks(path: str, fh) -> dict[int, int]:
    """Byte offsets of line starts this process has read up to → lines before them.

    A range's first line number is counted from the nearest mark before it,
    not from the file's start: a process auditing ranges in order reads each
    byte about once, where counting from the start read a large file's
    beginning once per range.
    """
    stat = os.fstat(fh.fileno())
    key = (path, stat.st_ino, stat.st_size, stat.st_mtime_ns)
    if key not in _MARKS:
        if len(_MARKS) >= 16:
            _MARKS.clear()
        _MARKS[key] = {}
    return _MARKS[key]


def _count_lines(fh, start: int, upto: int) -> int:
    """Newlines in the bytes [start, upto)."""
    fh.seek(start)
    count = 0
    remaining = upto - start
    while remaining > 0:
        chunk = fh.read(min(1 << 20, remaining))
        if not chunk:
            break
        count += chunk.count(b"\n")
        remaining -= len(chunk)
    return count


def read_sessions(
    path: str,
    start: int = 0,
    end: int | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
    keep_lines: bool = False,
) -> Iterator[Located | Reject]:
    """Every session of a file (or byte range), in order, or the reject it became;
    where the rest of a file cannot be read, one reject says from which line. Both
    name the file `name` where given (a stream spooled to a file keeps the name given).
    `keep_lines`: each session carries its line's bytes."""
    lines = iter_lines_at(path, start, end, max_line_bytes)
    yield from _sessions(lines, name or path, keep_lines)


def sessions_in(data: bytes, name: str) -> Iterator[Located | Reject]:
    """Every session of a log already read into memory (plain bytes), as `read_sessions`
    but without the lines' digests (such a log is settled, not stored), its keys proven
    distinct a chunk of lines at a time (`distinct_keys.ChunkProofs`) when it is large."""
    lines = _lines_of(io.BytesIO(data), MAX_LINE_BYTES)
    yield from _sessions(lines, name, digests=False, proofs=chunk_proofs(data))


def chunk_proofs(data: bytes) -> ChunkProofs | None:
    """Chunk proofs for a log that is large, or whose first line loads numpy anyway."""
    first = data.find(b"\n")
    if len(data) < CHUNK_PROOFS_FROM and (first if first >= 0 else len(data)) < NUMPY_PROOF_FROM:
        return None
    from compliance.logs.distinct_keys import ChunkProofs

    return ChunkProofs(data)


def _sessions(
    lines: Iterator[tuple[int, bytes | LongLine, int]],
    shown: str,
    keep_lines: bool = False,
    digests: bool = True,
    proofs: ChunkProofs | None = None,
):
    try:
        for number, raw, offset in lines:
            if isinstance(raw, LongLine):
                if proofs is not None:
                    proofs.refused()
                yield Reject(shown, number, None, raw.reason())
                continue
            try:
                proven = proofs is not None and proofs.line_at(offset)
                session = decode_session(raw, proven)
                if not digests:
                    yield Located(shown, number, session, offset)
                    continue
                content = raw.rstrip(b"\r\n")
                digest = hashlib.sha256(content).hexdigest()
                kept = content if keep_lines else None
                yield Located(shown, number, session, offset, digest, kept)
            except DecodeError as exc:
                if proofs is not None:
                    proofs.refused()
                yield Reject(shown, number, guess_session_id(raw), str(exc))
    except UnreadableRest as exc:
        yield Reject(shown, exc.line, None, exc.reason)


def split_ranges(path: str, parts: int) -> list[tuple[int, int | None]]:
    """Byte ranges that cover the file; each range owns lines starting in it."""
    if is_whole(path) or parts <= 1:
        return [(0, None)]
    size = os.path.getsize(path)
    step = max(1, size // parts)
    bounds = [i * step for i in range(parts)] + [size]
    return [(bounds[i], bounds[i + 1]) for i in range(parts) if bounds[i] < bounds[i + 1]]
