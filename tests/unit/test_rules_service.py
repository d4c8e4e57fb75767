"""Rule-tooling use cases against a fake unit of work."""

from __future__ import annotations

import pytest

from compliance import rules_service
from compliance.domain.ruleedit import overlay
from compliance.errors import RulesError
from tests.rule_files import hunan_with, overlapping


class FakeRulesUnitOfWork:
    def __init__(self, book=None):
        self.book = book
        self.committed = False
        self.saved: list[tuple] = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def commit(self):
        self.committed = True

    def has_rules(self):
        return self.book is not None

    def load_rules(self):
        return self.book

    def save_rules(self, book, actor=None, reason=""):
        self.saved.append((book, actor, reason))
        self.book = overlay(self.book, book) if self.book else book
        return {"threshold_bands": (0, len(book.bands))}


def test_an_import_saves_only_the_files_rows_with_who_and_why(rule_book, tmp_path):
    uow = FakeRulesUnitOfWork(rule_book)
    path = hunan_with(tmp_path, 'article = "一般情节"', 'article = "一般情节（一）"')
    result = rules_service.import_files(uow, [path], "clearer article", "li")
    ((patch, actor, reason),) = uow.saved
    assert uow.committed and (actor, reason) == ("li", "clearer article")
    assert set(patch.jurisdictions) == {"430000"}
    assert [c.key for c in result.changes] == ["hn-2015-general-stake"]


def test_a_refused_import_commits_nothing(rule_book, tmp_path):
    uow = FakeRulesUnitOfWork(rule_book)
    with pytest.raises(RulesError, match="^refused: overlap"):
        rules_service.import_files(uow, [overlapping(tmp_path)], "try")
    assert not uow.committed and uow.saved == []


def test_an_import_without_a_reason_is_refused(rule_book, tmp_path):
    with pytest.raises(RulesError, match="needs a reason"):
        rules_service.import_files(FakeRulesUnitOfWork(rule_book), [overlapping(tmp_path)], " ")


def test_reading_rules_from_a_database_without_any_seeds_them_first(rule_book):
    uow = FakeRulesUnitOfWork()
    assert rules_service.stored_rules(uow, "li") == rule_book
    assert uow.committed and uow.saved[0][2] == "first use: seeded from data/"
