"""摘要: digests of what a run stored and of the rules it read, for its manifest.

Each digest is SHA-256 over texts in an order that does not depend on the ids a store
hands out or on how workers interleaved their writes: a finding's JSON as it was written
(the same text on SQLite and PostgreSQL, whose `json` keeps it as given), a row as
canonical JSON of its plain values.
"""

from __future__ import annotations

import hashlib
from datetime import date

from sqlalchemy import ColumnElement, Connection, Text, bindparam, cast, select, update

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
NOT_CONTENT = {"run_id", "source_file", "source_line", "source_offset", "line", "content_sha256"}


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
    """The stored sessions the run's windows could sum, and how many: each session's key
    and content digest (`content_sha256`, stamped when it was stored), in key order."""
    sessions = Digest()
    where: list[ColumnElement[bool]] = [SESSIONS.c.platform.in_(sorted(platforms))]
    if read_from is not None:
        where.append(SESSIONS.c.day >= read_from)
    stmt = (
        select(SESSIONS.c.platform, SESSIONS.c.session_id, SESSIONS.c.content_sha256)
        .where(*where)
        .order_by(SESSIONS.c.platform, SESSIONS.c.session_id)
    )
    for platform, session_id, content in conn.execute(stmt):
        if content is None:  # not stamped (none should remain): made as it would have been
            content = content_digests(conn, platform, [session_id])[session_id]
        sessions.add(f"{platform}\t{session_id}\t{content}")
    return sessions.hexdigest(), sessions.count


def content_columns() -> list:
    """The columns a session's content digest covers: all but where it was read from, the
    line kept, the run that stored it and the digest itself."""
    return [c for c in SESSIONS.c if c.name not in NOT_CONTENT]


def content_text(names: list[str], values) -> str:
    """A stored session's content as canonical JSON of its plain values."""
    row = zip(names, values, strict=True)
    return trail.canonical(
        {k: v if v is None or isinstance(v, str | int) else trail.plain(v) for k, v in row}
    )


def content_digests(conn: Connection, platform: str, ids: list[str]) -> dict[str, str]:
    """SHA-256 of these stored sessions' content texts, by session id, as read back."""
    columns = content_columns()
    names = [c.name for c in columns]
    found: dict[str, str] = {}
    for i in range(0, len(ids), 500):
        where = (SESSIONS.c.platform == platform, SESSIONS.c.session_id.in_(ids[i : i + 500]))
        for sid, *values in conn.execute(select(SESSIONS.c.session_id, *columns).where(*where)):
            found[sid] = hashlib.sha256(content_text(names, values).encode()).hexdigest()
    return found


def stamp_contents(conn: Connection, keys: list[tuple[str, str]]) -> None:
    """内容摘要: stamp the sessions just stored with their content digests, read back from
    the store so that they are the texts the digest would make of the rows themselves."""
    by_platform: dict[str, list[str]] = {}
    for platform, session_id in keys:
        by_platform.setdefault(platform, []).append(session_id)
    stamps = [
        {"p": platform, "s": sid, "c": content}
        for platform, ids in by_platform.items()
        for sid, content in content_digests(conn, platform, ids).items()
    ]
    if stamps:
        conn.execute(
            update(SESSIONS)
            .where(SESSIONS.c.platform == bindparam("p"), SESSIONS.c.session_id == bindparam("s"))
            .values(content_sha256=bindparam("c")),
            stamps,
        )
