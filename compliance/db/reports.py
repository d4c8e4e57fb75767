"""报告查询: the stored rows a report selects, read with Core selects into plain facts."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from datetime import UTC, datetime

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    case,
    func,
    literal,
    null,
    or_,
    select,
    union_all,
)

from compliance.db import rulestore
from compliance.db.errors import translated
from compliance.db.finding_rows import rejoined
from compliance.db.models import (
    HISTORY_PLAYER_COLUMNS,
    HISTORY_SESSION_COLUMNS,
    AuditRunRow,
    FindingLineRow,
    FindingRow,
    JurisdictionRow,
    PlayerHistoryRow,
    PlayerMetricsRow,
    RejectRow,
    SessionHistoryRow,
    SessionRow,
    WindowFindingRow,
    same_session,
    table_of,
)
from compliance.domain.tiers import TIER_CODES, Tier
from compliance.errors import ReportError
from compliance.reporting.facts import (
    FindingFact,
    PlayerFact,
    ReportQuery,
    ReportSource,
    RunInfo,
    SessionFact,
    order_key,
)

RUNS = table_of(AuditRunRow)
SESSIONS = table_of(SessionRow)
PLAYERS = table_of(PlayerMetricsRow)
FINDINGS = table_of(FindingRow)
LINES = table_of(FindingLineRow)
REJECTS = table_of(RejectRow)
WINDOWS = table_of(WindowFindingRow)
SESSION_HISTORY = table_of(SessionHistoryRow)
PLAYER_HISTORY = table_of(PlayerHistoryRow)
KEY = ("platform", "session_id")


def _as_run_stored(run: int | None):
    """The sessions and players a report reads: the current state (`run` None), or what
    run `run` stored, the sessions later runs re-audited taken from the history, each
    with the run that replaced it (`replaced_by`)."""
    if run is None:
        return SESSIONS, PLAYERS
    columns = (*KEY, "run_id", *HISTORY_SESSION_COLUMNS)
    sessions = union_all(
        select(*(SESSIONS.c[k] for k in columns), null().label("replaced_by")).where(
            SESSIONS.c.run_id == run
        ),
        select(*(SESSION_HISTORY.c[k] for k in columns), SESSION_HISTORY.c.replaced_by).where(
            SESSION_HISTORY.c.run_id == run
        ),
    ).subquery("s")
    stored = and_(same_session(PLAYERS, SESSIONS), SESSIONS.c.run_id == run)
    players = union_all(
        select(*(PLAYERS.c[k] for k in (*KEY, *HISTORY_PLAYER_COLUMNS))).join(SESSIONS, stored),
        select(*(PLAYER_HISTORY.c[k] for k in (*KEY, *HISTORY_PLAYER_COLUMNS))).where(
            PLAYER_HISTORY.c.run_id == run
        ),
    ).subquery("p")
    return sessions, players


def latest_run(conn: Connection) -> int:
    found = conn.execute(select(func.max(RUNS.c.id))).scalar()
    if found is None:
        raise ReportError("no audit run is stored: run `compliance audit FILES...` first")
    return found


def descendants(conn: Connection, code: str) -> tuple[str, ...]:
    """A jurisdiction and every one below it (a province includes its cities)."""
    parents = dict(conn.execute(select(JurisdictionRow.code, JurisdictionRow.parent_code)).all())
    out = {code}
    grew = True
    while grew:
        more = {c for c, p in parents.items() if p in out} - out
        out |= more
        grew = bool(more)
    return tuple(sorted(out))


def fetch(conn: Connection, query: ReportQuery) -> ReportSource:
    """What the filters select, streamed from `conn` as the report reads it, and a way
    to read every finding again in report order for the exports. A run's report reads
    what that run stored, also of the sessions later runs have re-audited."""
    if query.run is not None:
        run_ids = [query.run]
        if conn.execute(select(RUNS.c.id).where(RUNS.c.id == query.run)).first() is None:
            raise ReportError(f"no audit run {query.run} is stored")
    else:
        run_ids = sorted(
            conn.execute(
                select(SESSIONS.c.run_id)
                .where(*_session_scope(query, SESSIONS, PLAYERS))
                .distinct()
            ).scalars()
        )
    runs = [
        RunInfo(
            r.id,
            _in_utc(r.started_at),
            tuple(r.files or ()),
            r.sessions,
            r.rejects,
            r.finished_at is not None,
            r.manifest,
        )
        for r in conn.execute(select(RUNS).where(RUNS.c.id.in_(run_ids)).order_by(RUNS.c.id))
    ]
    rejects = conn.execute(
        select(func.count()).select_from(REJECTS).where(REJECTS.c.run_id.in_(run_ids))
    ).scalar_one()
    book = rulestore.load_book(conn) if rulestore.has_rules(conn) else None
    engine = conn.engine

    def ordered() -> Iterator[FindingFact]:
        with translated(), engine.connect() as again:  # read after the unit of work closed
            yield from _findings(again, query, run_ids)

    return ReportSource(
        runs,
        _sessions(conn, query),
        _players(conn, query),
        _findings(conn, query, run_ids),
        rejects,
        book,
        ordered,
        _count_sessions(conn, query),
    )


def _count_sessions(conn: Connection, query: ReportQuery) -> int:
    s, p = _as_run_stored(query.run)
    statement = select(func.count()).select_from(s).where(*_session_scope(query, s, p))
    return conn.execute(statement).scalar_one()


def _stream(conn: Connection, statement):
    return conn.execution_options(yield_per=2000).execute(statement)


def _sessions(conn: Connection, query: ReportQuery) -> Iterator[SessionFact]:
    s, p = _as_run_stored(query.run)
    statement = select(s).where(*_session_scope(query, s, p)).order_by(s.c.day)
    for r in _stream(conn, statement):
        yield SessionFact(
            r.platform,
            r.session_id,
            r.game,
            r.room_id,
            r.owner_id,
            r.day,
            r.jurisdiction,
            r.headcount,
            _num(r.scene_capital),
            _num(r.per_capita_capital),
            r._mapping.get("replaced_by"),
        )


def _players(conn: Connection, query: ReportQuery) -> Iterator[PlayerFact]:
    s, p = _as_run_stored(query.run)
    where = _session_scope(query, s, p)
    if query.jurisdictions:
        where.append(func.coalesce(p.c.jurisdiction, s.c.jurisdiction).in_(query.jurisdictions))
    statement = (
        select(
            p.c.platform,
            p.c.session_id,
            p.c.player_id,
            p.c.name,
            func.coalesce(p.c.jurisdiction, s.c.jurisdiction).label("place"),
            p.c.single_stake,
            p.c.capital,
        )
        .join(s, same_session(p, s))
        .where(*where)
    )
    for r in _stream(conn, statement):
        yield PlayerFact(
            r.platform,
            r.session_id,
            r.player_id,
            r.name or "",
            r.place,
            _num(r.single_stake),
            _num(r.capital),
        )


def _findings(conn: Connection, query: ReportQuery, run_ids: list[int]) -> Iterator[FindingFact]:
    """Every selected finding in report order (`model.order_key`, then as audited); the
    few window findings (no session: last in the key) merged in from memory. Each
    finding is read with its session as its own run stored it."""
    windows = sorted(_window_findings(conn, query, run_ids), key=lambda f: order_key(f.payload))
    s, p = _as_run_stored(query.run)
    statement = (
        select(
            FINDINGS.c.payload,
            LINES.c.payload.label("line"),
            s.c.day,
            s.c.game,
            s.c.room_id,
            s.c.owner_id,
            p.c.name,
        )
        .join(s, and_(same_session(FINDINGS, s), FINDINGS.c.run_id == s.c.run_id))
        .outerjoin(LINES, LINES.c.id == FINDINGS.c.line_id)
        .outerjoin(
            p,
            and_(
                same_session(p, FINDINGS),
                FINDINGS.c.subject == literal("player:") + p.c.player_id,
            ),
        )
        .where(*_session_scope(query, s, p), *_finding_filter(query))
        .order_by(
            _severity(FINDINGS).desc(),
            func.coalesce(FINDINGS.c.payload["value"].as_float(), 0).desc(),
            *_by_session(conn),
            FINDINGS.c.id,
        )
    )
    stored = (
        FindingFact(rejoined(r.payload, r.line), r.day, r.game, r.room_id, r.owner_id, r.name or "")
        for r in _stream(conn, statement)
    )
    yield from heapq.merge(stored, windows, key=lambda f: order_key(f.payload))


def _by_session(conn: Connection) -> list:
    """Equal findings by platform and session id, in byte order on either database, then as
    their session's were audited: not by the order stored, which workers interleave."""
    keys = [FINDINGS.c.platform, FINDINGS.c.session_id]
    if conn.dialect.name == "postgresql":
        return [key.collate("C") for key in keys]
    return keys


