"""读行: the lines of a log, numbered, from a file (whole or a byte range on line
boundaries), a gzip file or a stream; a line past the limit is skipped in bounded
memory as a `LongLine`, and a damaged gzip stream ends as `UnreadableRest`."""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from compliance.logs.bytecount import occurrences
from compliance.streams import BOM, is_gzip_file, is_stream, open_log

MAX_LINE_BYTES = 64 << 20


def is_gzip(path: str) -> bool:
    """Gzip by its name or its magic bytes; a stream is not opened to find out."""
    return path.endswith(".gz") or (not is_stream(path) and is_gzip_file(path))


def is_whole(path: str) -> bool:
    """Read only whole, front to back: gzip, standard input, a pipe or a FIFO."""
    return is_stream(path) or is_gzip(path)


@dataclass(frozen=True, slots=True)
class LongLine:
    """超长行: a line longer than the limit, skipped without being held; its length in bytes."""

    length: int
    limit: int

    def reason(self) -> str:
        return f"line longer than {self.limit:,} bytes ({self.length:,} bytes): not read"


def next_line(fh, limit: int) -> tuple[bytes | LongLine, int]:
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
        yield from lines_of(fh, max_line_bytes)


def lines_of(fh, max_line_bytes: int) -> Iterator[tuple[int, bytes | LongLine, int]]:
    """Every non-blank line of a stream read front to back, with its offset in the stream;
    damage of a gzip stream ends it as UnreadableRest."""
    number = pos = 0
    unzipping = isinstance(fh, gzip.GzipFile)
    try:
        while True:
            raw, size = next_line(fh, max_line_bytes)
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
        count += occurrences(chunk, b"\n")
        remaining -= len(chunk)
    return count


def split_ranges(path: str, parts: int) -> list[tuple[int, int | None]]:
    """Byte ranges that cover the file; each range owns lines starting in it."""
    if is_whole(path) or parts <= 1:
        return [(0, None)]
    size = os.path.getsize(path)
    step = max(1, size // parts)
    bounds = [i * step for i in range(parts)] + [size]
    return [(bounds[i], bounds[i + 1]) for i in range(parts) if bounds[i] < bounds[i + 1]]
