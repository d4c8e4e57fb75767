"""工作单元: one transaction's worth of storage, behind a small interface.

Use cases take a unit of work; tests pass a fake one. Writes go in batches
through SQLAlchemy Core (executemany), never an ORM add per row.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, Connection, Engine, delete, insert, select, tuple_, update

from compliance.db import rulestore, windows
from compliance.db.engine import json_text
from compliance.db.models import (
    AuditRunRow,
    FindingRow,
    PlayerMetricsRow,
    RejectRow,
    SessionRow,
    WindowFindingRow,
)
from compliance.domain.rules import RuleBook
from compliance.logs.reader import Reject
from compliance.pipeline import AuditedSession

SESSIONS = SessionRow.__table__
PLAYERS = PlayerMetricsRow.__table__
FINDINGS = FindingRow.__table__
REJECTS = RejectRow.__table__
RUNS = AuditRunRow.__table__


class SqlUnitOfWork:
    """A connection with one open transaction; commit() ends it and starts another."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.conn: Connection | None = None

    def __enter__(self) -> SqlUnitOfWork:
        self.conn = self.engine.connect()
        self.conn.begin()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        assert self.conn is not None
        if exc_type is not None:
            self.conn.rollback()
        self.conn.close()
        self.conn = None

    def commit(self) -> None:
        self.conn.commit()
        self.conn.begin()

    def rollback(self) -> None:
        self.conn.rollback()
        self.conn.begin()

    # rules
    def load_rules(self) -> RuleBook:
        return rulestore.load_book(self.conn)

    def has_rules(self) -> bool:
        return rulestore.has_rules(self.conn)

    def save_rules(self, book: RuleBook) -> dict[str, tuple[int, int]]:
        return rulestore.save_book(self.conn, book)

    # runs
    def start_run(self, files: list[str], as_of: date | None, options: dict[str, Any]) -> int:
        result = self.conn.execute(
            insert(RUNS).values(
                started_at=datetime.now(UTC), as_of=as_of, files=files, options=options,
                sessions=0, rejects=0, summary={},
            )
        )
        return result.inserted_primary_key[0]

    def finish_run(self, run_id: int, sessions: int, rejects: int, summary: dict) -> None:
        self.conn.execute(
            update(RUNS)
            .where(RUNS.c.id == run_id)
            .values(finished_at=datetime.now(UTC), sessions=sessions, rejects=rejects,
                    summary=summary)
        )

    def store_sessions(self, run_id: int, batch: list[AuditedSession]) -> None:
        """Replace the stored results of these sessions with this run's."""
        if not batch:
            return
        keys = list({s.key for s in batch})
        key = tuple_(SESSIONS.c.platform, SESSIONS.c.session_id)
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            for table in (FINDINGS, PLAYERS):
                self.conn.execute(
                    delete(table).where(tuple_(table.c.platform, table.c.session_id).in_(chunk))
                )
            self.conn.execute(delete(SESSIONS).where(key.in_(chunk)))
        latest = {s.key: s for s in batch}.values()
        self._insert(SESSIONS, [session_row(run_id, s) for s in latest])
        self._insert(PLAYERS, [row for s in latest for row in player_rows(s)])
        self._insert(FINDINGS, [row for s in latest for row in finding_rows(run_id, s)])

    def _insert(self, table, rows: list[dict[str, Any]]) -> None:
        """Core executemany; COPY on PostgreSQL, several times faster for bulk rows."""
        if not rows:
            return
        if self.conn.dialect.name != "postgresql":
            self.conn.execute(insert(table), rows)
            return
        columns = list(rows[0])
        json_columns = {c.name for c in table.c if isinstance(c.type, JSON)}
        cursor = self.conn.connection.driver_connection.cursor()
        names = ", ".join(f'"{c}"' for c in columns)
        with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row([
                    json_text(row[c]) if c in json_columns and row[c] is not None else row[c]
                    for c in columns
                ])

    def store_rejects(self, run_id: int, rejects: Iterable[Reject]) -> None:
        rows = [
            {"run_id": run_id, "file": r.file, "line": r.line, "session_id": r.session_id,
             "reason": r.reason}
            for r in rejects
        ]
        if rows:
            self.conn.execute(insert(REJECTS), rows)

    def window_figures(self, platforms: set[str], start: date, end: date):
        return windows.window_figures(self.conn, platforms, start, end)

    def sessions_behind(self, figures) -> list[str]:
        return windows.sessions_behind(self.conn, figures)

    def store_window_findings(self, run_id: int, findings: list) -> None:
        rows = [
            {"run_id": run_id, "platform": f.platform, "subject": f.subject, "kind": f.kind,
             "tier": f.tier, "jurisdiction": f.jurisdiction,
             "window_start": date.fromisoformat(f.window_start),
             "window_end": date.fromisoformat(f.window_end), "payload": f}
            for f in findings
        ]
        if rows:
            self.conn.execute(insert(WindowFindingRow.__table__), rows)

    def count(self, table) -> int:
        from sqlalchemy import func

        return self.conn.execute(select(func.count()).select_from(table)).scalar_one()


def session_row(run_id: int, s: AuditedSession) -> dict[str, Any]:
    m = s.metrics
    return {
        "platform": s.platform, "session_id": s.session_id, "run_id": run_id, "game": s.game,
        "room_id": s.room_id, "owner_id": s.owner_id, "started_at": s.started_at, "day": s.day,
        "jurisdiction": s.jurisdiction,
        "jurisdictions": sorted({p.jurisdiction for p in s.players if p.jurisdiction}),
        "venue": s.venue, "headcount": len(s.players), "rounds": s.rounds,
        "point_value": s.point_value,
        "scene_capital": m.scene_capital if m else None,
        "per_capita_capital": m.per_capita_capital if m else None,
        "rake": m.rake if m else None,
        "source_file": s.source_file, "source_line": s.source_line,
    }


def player_rows(s: AuditedSession) -> list[dict[str, Any]]:
    rows = []
    for p in s.players:
        m = p.metrics
        rows.append({
            "platform": s.platform, "session_id": s.session_id, "player_id": p.id,
            "name": p.name, "jurisdiction": p.jurisdiction, "kin_group": p.kin_group,
            "single_stake": m and m.single_stake, "round_win_loss": m and m.round_win_loss,
            "session_win_loss": m and m.session_win_loss, "net": m and m.net,
            "total_staked": m and m.total_staked, "capital": m and m.capital,
            "rounds": m.rounds if m else 0, "banker_rounds": m.banker_rounds if m else 0,
            "tier": p.tier,
        })
    return rows


def finding_rows(run_id: int, s: AuditedSession) -> list[dict[str, Any]]:
    return [
        {
            "run_id": run_id, "platform": s.platform, "session_id": s.session_id,
            "kind": f.kind, "subject": f.subject, "tier": getattr(f, "tier", None),
            "jurisdiction": f.jurisdiction, "payload": f,
        }
        for f in s.findings
    ]
