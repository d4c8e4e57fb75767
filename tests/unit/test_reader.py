"""The streaming reader: line numbers, byte ranges, gzip, rejects."""

from __future__ import annotations

import gzip
import itertools
import json

import pytest

from compliance.logs.lines import split_ranges
from compliance.logs.reader import Located, Reject, read_sessions
from tests.conftest import SAMPLES
from tests.sample_logs import render


def test_the_committed_samples_are_what_the_builders_make():
    for name, text in render().items():
        assert (SAMPLES / name).read_text(encoding="utf-8") == text, name


def test_every_line_ends_as_a_session_or_a_reject_with_its_line_number():
    items = list(read_sessions(str(SAMPLES / "bad.jsonl")))
    assert [type(i).__name__ for i in items] == ["Located", "Reject", "Located", "Located"]
    assert [i.line for i in items] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("{", "malformed JSON: Input data was truncated"),
        (
            '{"format": "stakelog/2"}',
            "invalid session: Invalid enum value 'stakelog/2' - at `$.format`",
        ),
        ("[]", "invalid session: Expected `object`, got `array`"),
    ],
    ids=["truncated", "wrong-format", "not-an-object"],
)
def test_a_bad_line_gives_a_one_line_reason(tmp_path, line, reason):
    path = tmp_path / "x.jsonl"
    path.write_text(line + "\n")
    (item,) = read_sessions(str(path))
    assert isinstance(item, Reject)
    assert item.reason.startswith(reason)
    assert "\n" not in item.reason


def test_a_session_without_a_time_zone_is_rejected(tmp_path):
    session = json.loads((SAMPLES / "douniu.jsonl").read_text().splitlines()[0])
    session["started_at"] = "2026-03-01T20:00:00"
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(session) + "\n")
    (item,) = read_sessions(str(path))
    assert (item.session_id, item.reason) == ("hn-2026-03-01", "started_at has no time zone")


def test_gzip_logs_read_the_same_as_plain_ones(tmp_path):
    plain = (SAMPLES / "douniu.jsonl").read_bytes()
    packed = tmp_path / "douniu.jsonl.gz"
    packed.write_bytes(gzip.compress(plain))
    ids = [i.session.session_id for i in read_sessions(str(packed))]
    assert ids == [i.session.session_id for i in read_sessions(str(SAMPLES / "douniu.jsonl"))]


@pytest.mark.parametrize("parts", [1, 2, 3, 5, 8, 50])
def test_byte_ranges_cover_every_line_once_with_true_line_numbers(parts):
    path = str(SAMPLES / "douniu.jsonl")
    whole = [(i.line, i.session.session_id) for i in read_sessions(path)]
    pieces = []
    for start, end in split_ranges(path, parts):
        pieces.extend(
            (i.line, i.session.session_id)
            for i in read_sessions(path, start, end)
            if isinstance(i, Located)
        )
    assert pieces == whole


@pytest.mark.parametrize("order", ["forward", "backward", "shuffled"])
def test_line_numbers_hold_whatever_order_the_ranges_are_read_in(tmp_path, order):
    import random

    lines = (SAMPLES / "douniu.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "many.jsonl"
    path.write_bytes(b"".join(lines * 30 + [b"\n"] + lines * 30))
    whole = [(i.line, i.session.session_id) for i in read_sessions(str(path))]
    ranges = split_ranges(str(path), 17)
    if order == "backward":
        ranges.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(ranges)
    pieces = sorted(
        (i.line, i.session.session_id)
        for start, end in ranges
        for i in read_sessions(str(path), start, end)
    )
    assert pieces == whole


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_partition_ranges_cover_every_line_once_and_fall_in_size(workers):
    from compliance.service_layer.runners import partition_ranges

    path = str(SAMPLES / "douniu.jsonl")
    ranges = partition_ranges(path, workers)
    whole = [(i.line, i.session.session_id) for i in read_sessions(path)]
    pieces = [
        (i.line, i.session.session_id)
        for start, end in ranges
        for i in read_sessions(path, start, end)
        if isinstance(i, Located)
    ]
    assert pieces == whole
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    sizes = [end - start for start, end in ranges]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] > sizes[-1]


def test_blank_lines_are_skipped_and_still_counted(tmp_path):
    lines = (SAMPLES / "douniu.jsonl").read_bytes().splitlines(keepends=True)[:2]
    path = tmp_path / "gaps.jsonl"
    path.write_bytes(b"\n" + lines[0] + b"  \t \n\n" + lines[1])
    assert [i.line for i in read_sessions(str(path))] == [2, 5]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda packed: packed[: len(packed) // 2], "the gzip stream is cut off"),
        (lambda packed: b"not gzip at all\n", "not a gzip file"),
        (
            lambda packed: packed[:40] + bytes(b ^ 0x5A for b in packed[40:80]) + packed[80:],
            "corrupt gzip data",
        ),
    ],
    ids=["cut-off", "not-gzip", "corrupt"],
)
def test_an_unreadable_gzip_ends_in_one_reject_after_what_could_be_read(tmp_path, damage, reason):
    plain = (SAMPLES / "douniu.jsonl").read_bytes() * 200
    path = tmp_path / "broken.jsonl.gz"
    path.write_bytes(damage(gzip.compress(plain)))
    items = list(read_sessions(str(path)))
    *sessions, last = items
    assert all(isinstance(i, Located) for i in sessions)
    assert [i.line for i in sessions] == list(range(1, len(sessions) + 1))
    assert isinstance(last, Reject)
    assert last.line == len(sessions) + 1
    assert last.reason.startswith(reason)
    assert last.reason.endswith("nothing from this line on can be read")
