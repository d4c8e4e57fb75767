"""摘要: digests of what a run stored and of the rules it read, for its manifest.

Each digest is SHA-256 over texts in an order that does not depend on the ids a store
hands out or on how workers interleaved their writes: a finding's JSON as it was written
(the same text on SQLite and PostgreSQL, whose `json` keeps it as given), a row as
canonical JSON of its plain values.
"""

from __future__ import annotations

import hashlib
from datetime import date

from sqlalchemy import ColumnElement, Connection, Integer, String, Text, cast, select

from compliance.db import trail
from compliance.db.models import (
    FindingRow,
    SessionRow,
    WindowFindingRow,
    table_of,
)

FINDINGS = table_of(FindingRow)
WINDOWS = table_of(WindowFindingRow)
SESSIONS = table_of(SessionRow)
NOT_CONTENT = {"run_id", "source_file", "source_line", "source_offset", "line"}


class Digest:
    """SHA-256 over canonical JSON texts, one a line."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.count = 0

    def add(self, text: str) -> None:
        self.sha.update(text.encode())
        self.sha.update(b"\n")
        self.count += 1

    def hexdigest(self) -> str:
        return self.sha.hexdigest()


def rules_digest(conn: Connection, rows) -> str:
    """The rule tables' rows, table by table, key by key."""
    digest = Digest()
    for row in sorted(rows, key=lambda r: r.__tablename__):
        table = table_of(row)
        for key, values in sorted(trail.snapshot(conn, table).items()):
            digest.add(trail.canonical([table.name, key, values]))
    return digest.hexdigest()


def session_findings_digest(conn: Connection, run_id: int) -> str:
    """The run's session findings, each session's in the order it was judged: each stored
    JSON text as written (a threshold finding's line named by its content's hash), hashed
    without decoding it."""
    digest = Digest()
    stmt = (
        select(cast(FINDINGS.c.payload, Text), FINDINGS.c.line_id)
        .where(FINDINGS.c.run_id == run_id)
        .order_by(FINDINGS.c.platform, FINDINGS.c.session_id, FINDINGS.c.id)
    )
    for payload, line_id in conn.execute(stmt):
        digest.add(f"{payload}\t{line_id or ''}")
    return digest.hexdigest()


def window_findings_digest(conn: Connection, run_id: int) -> str:
    """The run's window findings."""
    findings = Digest()
    stmt = (
        select(cast(WINDOWS.c.payload, Text))
        .where(WINDOWS.c.run_id == run_id)
        .order_by(WINDOWS.c.platform, WINDOWS.c.subject, WINDOWS.c.window_end, WINDOWS.c.id)
    )
    for (payload,) in conn.execute(stmt):
        findings.add(payload)
    return findings.hexdigest()


def window_sessions_digest(
    conn: Connection, platforms: set[str], read_from: date | None
) -> tuple[str, int]:
    """The stored sessions the run's windows could sum, and how many."""
    sessions = Digest()
    columns = [c for c in SESSIONS.c if c.name not in NOT_CONTENT]
    where: list[ColumnElement[bool]] = [SESSIONS.c.platform.in_(sorted(platforms))]
    if read_from is not None:
        where.append(SESSIONS.c.day >= read_from)
    order = (SESSIONS.c.platform, SESSIONS.c.session_id)
    names = [c.name for c in columns]
    plains = [_same if isinstance(c.type, String | Integer) else trail.plain for c in columns]
    for r in conn.execute(select(*columns).where(*where).order_by(*order)):
        row = zip(names, plains, r, strict=True)
        sessions.add(trail.canonical({k: v if v is None else p(v) for k, p, v in row}))
    return sessions.hexdigest(), sessions.count


def _same(value):
    return value  # `trail.plain` leaves a text or an integer as it is
