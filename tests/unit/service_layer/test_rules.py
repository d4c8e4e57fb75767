"""Rule-tooling use cases against a fake unit of work."""

from __future__ import annotations

import pytest

from compliance.errors import RulesError
from compliance.service_layer import rules as rules_service
from tests.fakes import FakeUnitOfWork
from tests.rule_files import hunan_with, overlapping


def test_an_import_saves_only_the_files_rows_with_who_and_why(rule_book, tmp_path):
    uow = FakeUnitOfWork(rule_book)
    path = hunan_with(tmp_path, 'article = "一般情节"', 'article = "一般情节（一）"')
    result = rules_service.import_files(uow, [path], "clearer article", "li")
    ((patch, actor, reason),) = uow.rules.saved
    assert uow.committed and (actor, reason) == ("li", "clearer article")
    assert set(patch.jurisdictions) == {"430000"}
    assert [c.key for c in result.changes] == ["hn-2015-general-stake"]


def test_a_refused_import_commits_nothing(rule_book, tmp_path):
    uow = FakeUnitOfWork(rule_book)
    with pytest.raises(RulesError, match="^refused: overlap"):
        rules_service.import_files(uow, [overlapping(tmp_path)], "try")
    assert not uow.committed and uow.rules.saved == []


def test_an_import_without_a_reason_is_refused(rule_book, tmp_path):
    with pytest.raises(RulesError, match="needs a reason"):
        rules_service.import_files(FakeUnitOfWork(rule_book), [overlapping(tmp_path)], " ")


def test_reading_rules_from_a_database_without_any_seeds_them_first(rule_book):
    uow = FakeUnitOfWork()
    assert rules_service.stored_rules(uow, "li") == rule_book
    assert uow.committed and uow.rules.saved[0][2] == "first use: seeded from data/"
