"""报告查询: the stored rows a report selects, read with Core selects into plain facts."""

from __future__ import annotations

from sqlalchemy import Connection, and_, func, or_, select

from compliance.db import rulestore
from compliance.db.models import (
    AuditRunRow,
    FindingRow,
    JurisdictionRow,
    PlayerMetricsRow,
    RejectRow,
    SessionRow,
    WindowFindingRow,
)
from compliance.domain.tiers import TIER_CODES, Tier
from compliance.errors import ReportError
from compliance.reporting.model import (
    FindingFact,
    PlayerFact,
    ReportQuery,
    ReportSource,
    RunInfo,
    SessionFact,
)

RUNS = AuditRunRow.__table__
SESSIONS = SessionRow.__table__
PLAYERS = PlayerMetricsRow.__table__
FINDINGS = FindingRow.__table__
REJECTS = RejectRow.__table__
WINDOWS = WindowFindingRow.__table__


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
    """Everything the filters select, as facts; rejects of the runs involved."""
    if query.run is not None:
        run_ids = [query.run]
        if conn.execute(select(RUNS.c.id).where(RUNS.c.id == query.run)).first() is None:
            raise ReportError(f"no audit run {query.run} is stored")
    else:
        run_ids = None
    scope = _session_scope(query, run_ids)
    sessions = [
        SessionFact(
            r.platform, r.session_id, r.game, r.room_id, r.owner_id, r.day, r.jurisdiction,
            r.headcount, _num(r.scene_capital), _num(r.per_capita_capital),
        )
        for r in conn.execute(select(SESSIONS).where(*scope).order_by(SESSIONS.c.day))
    ]
    player_where = [*scope]
    if query.jurisdictions:
        player_where.append(
            func.coalesce(PLAYERS.c.jurisdiction, SESSIONS.c.jurisdiction).in_(query.jurisdictions)
        )
    players = [
        PlayerFact(r.platform, r.session_id, r.player_id, r.name or "", r.jurisdiction,
                   _num(r.single_stake), _num(r.capital))
        for r in conn.execute(
            select(PLAYERS.c.platform, PLAYERS.c.session_id, PLAYERS.c.player_id, PLAYERS.c.name,
                   PLAYERS.c.jurisdiction, PLAYERS.c.single_stake, PLAYERS.c.capital)
            .join(SESSIONS, and_(PLAYERS.c.platform == SESSIONS.c.platform,
                                 PLAYERS.c.session_id == SESSIONS.c.session_id))
            .where(*player_where)
        )
    ]
    findings = [
        FindingFact(r.payload, r.day, r.game, r.room_id, r.owner_id)
        for r in conn.execute(
            select(FINDINGS.c.payload, SESSIONS.c.day, SESSIONS.c.game, SESSIONS.c.room_id,
                   SESSIONS.c.owner_id)
            .join(SESSIONS, and_(FINDINGS.c.platform == SESSIONS.c.platform,
                                 FINDINGS.c.session_id == SESSIONS.c.session_id))
            .where(*scope, *_finding_filter(query))
            .order_by(FINDINGS.c.id)
        )
    ]
    if run_ids is None:
        run_ids = sorted(conn.execute(select(SESSIONS.c.run_id).where(*scope).distinct()).scalars())
    findings += _window_findings(conn, query, run_ids)
    runs = [
        RunInfo(r.id, r.started_at, tuple(r.files or ()), r.sessions, r.rejects)
        for r in conn.execute(select(RUNS).where(RUNS.c.id.in_(run_ids)).order_by(RUNS.c.id))
    ]
    rejects = conn.execute(
        select(func.count()).select_from(REJECTS).where(REJECTS.c.run_id.in_(run_ids))
    ).scalar_one()
    book = rulestore.load_book(conn) if rulestore.has_rules(conn) else None
    return ReportSource(runs, sessions, players, findings, rejects, book)


def _window_findings(conn: Connection, query: ReportQuery, run_ids: list[int]) -> list:
    """窗口结论: room owners and platforms judged over a window of sessions, not one session."""
    if query.game or not run_ids:
        return []
    where = [WINDOWS.c.run_id.in_(run_ids)]
    if query.platform:
        where.append(WINDOWS.c.platform == query.platform)
    if query.since:
        where.append(WINDOWS.c.window_end >= query.since)
    if query.until:
        where.append(WINDOWS.c.window_start <= query.until)
    where += _finding_filter(query, WINDOWS)
    return [
        FindingFact(r.payload, r.window_end, "*", None, _owner(r.subject))
        for r in conn.execute(select(WINDOWS).where(*where).order_by(WINDOWS.c.id))
    ]


def _owner(subject: str) -> str | None:
    return subject.split(":", 1)[1] if subject.startswith("owner:") else None


def _session_scope(query: ReportQuery, run_ids: list[int] | None) -> list:
    where = []
    if run_ids is not None:
        where.append(SESSIONS.c.run_id.in_(run_ids))
    if query.game:
        where.append(SESSIONS.c.game == query.game)
    if query.platform:
        where.append(SESSIONS.c.platform == query.platform)
    if query.since:
        where.append(SESSIONS.c.day >= query.since)
    if query.until:
        where.append(SESSIONS.c.day <= query.until)
    if query.jurisdictions:
        other = PLAYERS.alias("somebody")
        somebody_there = (
            select(other.c.player_id)
            .where(other.c.platform == SESSIONS.c.platform,
                   other.c.session_id == SESSIONS.c.session_id,
                   other.c.jurisdiction.in_(query.jurisdictions))
            .correlate(SESSIONS)
            .exists()
        )
        where.append(or_(SESSIONS.c.jurisdiction.in_(query.jurisdictions), somebody_there))
    return where


def _finding_filter(query: ReportQuery, table=FINDINGS) -> list:
    where = []
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
