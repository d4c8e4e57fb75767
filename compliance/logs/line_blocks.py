"""整块: a plain file's whole lines in blocks, and a block decoded one object a line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from compliance.logs.lines import LongLine, next_line


def plain_blocks(path: str, limit: int, most: int) -> Iterator[tuple[int, bytes | LongLine]]:
    """(lines before it, whole lines) of a plain file, each block at most `most` bytes and
    at most `limit` + 1 so that none of its lines is long; a line that does not fit a block
    alone, read as the line path reads it (bytes, or LongLine past `limit`)."""
    size = min(most, limit + 1)
    with open(path, "rb") as fh:
        number, buf = 0, b""
        while True:
            if len(buf) < size:
                buf += fh.read(size - len(buf))
            if not buf:
                return
            cut = buf.rfind(b"\n") + 1
            if not cut and len(buf) == size:
                fh.seek(fh.tell() - len(buf))
                raw, _ = next_line(fh, limit)
                yield number, raw
                number, buf = number + 1, b""
                continue
            cut = cut or len(buf)
            yield number, buf[:cut]
            number += buf.count(b"\n", 0, cut)
            buf = buf[cut:]


def objects_a_line(block: bytes, decoder: msgspec.json.Decoder[Any]) -> list[Any] | None:
    """一行一个: the block's lines decoded by `decoder`, one object a line, or None where a
    line cannot be shown to hold exactly one (every newline between a `}` and a `{`) or the
    block does not decode."""
    crlf = b"\r" in block
    lines = block.count(b"\n")
    if not block.endswith(b"}\r\n" if crlf else b"}\n"):
        if block.endswith(b"\n") or not block.endswith(b"}"):
            return None
        lines += 1
    if not block.startswith(b"{"):
        return None
    if block.count(b"}\r\n{" if crlf else b"}\n{") != lines - 1:
        return None
    try:
        got = decoder.decode_lines(block)
    except (msgspec.DecodeError, RecursionError):
        return None
    return got if len(got) == lines else None
