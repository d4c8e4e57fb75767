"""进度: when a bar is drawn, and the totals it is given."""

from __future__ import annotations

import gzip
import io

import pytest

from compliance.cli import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "env", "drawn"),
    [
        (Terminal(), {"TERM": "xterm"}, True),
        (io.StringIO(), {"TERM": "xterm"}, False),
        (Terminal(), {"TERM": "dumb"}, False),
        (Terminal(), {"TERM": "xterm", "CI": "true"}, False),
    ],
    ids=["terminal", "pipe-or-file", "dumb-terminal", "ci"],
)
def test_a_bar_is_drawn_only_where_a_person_watches(monkeypatch, stream, env, drawn):
    monkeypatch.delenv("CI", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert progress.is_interactive(stream) is drawn


def test_a_closed_stream_is_not_a_terminal():
    stream = io.StringIO()
    stream.close()
    assert progress.is_interactive(stream) is False


def test_the_total_is_the_lines_of_the_files_plain_or_gzipped(tmp_path):
    plain, packed = tmp_path / "a.jsonl", tmp_path / "b.jsonl.gz"
    plain.write_bytes(b"{}\n{}\n{}")  # the last line has no line end
    with gzip.open(packed, "wb") as out:
        out.write(b"{}\n" * 5)
    assert progress.count_lines([str(plain), str(packed)]) == 8


def test_a_stream_has_no_total():
    assert progress.count_lines(["-"]) is None