def _in_utc(at: datetime | None) -> datetime | None:
    """A run's time (made in UTC) as PostgreSQL gives it, where SQLite gives it bare."""
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


def _severity(table):
    """`model.severity` in SQL, from the kind and tier columns."""
    return case(
        (table.c.kind == "integrity", 1.6),
        (table.c.kind == "indeterminate", 1.3),
        else_=case(
            {code: float(Tier.parse(code)) for code in TIER_CODES}, value=table.c.tier, else_=0.0
        ),
    )


def _window_findings(conn: Connection, query: ReportQuery, run_ids: list[int]) -> list:
    """窗口结论: room owners and platforms judged over a window of sessions, not one session."""
    if query.game or not run_ids:
        return []
    where: list[ColumnElement[bool]] = [WINDOWS.c.run_id.in_(run_ids)]
    if query.platform:
        where.append(WINDOWS.c.platform == query.platform)
    # dated by the window's last day, the day it was judged on, as the report shows it
    if query.since:
        where.append(WINDOWS.c.window_end >= query.since)
    if query.until:
        where.append(WINDOWS.c.window_end <= query.until)
    where += _finding_filter(query, WINDOWS)
    return [
        FindingFact(r.payload, r.window_end, "*", None, _owner(r.subject))
        for r in conn.execute(select(WINDOWS).where(*where).order_by(WINDOWS.c.id))
    ]


