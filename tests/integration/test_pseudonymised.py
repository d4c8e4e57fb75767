"""假名化 across outputs: audit SARIF and reports under one key share their fingerprints and
carry no player id or name; an audit with --no-names stores none."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner
from sqlalchemy import select

from compliance.cli import cli
from compliance.db.engine import make_engine
from compliance.db.models import PlayerMetricsRow
from tests.conftest import SAMPLES

DOUNIU = SAMPLES / "douniu.jsonl"


def invoke(url: str, *args):
    return CliRunner().invoke(cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": url})


def real_ids_and_names() -> set[str]:
    found = set()
    for line in DOUNIU.read_text(encoding="utf-8").splitlines():
        for p in json.loads(line)["players"]:
            found |= {f'"{p["id"]}"', f"player:{p['id']}", p.get("name") or "\0"}
    return found - {"\0"}


def test_one_key_gives_the_same_pseudonyms_in_sarif_and_reports_and_no_real_id(
    any_db_url, tmp_path
):
    key = tmp_path / "key"
    key.write_bytes(b"a secret of thirty-two bytes....")
    sarif = invoke(any_db_url, "audit", DOUNIU, "--format", "sarif", "--pseudonymise", key)
    assert sarif.exit_code == 0
    report = invoke(any_db_url, "report", "--format", "csv", "-o", "-", "--pseudonymise", key)
    html = invoke(any_db_url, "report", "-o", tmp_path / "r.html", "--pseudonymise", key)
    assert html.exit_code == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    for text in (sarif.stdout, report.stdout, page):
        leaked = [x for x in real_ids_and_names() if x in text]
        assert leaked == []
    doc = json.loads(sarif.stdout)
    from_sarif = {r["partialFingerprints"]["findingIdentity/v1"] for r in doc["runs"][0]["results"]}
    from_report = {r["fingerprint"] for r in csv.DictReader(io.StringIO(report.stdout))}
    assert from_sarif == from_report
    plain = invoke(any_db_url, "report", "--format", "csv", "-o", "-").stdout
    players = {
        r["fingerprint"]
        for r in csv.DictReader(io.StringIO(plain))
        if r["subject"].startswith("player:")
    }
    assert players and players.isdisjoint(from_report)
    assert "pseudonymised: key " in page


def test_no_names_stores_no_players_name(any_db_url):
    assert invoke(any_db_url, "audit", DOUNIU, "--no-names").exit_code == 0
    with make_engine(any_db_url).connect() as conn:
        names = set(conn.execute(select(PlayerMetricsRow.name)).scalars())
    assert names == {""}
    assert invoke(any_db_url, "audit", DOUNIU).exit_code == 0
    with make_engine(any_db_url).connect() as conn:
        assert "湖南玩家1" in set(conn.execute(select(PlayerMetricsRow.name)).scalars())
