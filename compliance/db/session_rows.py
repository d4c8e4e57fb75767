"""行映射: a judged session as the rows of `sessions`, `player_metrics` and `findings`."""

from __future__ import annotations

from compliance.db.finding_rows import LineIds, stored
from compliance.domain.audited import AuditedSession

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
    "jurisdiction_written",
    "fixed_fee",
    "source_offset",
    "line_sha256",
    "line",
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
    "table_cap",
    "tier",
    "jurisdiction_written",
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
        s.stored_jurisdiction,
        sorted({p.stored_jurisdiction for p in s.players if p.stored_jurisdiction}),
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
        s.jurisdiction_written,
        s.fixed_fee,
        s.source_offset if s.source_offset >= 0 else None,
        s.line_sha256,
        s.line,
    )


def same(value):
    return value


def player_values(s: AuditedSession, money=same) -> list[tuple]:
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
                money(m.table_cap) if m.table_cap is not None else None,
            )
            if m
            else (None, None, None, None, None, None, 0, 0, None)
        )
        rows.append(
            (
                s.platform,
                s.session_id,
                p.id,
                p.name,
                p.stored_jurisdiction,
                p.kin_group,
                *figures,
                p.tier,
                p.jurisdiction_written,
            )
        )
    return rows


def finding_values(run_id: int, s: AuditedSession, lines: LineIds) -> list[tuple]:
    """Finding rows; a threshold finding's line texts go to `finding_lines`, named by id."""
    rows = []
    for f in s.findings:
        line, text = stored(f, lines)
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
