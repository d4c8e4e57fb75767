"""审计运行的存储: runs, the sessions and rejects they store, the stored sessions read back."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from itertools import groupby
from typing import Any

from sqlalchemy import (
    Connection,
    Integer,
    and_,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)

from compliance.db import bulk, digests, window_upkeep
from compliance.db.finding_rows import LineIds
from compliance.db.models import (
    HISTORY_PLAYER_COLUMNS,
    HISTORY_SESSION_COLUMNS,
    AuditRunRow,
    FindingLineRow,
    FindingRow,
    PlayerHistoryRow,
    PlayerMetricsRow,
    RejectRow,
    SessionHistoryRow,
    SessionRow,
    same_session,
    table_of,
)
from compliance.db.session_rows import (
    FINDING_COLUMNS,
    PLAYER_COLUMNS,
    SESSION_COLUMNS,
    Floats,
    finding_values,
    player_values,
    same,
    session_values,
)
from compliance.db.window_upkeep import WindowUpkeep
from compliance.domain.audited import AuditedSession
from compliance.errors import DatabaseError
from compliance.logs.reader import Reject

SESSIONS = table_of(SessionRow)
PLAYERS = table_of(PlayerMetricsRow)
FINDINGS = table_of(FindingRow)
LINES = table_of(FindingLineRow)
REJECTS = table_of(RejectRow)
RUNS = table_of(AuditRunRow)
SESSION_HISTORY = table_of(SessionHistoryRow)
PLAYER_HISTORY = table_of(PlayerHistoryRow)

# Built once: a statement built per call with its ids in it costs a cache key over the ids,
# and its cycles keep the ids alive until a full collection (memory grew with the run).
STORED_LINES = select(
    SESSIONS.c.session_id, SESSIONS.c.run_id, SESSIONS.c.source_file, SESSIONS.c.source_line
).where(
    SESSIONS.c.platform == bindparam("platform"),
    SESSIONS.c.session_id.in_(bindparam("ids", expanding=True)),
)
RUN = bindparam("r_run", type_=Integer)  # the replacing run


def _replaced(table) -> tuple:
    """A platform's sessions being replaced, bound at execution (`r_platform`, `r_ids`)."""
    return (
        table.c.platform == bindparam("r_platform"),
        table.c.session_id.in_(bindparam("r_ids", expanding=True)),
    )


DELETE_REPLACED = (
    delete(FINDINGS).where(FINDINGS.c.run_id == RUN, *_replaced(FINDINGS)),
    delete(PLAYERS).where(*_replaced(PLAYERS)),
    delete(SESSIONS).where(*_replaced(SESSIONS)),
)
_EARLIER = and_(*_replaced(SESSIONS), SESSIONS.c.run_id != RUN)
_KEYS = ("run_id", "platform", "session_id")
KEEP_HISTORY = (
    insert(SESSION_HISTORY).from_select(
        [*_KEYS, "replaced_by", *HISTORY_SESSION_COLUMNS],
        select(
            *(SESSIONS.c[k] for k in _KEYS), RUN, *(SESSIONS.c[k] for k in HISTORY_SESSION_COLUMNS)
        ).where(_EARLIER),
    ),
    insert(PLAYER_HISTORY).from_select(
        [*_KEYS, *HISTORY_PLAYER_COLUMNS],
        select(
            SESSIONS.c.run_id,
            PLAYERS.c.platform,
            PLAYERS.c.session_id,
            *(PLAYERS.c[k] for k in HISTORY_PLAYER_COLUMNS),
        )
        .join(SESSIONS, same_session(SESSIONS, PLAYERS))
        .where(_EARLIER),
    ),
)


class RunFiles:
    """Where each file comes in a run's input, looked up once per run."""

    def __init__(self):
        self.run_id: int | None = None
        self.order: dict[str, int] = {}


@dataclass(slots=True)
class PreparedSessions:
    """备好的批: a batch of judged sessions as rows, ready for the write lock."""

    run_id: int
    count: int  # sessions in the batch, an id met twice included
    sessions: list[AuditedSession]  # the latest of each id, grouped by platform
    rows: dict[tuple[str, str], tuple[tuple, list[tuple], list[tuple]]]
    contents: dict[tuple[str, str], str]  # content digest by (platform, session id)
    lines: dict[str, dict[str, Any]]  # the finding lines the batch uses
    additions: window_upkeep.Additions


