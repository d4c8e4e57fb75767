"""The one seeding use case against the fake unit of work: who, why, and only when asked."""

from __future__ import annotations

from compliance.service_layer import seeding
from tests.fakes import FakeUnitOfWork


def test_a_seed_records_who_and_why_and_commits(rule_book):
    uow = FakeUnitOfWork()
    seeding.seed(uow, "湖南 re-read", "li")
    ((book, actor, reason),) = uow.rules.saved
    assert uow.committed and (actor, reason) == ("li", "湖南 re-read")
    assert book == rule_book


def test_a_seed_without_a_reason_says_it_came_from_data(rule_book):
    uow = FakeUnitOfWork()
    seeding.seed(uow)
    assert uow.rules.saved[0][1:] == (None, "seed from data/")


def test_rules_already_stored_are_not_seeded_again_on_use(rule_book):
    uow = FakeUnitOfWork(rule_book)
    assert seeding.ensure_rules(uow) is rule_book
    assert uow.rules.saved == [] and not uow.committed