def _owner(subject: str) -> str | None:
    return subject.split(":", 1)[1] if subject.startswith("owner:") else None


def _session_scope(query: ReportQuery, s, p) -> list:
    """The filters on sessions, on `s` (sessions) and `p` (their players) as read."""
    where: list[ColumnElement[bool]] = []
    if query.game:
        where.append(s.c.game == query.game)
    if query.platform:
        where.append(s.c.platform == query.platform)
    if query.since:
        where.append(s.c.day >= query.since)
    if query.until:
        where.append(s.c.day <= query.until)
    if query.jurisdictions:
        other = p.alias("somebody")
        somebody_there = (
            select(other.c.player_id)
            .where(
                other.c.platform == s.c.platform,
                other.c.session_id == s.c.session_id,
                other.c.jurisdiction.in_(query.jurisdictions),
            )
            .correlate(s)
            .exists()
        )
        where.append(or_(s.c.jurisdiction.in_(query.jurisdictions), somebody_there))
    return where


def _finding_filter(query: ReportQuery, table=FINDINGS) -> list:
    where: list[ColumnElement[bool]] = []
    if query.jurisdictions:
        where.append(table.c.jurisdiction.in_(query.jurisdictions))
    if query.tiers:
        allowed = []
        if query.min_tier:
            floor = Tier.parse(query.min_tier)
            at_or_above = [t for t in TIER_CODES if Tier.parse(t) >= floor]
            allowed.append(and_(table.c.kind == "threshold", table.c.tier.in_(at_or_above)))
        if query.kinds:
            allowed.append(table.c.kind.in_(query.kinds))
        where.append(or_(*allowed))
    return where


def _num(value) -> float | None:
    return None if value is None else float(value)


class SqlReportsRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    def latest_run(self) -> int:
        return latest_run(self.conn)

    def descendants(self, code: str) -> tuple[str, ...]:
        return descendants(self.conn, code)

    def fetch(self, query: ReportQuery) -> ReportSource:
        return fetch(self.conn, query)
