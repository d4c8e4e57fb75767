"""The reader on streams that cannot seek (issue #19): a FIFO read front to back, gzip known
by its first bytes even when they come one at a time, a byte-order mark dropped."""

from __future__ import annotations

import gzip
import os
import threading
import time

from compliance.logs.reader import Located, read_sessions
from compliance.streams import read_all
from tests.conftest import SAMPLES

DOUNIU = SAMPLES / "douniu.jsonl"


def _lines(path) -> list[tuple[str, int, str]]:
    return [
        (i.file, i.line, i.session.session_id)
        for i in read_sessions(str(path))
        if isinstance(i, Located)
    ]


def _trickle(path, data: bytes) -> threading.Thread:
    """A writer that sends the first byte alone, then the rest: a short first read."""

    def write() -> None:
        with open(path, "wb", buffering=0) as fh:
            fh.write(data[:1])
            time.sleep(0.2)
            fh.write(data[1:])

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def test_a_gzipped_fifo_whose_magic_comes_a_byte_at_a_time_reads_as_the_file(tmp_path):
    fifo = tmp_path / "logs"
    os.mkfifo(fifo)
    writer = _trickle(fifo, gzip.compress(b"\xef\xbb\xbf" + DOUNIU.read_bytes()))
    got = _lines(fifo)
    writer.join(timeout=10)
    assert got == [(str(fifo), line, sid) for _, line, sid in _lines(DOUNIU)]
    assert len(got) == 8


def test_read_all_gunzips_and_drops_the_byte_order_mark(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_bytes(gzip.compress(b"\xef\xbb\xbfa = 1\n"))
    assert read_all(path) == b"a = 1\n"
