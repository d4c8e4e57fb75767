"""规则工作单元: the unit of work of the rule tooling, with the change trail and stored sessions."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from itertools import groupby
from typing import Any

from sqlalchemy import func, select

from compliance.db import rulestore, trail
from compliance.db.models import FindingRow, PlayerMetricsRow, SessionRow
from compliance.db.uow import SqlUnitOfWork
from compliance.domain.rules import RuleBook

SESSIONS = SessionRow.__table__
PLAYERS = PlayerMetricsRow.__table__
FINDINGS = FindingRow.__table__


class RulesUnitOfWork(SqlUnitOfWork):
    """A SqlUnitOfWork that says who changed the rules and why."""

    def save_rules(
        self, book: RuleBook, actor: str | None = None, reason: str = ""
    ) -> dict[str, tuple[int, int]]:
        return rulestore.save_book(self.conn, book, actor, reason)

    def verify_rules(self) -> trail.Verdict:
        return rulestore.verify_trail(self.conn)

    def rule_changes(self, limit: int | None = None) -> list[dict[str, Any]]:
        return trail.entries(self.conn, limit)

    def window_scope(self) -> tuple[set[str], date | None]:
        """The platforms with stored sessions, and the last day played."""
        platforms = set(self.conn.execute(select(SESSIONS.c.platform).distinct()).scalars())
        return platforms, self.conn.execute(select(func.max(SESSIONS.c.day))).scalar()

    def stored_sessions(self) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """Every stored session with its players' metrics, in key order, streamed.

        A session also carries `exempted_by`: the exemption ids its stored
        findings applied, which is how an organiser-funded prize shows.
        """
        exempted: dict[tuple[str, str], set[str]] = {}
        for f in self.conn.execute(
            select(FINDINGS.c.platform, FINDINGS.c.session_id, FINDINGS.c.payload).where(
                FINDINGS.c.tier == "exempt"
            )
        ).mappings():
            ids = {str(e).split(":", 1)[0] for e in (f["payload"] or {}).get("exemptions") or ()}
            exempted.setdefault((f["platform"], f["session_id"]), set()).update(ids)
        sessions = (
            self.conn.execution_options(yield_per=1000)
            .execute(select(SESSIONS).order_by(SESSIONS.c.platform, SESSIONS.c.session_id))
            .mappings()
        )
        players = (
            self.conn.execution_options(yield_per=1000)
            .execute(
                select(PLAYERS).order_by(
                    PLAYERS.c.platform, PLAYERS.c.session_id, PLAYERS.c.player_id
                )
            )
            .mappings()
        )
        # both in the database's own order; every player row has its session (foreign key)
        groups = groupby(players, key=lambda p: (p["platform"], p["session_id"]))
        pending = next(groups, None)
        for s in sessions:
            key = (s["platform"], s["session_id"])
            mine: list[dict[str, Any]] = []
            if pending is not None and pending[0] == key:
                mine = [dict(p) for p in pending[1]]
                pending = next(groups, None)
            yield {**s, "exempted_by": exempted.get(key, set())}, mine
