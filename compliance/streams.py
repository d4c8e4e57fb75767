"""输入流: `-` for standard input, pipes and FIFOs read once from the start, gzip by its bytes.

A log or rule file may be a regular file, `-` (standard input), `/dev/stdin`,
a process substitution `<(…)` or a named pipe. Those last can be read only
once, front to back: nothing here seeks them.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import shutil
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, BinaryIO

STDIN = "-"
GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"


def is_stdin(path: str | os.PathLike) -> bool:
    return os.fspath(path) == STDIN


def is_stream(path: str | os.PathLike) -> bool:
    """Standard input, a pipe, a FIFO or a character device: what cannot be split by offsets."""
    if is_stdin(path):
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


class _Prefixed(io.RawIOBase):
    """The bytes already taken from a stream, then the rest of it."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


STREAM_DIGESTS: dict[str, str] = {}
"""SHA-256 of each stream read to its end in this process, by the name it was given: a
stream cannot be read again to digest it, so it is digested as it is read."""


class _Digesting(io.RawIOBase):
    """A stream's bytes as they come, digested; the digest is kept when its end is reached."""

    def __init__(self, name: str, raw: IO[bytes]):
        self.name, self.raw, self.sha = name, raw, hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.raw.read(len(buffer))
        if not data:
            STREAM_DIGESTS[self.name] = self.sha.hexdigest()
            return 0
        self.sha.update(data)
        buffer[: len(data)] = data
        return len(data)


def _head(fh: IO[bytes], n: int) -> bytes:
    head = b""
    while len(head) < n:
        chunk = fh.read(n - len(head))
        if not chunk:
            break
        head += chunk
    return head


@contextmanager
def open_binary(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """The raw bytes of a file, or of standard input for `-` (left open)."""
    name = os.fspath(path)
    if is_stdin(path):
        yield io.BufferedReader(_Digesting(name, sys.stdin.buffer), 1 << 16)
        return
    with open(path, "rb") as fh:
        if is_stream(path):
            yield io.BufferedReader(_Digesting(name, fh), 1 << 16)
            return
        yield fh


@contextmanager
def open_log(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """The bytes of a log read front to back: gunzipped where the name ends in `.gz` or the
    first bytes are gzip's magic, whatever the name; seekable or not."""
    with open_binary(path) as raw:
        if raw.seekable():
            at = raw.tell()
            head = _head(raw, 2)
            raw.seek(at)
            stream: BinaryIO = raw
        else:
            head = _head(raw, 2)
            stream = io.BufferedReader(_Prefixed(head, raw))
        if os.fspath(path).endswith(".gz") or head == GZIP_MAGIC:
            with gzip.GzipFile(fileobj=stream, mode="rb") as unzipped:
                yield unzipped  # type: ignore[misc]
            return
        yield stream


def is_gzip_file(path: str | os.PathLike) -> bool:
    """A regular file gzipped: by its name or its first two bytes."""
    if os.fspath(path).endswith(".gz"):
        return True
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == GZIP_MAGIC
    except OSError:
        return False


def read_all(path: str | os.PathLike) -> bytes:
    """The whole of a small file (a rule file, a CSV, a round record), gunzipped if it is
    gzip, its byte-order mark dropped."""
    with open_log(path) as fh:
        data = _rest(fh)
    return data[len(BOM) :] if data.startswith(BOM) else data


def _rest(fh: BinaryIO) -> bytes:
    """What is left of a stream; of a plain file, read from the file itself: the buffered
    reader would join its buffer to the rest, one more copy of the whole (a tenth of
    reading a 50 MB log for `games settle`)."""
    raw = getattr(fh, "raw", None)
    if isinstance(raw, io.FileIO):
        raw.seek(fh.tell())
        return raw.readall()
    return fh.read()


def spool(path: str | os.PathLike, folder: str) -> str:
    """A stream copied to a file in `folder`, as it came (compressed or not); its path."""
    target = os.path.join(folder, "spooled-input")
    n = 0
    while os.path.exists(f"{target}-{n}"):
        n += 1
    with open_binary(path) as raw, open(f"{target}-{n}", "wb") as out:
        shutil.copyfileobj(raw, out, 1 << 20)
    return f"{target}-{n}"
