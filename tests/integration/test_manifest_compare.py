"""运行清单与比较: a run's manifest reproduces across stores and workers; two runs compared."""

from __future__ import annotations

import hashlib
import json

from click.testing import CliRunner
from sqlalchemy import select

from compliance import __version__
from compliance.cli import cli
from compliance.db.engine import make_engine
from compliance.db.models import AuditRunRow
from tests.conftest import SAMPLES
from tests.rule_files import hunan_with

DOUNIU = SAMPLES / "douniu.jsonl"


def invoke(url: str, *args: str, input: bytes | None = None):
    return CliRunner().invoke(cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": url}, input=input)


def manifest(url: str, run: int) -> dict:
    with make_engine(url).connect() as conn:
        return conn.execute(select(AuditRunRow.manifest).where(AuditRunRow.id == run)).scalar()


def test_the_same_inputs_into_two_fresh_stores_give_the_same_digests(any_db_url, second_url):
    latest = "--as-of", "2026-06-30"
    assert invoke(any_db_url, "audit", DOUNIU, *latest).exit_code == 0
    assert invoke(second_url, "audit", DOUNIU, *latest, "--workers", "2").exit_code == 0
    piped = invoke(second_url, "audit", "-", *latest, input=DOUNIU.read_bytes())
    assert piped.exit_code == 0
    first, workers, stream = (
        manifest(any_db_url, 1),
        manifest(second_url, 1),
        manifest(second_url, 2),
    )
    digest = hashlib.sha256(DOUNIU.read_bytes()).hexdigest()
    assert first["inputs"] == [{"file": str(DOUNIU), "sha256": digest}]
    assert stream["inputs"] == [{"file": "-", "stream": True, "sha256": digest}]
    assert first["tool"] == f"compliance {__version__}"
    assert first["format"] == "compliance-manifest/1"
    assert first["as_of"] == "2026-06-30" and first["date_bound"]
    assert (first["options"]["workers"], workers["options"]["workers"]) == (1, 2)
    same = ("rules_sha256", "session_findings_sha256", "window_findings_sha256")
    assert {k: first[k] for k in same} == {k: workers[k] for k in same}
    assert {k: first[k] for k in same} == {k: stream[k] for k in same}
    assert first["window_sessions_sha256"] == workers["window_sessions_sha256"]


def test_another_rule_set_changes_the_rules_digest_and_the_report_prints_the_manifest(
    any_db_url, tmp_path
):
    invoke(any_db_url, "audit", DOUNIU)
    before = manifest(any_db_url, 1)
    data = hunan_with(tmp_path, "pages m.wenku365.com", "pages (re-read) m.wenku365.com")
    imported = invoke(any_db_url, "rules", "import", data, "--reason", "a test")
    assert imported.exit_code == 0, imported.output
    invoke(any_db_url, "audit", DOUNIU)
    assert manifest(any_db_url, 2)["rules_sha256"] != before["rules_sha256"]
    shown = invoke(any_db_url, "report", "1", "--format", "md", "-o", "-").stdout
    assert "## 运行清单 run manifest #1" in shown
    assert f"- `rules_sha256: {before['rules_sha256']}`" in shown
    doc = json.loads(invoke(any_db_url, "report", "1", "--format", "json", "-o", "-").stdout)
    assert doc["runs"][0]["manifest"] == before


def test_compare_gives_the_tier_migration_matrix_and_the_identities_that_moved(any_db_url):
    invoke(any_db_url, "audit", DOUNIU)
    invoke(any_db_url, "audit", DOUNIU, "--as-of", "2015-06-01")
    same = invoke(any_db_url, "report", "--compare", "1", "1")
    assert same.stdout.splitlines()[-1] == "0 identities moved"
    result = invoke(any_db_url, "report", "--compare", "1", "2", "--format", "json")
    doc = json.loads(result.stdout)
    rows = report_fps(any_db_url, 1), report_fps(any_db_url, 2)
    assert sum(c["count"] for c in doc["matrix"]) == len(rows[0] | rows[1])
    moved = {m["fingerprint"] for m in doc["moved"]}
    assert moved == rows[0] ^ rows[1]
    assert all(m["a"] == "absent" for m in doc["moved"] if m["fingerprint"] not in rows[0])
    text = invoke(any_db_url, "report", "--compare", "1", "2").stdout.splitlines()
    assert text[0].split()[:2] == ["#1", "\\"]
    assert f"{len(moved)} identities moved" in text


def report_fps(url: str, run: int) -> set[str]:
    doc = json.loads(invoke(url, "report", str(run), "--format", "json", "-o", "-").stdout)
    return {f["fingerprint"] for f in doc["findings"]}
