"""Generated documents stay in step with the data they come from."""

from __future__ import annotations

from compliance.reporting.jurisdictions_doc import render
from tests.conftest import ROOT


def test_jurisdictions_doc_is_generated_from_the_shipped_data(rule_book):
    text = (ROOT / "docs" / "jurisdictions.md").read_text(encoding="utf-8")
    assert text == render(rule_book), (
        "run: python -m compliance.reporting.jurisdictions_doc > docs/jurisdictions.md"
    )


def test_every_jurisdiction_and_band_appears_in_it(rule_book):
    text = render(rule_book)
    for j in rule_book.jurisdictions.values():
        assert f"({j.code}, {j.level}" in text
    for band in rule_book.bands:
        assert f"| {band.id} |" in text
