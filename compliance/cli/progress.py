"""进度: a progress bar (count of total, rate, time left) on a terminal's stderr; silent otherwise.

Silent whenever stderr is not a terminal (a pipe, a file, CliRunner), under
TERM=dumb, and when CI is set, so no output of a pipe or a log changes.
"""

from __future__ import annotations

import gzip
import os
import sys
from collections.abc import Iterable
from typing import IO, NoReturn

from tqdm import tqdm

from compliance.logs.bytecount import occurrences
from compliance.streams import is_stream

MININTERVAL = 0.5  # seconds between redraws


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def is_interactive(stream: IO[str] | None = None) -> bool:
    """A person watches: stderr is a terminal that draws, outside CI."""
    if os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    return _isatty(stream or sys.stderr)


def bar(desc: str, total: int | None = None, unit: str = "session") -> tqdm[NoReturn]:
    """A bar to `update()` as items are done; `total` may be set later (None: count and rate)."""
    stream = sys.stderr
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        file=stream,
        disable=not is_interactive(stream),
        leave=False,
        dynamic_ncols=True,
        mininterval=MININTERVAL,
    )


def set_total(progress: tqdm[NoReturn], total: int | None) -> None:
    """Give a running bar its total once it is known."""
    progress.total = total
    progress.refresh()


def count_lines(files: Iterable[str]) -> int | None:
    """The lines of the input files, one session each; None when one is a stream."""
    total = 0
    for path in files:
        if is_stream(path):
            return None
        last = b"\n"
        with open(path, "rb") as raw:
            gzipped = raw.read(2) == b"\x1f\x8b"
        with gzip.open(path) if gzipped else open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                total += occurrences(chunk, b"\n")
                last = chunk[-1:]
        total += last != b"\n"
    return total