def _by_platform(sessions: list[AuditedSession]) -> list[AuditedSession]:
    """The sessions in the order `_forget` keeps them: platform by platform."""
    groups: dict[str, list[AuditedSession]] = {}
    for s in sessions:
        groups.setdefault(s.platform, []).append(s)
    return [s for group in groups.values() for s in group]


class SqlRunsRepository:
    def __init__(self, conn: Connection, lines: LineIds, run_files: RunFiles):
        self.conn = conn
        self.lines = lines
        self.run_files = run_files
        self.floats = Floats()

    def start(self, files: list[str], as_of: date | None, options: dict[str, Any]) -> int:
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
        key = result.inserted_primary_key
        if key is None:
            raise DatabaseError("the new run got no id")
        return int(key[0])

    def finish(self, run_id: int, sessions: int, rejects: int, summary: dict) -> None:
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
        if batch:
            self.write_prepared(self.prepare_sessions(run_id, batch))

    def prepare_sessions(self, run_id: int, batch: list[AuditedSession]) -> PreparedSessions:
        """What `write_prepared` stores of this batch, made without the write lock: its
        rows, their content digests and the window tables' additions, so that a worker
        holds the lock only for the look-ups and the inserts while the others wait."""
        place = self._placer(run_id)
        by_key: dict[tuple[str, str], AuditedSession] = {}
        for s in batch:
            earlier = by_key.get(s.key)
            if earlier is None or place(s.source_file, s.source_line) > place(
                earlier.source_file, earlier.source_line
            ):
                by_key[s.key] = s
        money = self.floats.__getitem__ if self.conn.dialect.name == "sqlite" else same
        keys = list(by_key)
        sessions = digests.stamped(
            SESSION_COLUMNS, [session_values(run_id, by_key[k]) for k in keys]
        )
        contents = {(row[0], row[1]): row[-1] for row in sessions}
        typed = bulk.typed_rows(self.conn, SESSIONS, (*SESSION_COLUMNS, "content_sha256"), sessions)
        rows = {
            key: (session, player_values(s, money), finding_values(run_id, s, self.lines))
            for key, session, s in zip(keys, typed, by_key.values(), strict=True)
        }
        grouped = _by_platform(list(by_key.values()))
        return PreparedSessions(
            run_id,
            len(batch),
            grouped,
            rows,
            contents,
            self.lines.take_used(),
            window_upkeep.Additions(grouped, contents),
        )

    def write_prepared(self, prepared: PreparedSessions) -> None:
        """Store a prepared batch: under the write lock to the commit, the sessions stored
        before (of another run, or an earlier line of this one) replaced."""
        run_id, place = prepared.run_id, self._placer(prepared.run_id)
        bulk.hold_write_lock(self.conn)
        upkeep = WindowUpkeep(self.conn)
        kept, met_before = self._forget(run_id, prepared.sessions, place, upkeep)
        repeats = prepared.count - len(prepared.sessions) + met_before
        if repeats:
            self.conn.execute(
                update(RUNS).where(RUNS.c.id == run_id).values(repeated=RUNS.c.repeated + repeats)
            )
        latest = [prepared.rows[s.key] for s in kept]
        if not latest:
            return
        columns = (*SESSION_COLUMNS, "content_sha256")
        bulk.insert_rows(self.conn, SESSIONS, columns, [session for session, _, _ in latest])
        bulk.insert_rows(
            self.conn, PLAYERS, PLAYER_COLUMNS, [v for _, players, _ in latest for v in players]
        )
        bulk.insert_new(
            self.conn,
            LINES,
            [{"id": key, "payload": payload} for key, payload in prepared.lines.items()],
        )
        bulk.insert_rows(
            self.conn, FINDINGS, FINDING_COLUMNS, [v for _, _, found in latest for v in found]
        )
        upkeep.store(kept, prepared.contents, prepared.additions)

    def _forget(
        self, run_id: int, sessions: list[AuditedSession], place, upkeep: WindowUpkeep
    ) -> tuple[list[AuditedSession], int]:
        """Delete what is stored of these sessions, unless this run stored a later line
        of one; the sessions to store, and how many this run had stored already."""
        by_platform: dict[str, dict[str, AuditedSession]] = {}
        met_before = 0
        for s in sessions:
            by_platform.setdefault(s.platform, {})[s.session_id] = s
        for platform, batch in by_platform.items():
            ids = list(batch)
            for i in range(0, len(ids), 500):
                stored = self.conn.execute(
                    STORED_LINES, {"platform": platform, "ids": ids[i : i + 500]}
                ).all()
                replaced = []
                for sid, stored_run, file, line in stored:
                    new = batch[sid]
                    met_before += stored_run == run_id
                    if stored_run == run_id and place(file, line) > place(
                        new.source_file, new.source_line
                    ):
                        del batch[sid]
                    else:
                        replaced.append(sid)
                if not replaced:
                    continue
                bound = {"r_run": run_id, "r_platform": platform, "r_ids": replaced}
                for history in KEEP_HISTORY:  # 审计历史: what earlier runs stored of them
                    self.conn.execute(history, bound)
                upkeep.forget(platform, replaced)
                for deletion in DELETE_REPLACED:
                    self.conn.execute(deletion, bound)
        return [s for batch in by_platform.values() for s in batch.values()], met_before

    def _placer(self, run_id: int):
        """(file, line) → where that line comes in the run's input, files in the run's order."""
        if self.run_files.run_id != run_id:
            files = self.conn.scalar(select(RUNS.c.files).where(RUNS.c.id == run_id)) or []
            self.run_files.run_id = run_id
            self.run_files.order = {path: i for i, path in enumerate(files)}
        order = self.run_files.order
        return lambda file, line: (order.get(file, -1), line)

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

    def count_stored(self, run_id: int) -> int:
        """How many sessions this run holds (fewer than it audited where an id came twice)."""
        return self.conn.execute(
            select(func.count()).select_from(SESSIONS).where(SESSIONS.c.run_id == run_id)
        ).scalar_one()

    def count_repeated(self, run_id: int) -> int:
        """How many sessions of this run repeated a session id it had met before (重复)."""
        return self.conn.execute(select(RUNS.c.repeated).where(RUNS.c.id == run_id)).scalar_one()

    def store_manifest(self, run_id: int, manifest: dict[str, Any]) -> None:
        self.conn.execute(update(RUNS).where(RUNS.c.id == run_id).values(manifest=manifest))

    def manifest(self, run_id: int) -> dict[str, Any] | None:
        return self.conn.execute(select(RUNS.c.manifest).where(RUNS.c.id == run_id)).scalar()

    def digests(
        self,
        run_id: int,
        platforms: set[str],
        read_from: date | None,
        stored: dict[str, str] | None = None,
    ) -> dict[str, str]:
        """The digests of what the run stored: its session findings and its windows;
        `stored`: those of `stored_digests`, made already (beside the window judging)."""
        if stored is None:
            stored = self.stored_digests(run_id, platforms, read_from)
        return {
            "session_findings_sha256": stored["session_findings_sha256"],
            "window_findings_sha256": digests.window_findings_digest(self.conn, run_id),
            "window_sessions_sha256": stored["window_sessions_sha256"],
            "window_sessions": stored["window_sessions"],
        }

    def stored_digests(
        self, run_id: int, platforms: set[str], read_from: date | None
    ) -> dict[str, str]:
        """The digests that the window judging does not change: the run's session findings
        and the stored sessions its windows could sum."""
        sessions, count = digests.window_sessions_digest(self.conn, platforms, read_from)
        return {
            "session_findings_sha256": digests.session_findings_digest(self.conn, run_id),
            "window_sessions_sha256": sessions,
            "window_sessions": str(count),
        }

    def refresh_statistics(self) -> None:
        bulk.refresh_statistics(self.conn)

    def count_sessions(self) -> int:
        """How many sessions are stored, each in its latest audit."""
        return self.conn.execute(select(func.count()).select_from(SESSIONS)).scalar_one()

    def stored_sessions(self) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """Every stored session with its players' metrics, in key order, streamed.

        A session also carries `exempted_by`: the exemption ids its stored
        findings applied, which is how an organiser-funded prize shows.
        """
        exempted: dict[tuple[str, str], set[str]] = {}
        for f in self.conn.execute(
            select(FINDINGS.c.platform, FINDINGS.c.session_id, FINDINGS.c.payload)
            .join(
                SESSIONS,
                and_(
                    SESSIONS.c.platform == FINDINGS.c.platform,
                    SESSIONS.c.session_id == FINDINGS.c.session_id,
                    SESSIONS.c.run_id == FINDINGS.c.run_id,
                ),
            )
            .where(FINDINGS.c.tier == "exempt")
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
