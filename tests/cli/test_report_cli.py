"""`compliance report` as a user meets it: exit codes, messages, files written."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.builders_report import FORMULA_NAME, audited_database


@pytest.fixture(scope="module")
def audited_url(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("report-cli")
    audited_database(folder, sessions=24, hostile=True).dispose()
    return f"sqlite:///{folder / 'compliance.db'}"


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(url: str, *args: str):
        return runner.invoke(cli, ["report", *args], env={"COMPLIANCE_DB_URL": url})

    return invoke


def test_report_of_an_empty_database_is_a_one_line_error(run, sqlite_engine, sqlite_url):
    result = run(sqlite_url)
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: no audit run is stored: run `compliance audit FILES...` first\n",
    )


def test_report_of_a_missing_run_is_a_one_line_error(run, audited_url):
    result = run(audited_url, "99")
    assert (result.exit_code, result.stderr) == (1, "Error: no audit run 99 is stored\n")


def test_run_must_be_a_number_or_latest(run, audited_url):
    result = run(audited_url, "newest")
    assert result.exit_code == 2
    assert "'newest' is neither a run number nor 'latest'" in result.stderr


def test_html_report_is_written_where_asked(run, audited_url, tmp_path):
    target = tmp_path / "r.html"
    result = run(audited_url, "latest", "-o", str(target))
    assert result.exit_code == 0
    assert result.stdout.startswith("report of 24 sessions and ")
    assert result.stdout.endswith(f" findings → {target}\n")
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_csv_to_standard_output_neutralises_a_formula_name(run, audited_url):
    result = run(audited_url, "1", "--format", "csv", "-o", "-")
    assert result.exit_code == 0
    names = {row["name"] for row in csv.DictReader(io.StringIO(result.stdout))}
    assert "'" + FORMULA_NAME in names
    assert FORMULA_NAME not in names


def test_filtered_json_holds_only_the_filtered_findings(run, audited_url):
    result = run(
        audited_url,
        "--format",
        "json",
        "-o",
        "-",
        "--jurisdiction",
        "hunan",
        "--tier",
        "administrative_serious",
        "--game",
        "douniu",
    )
    assert result.exit_code == 0
    findings = json.loads(result.stdout)["findings"]
    assert findings
    assert {(f["jurisdiction"], f["kind"], f["game"]) for f in findings} == {
        ("430000", "threshold", "douniu")
    }
    assert {f["tier"] for f in findings} <= {
        "administrative_serious",
        "administrative_very_serious",
        "criminal",
        "criminal_serious",
    }


def test_markdown_report_in_english_first(run, audited_url):
    result = run(audited_url, "--format", "md", "--lang", "en", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout.startswith("# Compliance report (合规报告)\n")
    assert "This report informs; it is not legal advice." in result.stdout


def test_report_help_has_an_example(run, sqlite_url):
    result = run(sqlite_url, "--help")
    assert result.exit_code == 0
    assert "  Example:\n    compliance report latest" in result.stdout


def test_demo_ends_by_writing_report_html_and_saying_where(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COMPLIANCE_DB_URL", raising=False)
    result = CliRunner().invoke(cli, ["demo", "--sessions", "16"])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report.html").resolve()
    assert f"Report  报告: {page} (open it in a browser" in result.stdout
    assert '<svg class="chart" data-chart="by_place"' in page.read_text(encoding="utf-8")


def test_an_unknown_jurisdiction_is_a_one_line_error(run, audited_url):
    result = run(audited_url, "--jurisdiction", "atlantis")
    assert (result.exit_code, result.stderr) == (2, "Error: unknown jurisdiction 'atlantis'\n")
