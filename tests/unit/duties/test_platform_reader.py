"""The platform's records read as sessions are: gzip, a byte-order mark, long lines,
repeated keys, zones and fen, every bad line a reject with file, line and record id;
and the JSON Schemas `logs schema --kind` prints accept the samples and refuse breakage."""

from __future__ import annotations

import gzip
import json

import jsonschema
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.logs.platform_reader import Record, RecordReject, read_records
from compliance.logs.platform_records import ACCOUNTS, CONFIG, LEDGER
from compliance.logs.platform_schema import record_schema
from tests.conftest import SAMPLES

PLATFORM = SAMPLES / "platform"
FILES = {ACCOUNTS: "accounts.jsonl", LEDGER: "ledger.jsonl", CONFIG: "config.jsonl"}
EVENT = {
    "format": "ledger/1",
    "platform": "p",
    "id": "e1",
    "account": "a1",
    "type": "recharge",
    "at": "2022-01-07T20:59:00+08:00",
    "yuan": "50.00",
}


def lines(*records) -> str:
    return "".join(
        (r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in records
    )


def test_the_samples_read_with_their_one_bad_line_each():
    got = {kind: list(read_records(str(PLATFORM / name), kind)) for kind, name in FILES.items()}
    bad = {
        kind: [(r.line, r.session_id) for r in items if isinstance(r, RecordReject)]
        for kind, items in got.items()
    }
    assert bad == {ACCOUNTS: [(8, "bad-zone")], LEDGER: [(12, "bad-yuan")], CONFIG: []}
    assert all(isinstance(r, Record) for r in got[CONFIG])
    rejected = next(r for r in got[LEDGER] if isinstance(r, RecordReject))
    assert rejected.describe().endswith(
        "ledger.jsonl:12 record bad-yuan: yuan has more than 2 decimal places (a fen)"
    )


def test_gzip_and_a_byte_order_mark_are_read_and_a_long_line_skipped(tmp_path):
    path = tmp_path / "ledger.jsonl.gz"
    long = dict(EVENT, id="long", result="x" * 300)
    path.write_bytes(
        gzip.compress(b"\xef\xbb\xbf" + lines(EVENT, long, dict(EVENT, id="e2")).encode())
    )
    got = list(read_records(str(path), LEDGER, max_line_bytes=250))
    assert [(type(r).__name__, r.line) for r in got] == [
        ("Record", 1),
        ("RecordReject", 2),
        ("Record", 3),
    ]
    assert "line longer than 250 bytes" in got[1].reason


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (dict(EVENT, at="2022-01-07T20:59:00"), "at has no time zone"),
        (dict(EVENT, yuan="-1"), "yuan must be a number of yuan from 0 to below 10^15"),
        (dict(EVENT, type="cashout"), "Invalid enum value 'cashout' - at `$.type`"),
        (dict(EVENT, surprise=1), "invalid ledger/1 record: Object contains unknown field"),
        (json.dumps(EVENT)[:-1] + ', "id": "e9"}', "names 'id' twice"),
        ('{"id": "e7", ', "malformed JSON"),
    ],
)
def test_a_bad_ledger_line_is_a_reject_naming_why_and_its_id(tmp_path, line, reason):
    path = tmp_path / "ledger.jsonl"
    path.write_text(lines(line), encoding="utf-8")
    [got] = read_records(str(path), LEDGER)
    assert isinstance(got, RecordReject) and reason in got.reason
    assert got.session_id in ("e1", "e9", "e7")


def test_a_config_line_is_a_tagged_record_and_a_probability_above_one_is_refused(tmp_path):
    path = tmp_path / "config.jsonl"
    draw = {
        "format": "platform-config/1",
        "kind": "draw",
        "platform": "p",
        "pool": "box",
        "item": "gold",
        "probability": "1.5",
    }
    path.write_text(lines(draw, dict(draw, probability="0.05")), encoding="utf-8")
    first, second = read_records(str(path), CONFIG)
    assert isinstance(first, RecordReject) and "probability" in first.reason
    assert isinstance(second, Record) and second.record.item == "gold"


@pytest.mark.parametrize("kind", list(FILES))
def test_the_printed_schema_accepts_the_samples_good_lines_and_refuses_their_bad_ones(kind):
    result = CliRunner().invoke(cli, ["logs", "schema", "--kind", kind])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema == json.loads(json.dumps(record_schema(kind)))
    validator = jsonschema.Draft202012Validator(schema)
    good = [
        r.record for r in read_records(str(PLATFORM / FILES[kind]), kind) if isinstance(r, Record)
    ]
    raw = [json.loads(line) for line in (PLATFORM / FILES[kind]).read_text("utf-8").splitlines()]
    ids = {getattr(r, "id", None) for r in good}
    for record in raw:
        errors = list(validator.iter_errors(record))
        if kind == CONFIG or record["id"] in ids:
            assert errors == [], record
    assert list(validator.iter_errors({"format": kind})), "a bare line is invalid"


def test_the_session_schema_stays_the_default():
    plain = CliRunner().invoke(cli, ["logs", "schema"]).stdout
    assert json.loads(plain)["title"] == "stakelog/1 session"
