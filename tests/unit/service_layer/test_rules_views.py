"""The rule views return data: instruments, the rules in force, checks and diffs."""

from __future__ import annotations

from datetime import date

from compliance.service_layer import rules_views as views
from tests.fakes import FakeUnitOfWork
from tests.rule_files import overlapping

MARCH = date(2026, 3, 1)


def test_instruments_of_hunan_in_force_count_their_bands(rule_book):
    rows = views.list_instruments(rule_book, "hunan", MARCH)
    assert [(r.id, r.jurisdiction, r.effective_to, r.bands) for r in rows] == [
        ("hn-2015-discretion", "430000", None, 7)
    ]
    assert rows[0].as_dict()["bands"] == 7


def test_every_instrument_is_listed_by_jurisdiction_then_date(rule_book):
    rows = views.list_instruments(rule_book)
    assert len(rows) == len(rule_book.instruments)
    assert [r.jurisdiction for r in rows] == sorted(r.jurisdiction for r in rows)
    assert sum(r.bands for r in rows) == len(rule_book.bands)


def test_the_rules_in_force_in_hunan_are_judged_by_hunan_then_the_nation(rule_book):
    shown = views.show_jurisdiction(rule_book, "湖南", MARCH)
    assert (shown.jurisdiction, shown.chain) == ("430000", ["430000", "000000"])
    assert "hn-2015-general-stake" in [b.id for b in shown.bands]
    assert shown.as_dict()["as_of"] == "2026-03-01"
    assert all(b.confidence in "LMH" and b.source for b in shown.bands)


def test_a_district_without_bands_of_its_own_gets_those_above_it(rule_book):
    shown = views.show_jurisdiction(rule_book, "440606", MARCH)
    assert shown.chain == ["440606", "440600", "440000", "000000"]
    assert shown.bands and all(b.instrument for b in shown.bands)


def test_the_shipped_data_folder_checks_clean_without_a_database(rule_book, tmp_path):
    opened = []
    checked = views.check_rules(
        [views.rule_cases.ruledata.DATA_DIR], "db", lambda: opened.append(1) or FakeUnitOfWork()
    )
    assert (checked.problems, checked.bands) == ([], len(rule_book.bands))
    assert opened == []


def test_a_file_laid_over_the_stored_rules_brings_its_overlap(rule_book, tmp_path):
    checked = views.check_rules([overlapping(tmp_path)], "db", lambda: FakeUnitOfWork(rule_book))
    assert [p.check for p in checked.problems] == ["overlap"]


def test_the_new_year_changes_the_national_statute_but_not_hunans_bands(rule_book):
    changes = views.diff_days(rule_book, date(2025, 12, 31), date(2026, 1, 1))
    assert ("added", "instruments", "zhian-2025") in [(c.kind, c.table, c.key) for c in changes]
    hunan = views.diff_days(rule_book, date(2025, 12, 31), date(2026, 1, 1), "hunan")
    assert hunan  # the national rows 湖南 inherits change that day (#20)
    assert {c.inherited_from for c in hunan} == {"000000"}
    assert "bands" not in {c.table for c in hunan}
