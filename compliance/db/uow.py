"""工作单元: one transaction's worth of storage, behind a small interface.

Use cases take a unit of work; tests pass a fake one. Writes go in batches
through SQLAlchemy Core (executemany), never an ORM add per row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from compliance.db import rulestore, windows
from compliance.db.models import (
    AuditRunRow,
    FindingLineRow,
    FindingRow,
    PlayerMetricsRow,
    RejectRow,
    SessionRow,
    WindowFindingRow,
)
from compliance.domain.audited import AuditedSession
from compliance.domain.findings import (
    LINE_FIELDS,
    ThresholdFinding,
    json_text,
    line_part,
    own_part,
)
from compliance.domain.rules import RuleBook
from compliance.errors import DatabaseError
from compliance.logs.reader import Reject

STORE_LOCK = int.from_bytes(b"compliance-store"[:8], "big") >> 1  # a PostgreSQL advisory lock key
SESSIONS = SessionRow.__table__
PLAYERS = PlayerMetricsRow.__table__
FINDINGS = FindingRow.__table__
LINES = FindingLineRow.__table__
REJECTS = RejectRow.__table__
RUNS = AuditRunRow.__table__


class SqlUnitOfWork:
    """A connection with one open transaction; commit() ends it and starts another."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.conn: Connection | None = None
        self.lines = LineIds()
        self._run_files: tuple[int | None, dict[str, int]] = (None, {})

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

    def worker_url(self) -> str | None:
        """Where a worker process can open this database itself (not an in-memory one)."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            return None
        return url.render_as_string(hide_password=False)

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
                started_at=datetime.now(UTC),
                as_of=as_of,
                files=files,
                options=options,
                sessions=0,
                rejects=0,
                summary={},
            )
        )
        return result.inserted_primary_key[0]

    def finish_run(self, run_id: int, sessions: int, rejects: int, summary: dict) -> None:
        self.conn.execute(
            update(RUNS)
            .where(RUNS.c.id == run_id)
            .values(
                finished_at=datetime.now(UTC), sessions=sessions, rejects=rejects, summary=summary
            )
        )

    def store_sessions(self, run_id: int, batch: list[AuditedSession]) -> None:
        """Replace the stored results of these sessions with this run's.

        A session id met twice in one run keeps its later line (in the run's
        file order), as a serial run does, whichever worker stores first.
        """
        if not batch:
            return
        place = self._placer(run_id)
        by_key: dict[tuple[str, str], AuditedSession] = {}
        for s in batch:
            kept = by_key.get(s.key)
            if kept is None or place(s.source_file, s.source_line) > place(
                kept.source_file, kept.source_line
            ):
                by_key[s.key] = s
        money = float if self.conn.dialect.name == "sqlite" else _same
        rows = {
            key: (
                session_values(run_id, s),
                player_values(s, money),
                finding_values(run_id, s, self.lines),
            )
            for key, s in by_key.items()
        }
        self._hold_write_lock()
        latest = [rows[s.key] for s in self._forget(run_id, list(by_key.values()), place)]
        if not latest:
            return
        self._bulk(SESSIONS, SESSION_COLUMNS, [session for session, _, _ in latest], typed=True)
        self._bulk(PLAYERS, PLAYER_COLUMNS, [v for _, players, _ in latest for v in players])
        self._store_lines(self.lines.take_used())
        self._bulk(FINDINGS, FINDING_COLUMNS, [v for _, _, findings in latest for v in findings])

    def _hold_write_lock(self) -> None:
        """Hold the write lock from here to the commit, so that what `_forget` reads is
        what the inserts meet: workers, and audits running at once, store one at a time."""
        dialect = self.conn.dialect.name
        if dialect == "sqlite":
            if not self.conn.connection.driver_connection.in_transaction:
                self.conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif dialect == "postgresql":
            self.conn.execute(select(func.pg_advisory_xact_lock(STORE_LOCK)))

    def refresh_statistics(self) -> None:
        """SQLite's planner statistics for the stored sessions, made again once the
        tables have doubled: without them it reads a platform's every session to find
        one player's (27 ms a window finding over 40,000 sessions, 0.2 ms with them).
        PostgreSQL keeps its own (autovacuum)."""
        if self.conn.dialect.name != "sqlite":
            return
        rows = self.conn.exec_driver_sql("SELECT max(rowid) FROM sessions").scalar() or 0
        known = (
            self.conn.exec_driver_sql(
                "SELECT stat FROM sqlite_stat1 WHERE tbl = 'sessions' LIMIT 1"
            ).scalar()
            if self._has_statistics()
            else None
        )
        if known is None or rows > 2 * int(known.split()[0]):
            self.conn.exec_driver_sql("ANALYZE sessions")
            self.conn.exec_driver_sql("ANALYZE player_metrics")
            self.conn.exec_driver_sql("ANALYZE findings")

    def _has_statistics(self) -> bool:
        return (
            self.conn.exec_driver_sql(
                "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'"
            ).first()
            is not None
        )

    def stored_of_run(self, run_id: int) -> int:
        """How many sessions this run holds (fewer than it audited where an id came twice)."""
        return self.conn.execute(
            select(func.count()).select_from(SESSIONS).where(SESSIONS.c.run_id == run_id)
        ).scalar_one()

    def _store_lines(self, lines: dict[str, dict[str, Any]]) -> None:
        """The line texts these findings name, each stored once (workers may race to it)."""
        if not lines:
            return
        rows = [{"id": key, "payload": payload} for key, payload in lines.items()]
        dialect = self.conn.dialect.name
        if dialect in ("sqlite", "postgresql"):
            dialect_insert = sqlite_insert if dialect == "sqlite" else pg_insert
            self.conn.execute(
                dialect_insert(LINES).on_conflict_do_nothing(index_elements=["id"]), rows
            )
            return
        known = set(self.conn.scalars(select(LINES.c.id).where(LINES.c.id.in_(list(lines)))))
        fresh = [row for row in rows if row["id"] not in known]
        if fresh:
            self.conn.execute(insert(LINES), fresh)

    def _forget(self, run_id: int, sessions: list[AuditedSession], place) -> list[AuditedSession]:
        """Delete what is stored of these sessions, unless this run stored a later line
        of one; the sessions to store."""
        by_platform: dict[str, dict[str, AuditedSession]] = {}
        for s in sessions:
            by_platform.setdefault(s.platform, {})[s.session_id] = s
        for platform, batch in by_platform.items():
            ids = list(batch)
            for i in range(0, len(ids), 500):
                stored = self.conn.execute(
                    select(
                        SESSIONS.c.session_id,
                        SESSIONS.c.run_id,
                        SESSIONS.c.source_file,
                        SESSIONS.c.source_line,
                    ).where(
                        SESSIONS.c.platform == platform, SESSIONS.c.session_id.in_(ids[i : i + 500])
                    )
                ).all()
                replaced = []
                for sid, stored_run, file, line in stored:
                    new = batch[sid]
                    if stored_run == run_id and place(file, line) > place(
                        new.source_file, new.source_line
                    ):
                        del batch[sid]
                    else:
                        replaced.append(sid)
                if not replaced:
                    continue
                for table in (FINDINGS, PLAYERS, SESSIONS):
                    self.conn.execute(
                        delete(table).where(
                            table.c.platform == platform, table.c.session_id.in_(replaced)
                        )
                    )
        return [s for batch in by_platform.values() for s in batch.values()]

    def _placer(self, run_id: int):
        """(file, line) → where that line comes in the run's input, files in the run's order."""
        if self._run_files[0] != run_id:
            files = self.conn.scalar(select(RUNS.c.files).where(RUNS.c.id == run_id)) or []
            self._run_files = (run_id, {path: i for i, path in enumerate(files)})
        order = self._run_files[1]
        return lambda file, line: (order.get(file, -1), line)

    def _bulk(
        self, table, columns: tuple[str, ...], values: list[tuple], typed: bool = False
    ) -> None:
        """Rows in column order: COPY on PostgreSQL, the driver's executemany on SQLite
        (Core's per-row processing costs more than the write), Core elsewhere.

        `typed`: the rows hold Python values that the columns' types turn into
        what the driver takes; otherwise they hold that already.
        """
        if not values:
            return
        dialect = self.conn.dialect
        if typed and dialect.name in ("sqlite", "postgresql"):
            processors = [
                table.c[c].type.dialect_impl(dialect).bind_processor(dialect) for c in columns
            ]
            if any(processors):
                values = [
                    tuple(
                        v if p is None or v is None else p(v)
                        for v, p in zip(row, processors, strict=True)
                    )
                    for row in values
                ]
        names = ", ".join(f'"{c}"' for c in columns)
        if dialect.name == "sqlite":
            marks = ", ".join("?" for _ in columns)
            self.conn.exec_driver_sql(
                f'INSERT INTO "{table.name}" ({names}) VALUES ({marks})', values
            )
        elif dialect.name == "postgresql":
            cursor = self.conn.connection.driver_connection.cursor()
            try:
                with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
                    for row in values:
                        copy.write_row(row)
            except dialect.loaded_dbapi.Error as exc:  # the driver's own, not wrapped by Core
                first = str(exc).strip().splitlines()[0]
                raise DatabaseError(f"storing {table.name}: {first}") from None
        else:
            self.conn.execute(
                insert(table), [dict(zip(columns, row, strict=True)) for row in values]
            )

    def store_rejects(self, run_id: int, rejects: Iterable[Reject]) -> None:
        rows = [
            {
                "run_id": run_id,
                "file": r.file,
                "line": r.line,
                "session_id": r.session_id,
                "reason": r.reason,
            }
            for r in rejects
        ]
        if rows:
            self.conn.execute(insert(REJECTS), rows)

    def window_figures(
        self, platforms: set[str], start: date, end: date, run_id: int | None = None
    ):
        return windows.window_figures(self.conn, platforms, start, end, run_id)

    def sessions_behind(self, figures) -> list[str]:
        return windows.sessions_behind(self.conn, figures)

    def store_window_findings(self, run_id: int, findings: list) -> None:
        rows = [
            {
                "run_id": run_id,
                "platform": f.platform,
                "subject": f.subject,
                "kind": f.kind,
                "tier": f.tier,
                "jurisdiction": f.jurisdiction,
                "window_start": date.fromisoformat(f.window_start),
                "window_end": date.fromisoformat(f.window_end),
                "payload": f,
            }
            for f in findings
        ]
        if rows:
            self.conn.execute(insert(WindowFindingRow.__table__), rows)

    def count(self, table) -> int:
        return self.conn.execute(select(func.count()).select_from(table)).scalar_one()


SESSION_COLUMNS = (
    "platform",
    "session_id",
    "run_id",
    "game",
    "room_id",
    "owner_id",
    "started_at",
    "day",
    "jurisdiction",
    "jurisdictions",
    "venue",
    "headcount",
    "rounds",
    "point_value",
    "scene_capital",
    "per_capita_capital",
    "rake",
    "source_file",
    "source_line",
    "minors",
)


def session_values(run_id: int, s: AuditedSession) -> tuple:
    m = s.metrics
    return (
        s.platform,
        s.session_id,
        run_id,
        s.game,
        s.room_id,
        s.owner_id,
        s.started_at,
        s.day,
        s.jurisdiction,
        sorted({p.jurisdiction for p in s.players if p.jurisdiction}),
        s.venue,
        len(s.players),
        s.rounds,
        s.point_value,
        m.scene_capital if m else None,
        m.per_capita_capital if m else None,
        m.rake if m else None,
        s.source_file,
        s.source_line,
        s.minors,
    )


PLAYER_COLUMNS = (
    "platform",
    "session_id",
    "player_id",
    "name",
    "jurisdiction",
    "kin_group",
    "single_stake",
    "round_win_loss",
    "session_win_loss",
    "net",
    "total_staked",
    "capital",
    "rounds",
    "banker_rounds",
    "tier",
)
FINDING_COLUMNS = (
    "run_id",
    "platform",
    "session_id",
    "kind",
    "subject",
    "tier",
    "jurisdiction",
    "payload",
    "line_id",
)


def _same(value):
    return value


def player_values(s: AuditedSession, money=_same) -> list[tuple]:
    rows = []
    for p in s.players:
        m = p.metrics
        figures = (
            (
                money(m.single_stake),
                money(m.round_win_loss),
                money(m.session_win_loss),
                money(m.net),
                money(m.total_staked),
                money(m.capital),
                m.rounds,
                m.banker_rounds,
            )
            if m
            else (None, None, None, None, None, None, 0, 0)
        )
        rows.append(
            (s.platform, s.session_id, p.id, p.name, p.jurisdiction, p.kin_group, *figures, p.tier)
        )
    return rows


def finding_values(run_id: int, s: AuditedSession, lines: LineIds) -> list[tuple]:
    """Finding rows; a threshold finding's line texts go to `finding_lines`, named by id."""
    rows = []
    for f in s.findings:
        if isinstance(f, ThresholdFinding):
            line, text = lines.id_for(line_part(f)), json_text(own_part(f))
        else:
            line, text = None, json_text(f)
        rows.append(
            (
                run_id,
                s.platform,
                s.session_id,
                f.kind,
                f.subject,
                getattr(f, "tier", None),
                f.jurisdiction,
                text,
                line,
            )
        )
    return rows


class LineIds:
    """线的编号: a line's texts named by a hash of their JSON, and those a batch used."""

    def __init__(self):
        self._ids: dict[tuple, str] = {}
        self._payloads: dict[str, dict[str, Any]] = {}
        self._used: set[str] = set()

    def id_for(self, values: tuple) -> str:
        found = self._ids.get(values)
        if found is None:
            payload = dict(zip(LINE_FIELDS, values, strict=True))
            found = hashlib.blake2b(json_text(payload).encode(), digest_size=8).hexdigest()
            self._ids[values] = found
            self._payloads[found] = payload
        self._used.add(found)
        return found

    def take_used(self) -> dict[str, dict[str, Any]]:
        used = {key: self._payloads[key] for key in self._used}
        self._used.clear()
        return used
