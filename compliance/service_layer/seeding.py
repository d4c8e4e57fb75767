"""播种: the rule book of data/ into the store, each change in the trail with who and why."""

from __future__ import annotations

from pathlib import Path

from compliance import ruledata
from compliance.domain.duties.rows import DutyBook
from compliance.domain.rules import RuleBook
from compliance.dutydata import duties_path, load_duties
from compliance.service_layer.unit_of_work import UnitOfWork

SEED_REASON = "seed from data/"
FIRST_USE_REASON = "first use: seeded from data/"
FIRST_USE_DUTIES = "first use: seeded from data/duties.toml"


def seed_rules(
    uow: UnitOfWork,
    reason: str = SEED_REASON,
    actor: str | None = None,
    root: Path = ruledata.DATA_DIR,
    only_if_empty: bool = False,
) -> dict[str, tuple[int, int]]:
    """Load data/ into the store (idempotent: rows are upserted by id) and commit; with
    `only_if_empty`, only into a store without rules. Call it with the unit of work open.

    Under the store's write lock, the store is asked again: of two audits started at
    once on an empty store, one seeds and the other, having waited, finds its rules."""
    if only_if_empty and uow.rules.has_any():
        return {}
    book = ruledata.load_book(root)
    uow.rules.hold_lock()
    if only_if_empty and uow.rules.has_any():
        uow.commit()
        return {}
    counts = uow.rules.save(book, actor, reason)
    uow.commit()
    return counts


def seed(
    uow: UnitOfWork,
    reason: str = SEED_REASON,
    actor: str | None = None,
    root: Path = ruledata.DATA_DIR,
) -> dict[str, tuple[int, int]]:
    """The seeding use case: open the unit of work, seed, commit."""
    with uow:
        return seed_rules(uow, reason, actor, root)


def ensure_rules(uow: UnitOfWork, actor: str | None = None, reason: str = SEED_REASON) -> RuleBook:
    """The stored rule book, seeded from data/ first if the store has none."""
    seed_rules(uow, reason, actor, only_if_empty=True)
    return uow.rules.load()


def stored_rules(uow: UnitOfWork, actor: str | None = None) -> RuleBook:
    """The store's rule book (opening the unit of work); seeded on first use."""
    with uow:
        return ensure_rules(uow, actor, FIRST_USE_REASON)


def ensure_duties(uow: UnitOfWork, actor: str | None = None) -> DutyBook:
    """The stored duty rows, seeded from data/duties.toml first if the store has none."""
    if not uow.duties.has_any():
        uow.duties.save(load_duties(duties_path()), actor, FIRST_USE_DUTIES)
        uow.commit()
    return uow.duties.load()
