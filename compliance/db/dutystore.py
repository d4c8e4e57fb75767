"""义务库: the duty rows to and from the database, with the change trail; duty findings.

The duty rows are seeded from data/duties.toml on first use, apart from the rule
book's (so a sessions-only audit seeds and counts what it did before); every row
added or changed gets its trail entry, and `rules verify` covers the table.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import msgspec
from sqlalchemy import Connection, delete, func, select

from compliance.db import bulk, trail
from compliance.db.duty_models import DutyFindingRow, DutyRow
from compliance.db.models import AuditRunRow, PlayerMetricsRow, SessionRow, same_session, table_of
from compliance.db.rulestore import upsert
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.findings import DutyFinding

DUTIES = table_of(DutyRow)
FINDINGS = table_of(DutyFindingRow)
RUNS = table_of(AuditRunRow)
SESSIONS = table_of(SessionRow)
PLAYERS = table_of(PlayerMetricsRow)
FINDING_BATCH = 5000
FINDING_COLUMNS = (
    "run_id",
    "platform",
    "subject",
    "check_code",
    "duty",
    "severity",
    "status",
    "period",
    "payload",
)
_ZONES: dict[int, timezone] = {}
_payload = msgspec.json.Encoder()  # decimals as strings, as `msgspec.to_builtins` makes them


def _row(d: Duty) -> dict[str, Any]:
    return {
        "id": d.id,
        "check_code": d.check,
        "instrument": d.instrument,
        "article": d.article,
        "confidence": d.confidence,
        "severity": d.severity,
        "valid_from": d.valid_from,
        "valid_to": d.valid_to,
        "figures": dict(d.figures),
        "source": d.source,
        "note": d.note,
    }


class SqlDutiesRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    def has_any(self) -> bool:
        return bool(self.conn.execute(select(func.count()).select_from(DUTIES)).scalar())

    def save(self, book: DutyBook, actor: str | None, reason: str) -> tuple[int, int]:
        """Upsert every row by id, each change in the trail; (inserted, changed)."""
        with trail.recording(self.conn, [DUTIES], actor, reason) as changed:
            upsert(self.conn, DUTIES, [_row(d) for d in book.duties])
        return changed[(DUTIES.name, "insert")], changed[(DUTIES.name, "update")]

    def delete(self, ids: Collection[str], actor: str | None, reason: str) -> int:
        """Delete the rows of these ids, each deletion in the trail; how many were deleted."""
        if not ids:
            return 0
        with trail.recording(self.conn, [DUTIES], actor, reason) as changed:
            self.conn.execute(delete(DUTIES).where(DUTIES.c.id.in_(sorted(ids))))
        return changed[(DUTIES.name, "delete")]

    def load(self) -> DutyBook:
        rows = self.conn.execute(select(DUTIES).order_by(DUTIES.c.id)).mappings()
        return DutyBook(
            [
                Duty(
                    id=r["id"],
                    check=r["check_code"],
                    instrument=r["instrument"],
                    article=r["article"],
                    confidence=r["confidence"],
                    severity=r["severity"],
                    valid_from=r["valid_from"],
                    valid_to=r["valid_to"],
                    figures=dict(r["figures"] or {}),
                    source=r["source"],
                    note=r["note"],
                )
                for r in rows
            ]
        )

    def store_findings(self, run_id: int, findings: Iterable[DutyFinding]) -> None:
        """The findings in batches of FINDING_BATCH rows, by the driver (`bulk.insert_rows`:
        executemany on SQLite, COPY on PostgreSQL); a payload is the finding's JSON as
        `msgspec.to_builtins` then the engine's serializer would write it, encoded at once
        (no dict made per finding)."""
        rows: list[tuple] = []
        encode = _payload.encode
        for f in findings:
            rows.append(
                (
                    run_id,
                    f.platform,
                    f.subject,
                    f.check,
                    f.duty,
                    f.severity,
                    f.status,
                    f.date,
                    encode(f).decode(),
                )
            )
            if len(rows) >= FINDING_BATCH:
                bulk.insert_rows(self.conn, FINDINGS, FINDING_COLUMNS, rows)
                rows = []
        bulk.insert_rows(self.conn, FINDINGS, FINDING_COLUMNS, rows)

    def statuses(self, run_id: int) -> dict[str, str] | None:
        """Each check's status as the run summed it, or None: the run checked no duties."""
        summary = self.conn.execute(select(RUNS.c.summary).where(RUNS.c.id == run_id)).scalar()
        duties = (summary or {}).get("duties")
        return None if duties is None else dict(duties.get("checks", {}))

    def findings(self, run_id: int) -> list[DutyFinding]:
        query = select(FINDINGS.c.payload).where(FINDINGS.c.run_id == run_id)
        return [
            msgspec.convert(p, DutyFinding, strict=False)
            for (p,) in self.conn.execute(query.order_by(FINDINGS.c.id))
        ]

    def session_results(self, run_id: int) -> Iterator[tuple]:
        """Each player's net in yuan in each session the run stored, with the session's
        room, game and start (in its log's offset, `zoned`), in session order, streamed
        (check 18 reads it twice)."""
        query = (
            select(
                SESSIONS.c.platform,
                SESSIONS.c.session_id,
                SESSIONS.c.room_id,
                SESSIONS.c.game,
                SESSIONS.c.started_at,
                PLAYERS.c.player_id,
                PLAYERS.c.net,
                SESSIONS.c.utc_offset,
            )
            .join(PLAYERS, same_session(PLAYERS, SESSIONS))
            .where(SESSIONS.c.run_id == run_id)
            .order_by(SESSIONS.c.platform, SESSIONS.c.session_id, PLAYERS.c.player_id)
        )
        # per statement: a connection's own execution_options would outlive the stream
        for *row, offset in self.conn.execute(query.execution_options(yield_per=2000)):
            row[4] = zoned(row[4], offset)
            yield tuple(row)


def zoned(at: datetime, offset: int | None) -> datetime:
    """时刻: a stored start at its log's UTC offset (`offset` seconds), the same on either
    database: PostgreSQL gives the instant in UTC, SQLite the log's wall time without its
    offset. A row stored before the offset was kept (None) stays as read, a wall time
    taken as UTC, as the content digests take it."""
    if offset is None:
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    zone = _ZONES.get(offset)
    if zone is None:
        zone = _ZONES[offset] = timezone(timedelta(seconds=offset))
    return at.replace(tzinfo=zone) if at.tzinfo is None else at.astimezone(zone)
