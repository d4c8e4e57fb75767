"""规则库与变更记录: the rule book and its change trail, as repositories on a connection."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from compliance.db import bulk, digests, rulestore, trail
from compliance.domain.rules import RuleBook


class SqlRulesRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    def has_any(self) -> bool:
        return rulestore.has_rules(self.conn)

    def load(self) -> RuleBook:
        return rulestore.load_book(self.conn)

    def hold_lock(self) -> None:
        """The store's write lock, to the commit: one seeding at a time."""
        bulk.hold_write_lock(self.conn)

    def digest(self) -> str:
        """SHA-256 of every rule row: the rule set a run reads."""
        return digests.rules_digest(self.conn, rulestore.RULE_ROWS)

    def save(self, book: RuleBook, actor: str | None, reason: str) -> dict[str, tuple[int, int]]:
        """Every row of the book, each change in the trail with who (`actor`) and why."""
        return rulestore.save_book(self.conn, book, actor, reason)


class SqlTrailRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    def verify(self) -> trail.Verdict:
        return rulestore.verify_trail(self.conn)

    def entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        return trail.entries(self.conn, limit)
