"""分块筛选: a worker's lines of a plain ledger's blocks, decoded in full only where wanted.

Each block of whole lines (logs/platform_reader.py, "the ledger in blocks") is first
decoded at once into a small type (who, what kind) where each line is proven to hold
one object; the worker picks the lines it wants, and only those are decoded in full,
together, with the block tests of `whole_block` (which hold for any set of whole
lines), or line by line where a test fails, so that each line reads as the line
path reads it. A block whose small decode fails is read in full (`checked_block`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import msgspec

from compliance.logs.lines import MAX_LINE_BYTES
from compliance.logs.platform_reader import (
    checked_block,
    file_blocks,
    line_event,
    objects_a_line,
    whole_block,
)
from compliance.logs.platform_records import LedgerEvent
from compliance.logs.reader import Reject

Sifted = tuple[Sequence[int], list[LedgerEvent]] | tuple[Reject, bytes | None]


def sifted_blocks(
    path: str,
    owners: msgspec.json.Decoder[Any],
    choose: Callable[[list[Any]], list[int]],
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
) -> Iterator[Sifted]:
    """挑选读取: a plain ledger's events as (their line numbers, the events), the lines
    `choose` picks of each block's `owners` (every line where a block cannot be read so
    at once), or a reject with its line's bytes (None for a line past the limit); the
    events and rejects of the picked lines as `event_blocks` reads them, in order."""

    def read(shown: str, before: int, block: bytes) -> Iterator[Sifted]:
        return _sifted(shown, before, block, owners, choose)

    return file_blocks(path, name or path, max_line_bytes, read)


def _sifted(
    shown: str,
    before: int,
    block: bytes,
    owners: msgspec.json.Decoder[Any],
    choose: Callable[[list[Any]], list[int]],
) -> Iterator[Sifted]:
    got = objects_a_line(block, owners)
    if got is None:
        for start, found in checked_block(shown, before, block):
            if isinstance(start, Reject):
                yield start, cast(bytes, found)
            else:
                events = cast(list[LedgerEvent], found)
                yield range(start, start + len(events)), events
        return
    picked = choose(got)
    if not picked:
        return
    pieces = block.split(b"\n")
    ended = not pieces[-1]
    if ended:
        pieces.pop()
    last = len(pieces) - 1
    raws = [pieces[i] + b"\n" if ended or i < last else pieces[i] for i in picked]
    numbers = [before + 1 + i for i in picked]
    whole = whole_block(b"".join(raws))
    if whole is not None:
        yield numbers, whole
        return
    for number, raw in zip(numbers, raws, strict=True):
        item = line_event(shown, number, raw)
        yield (item, raw) if isinstance(item, Reject) else ([number], [item[1]])
