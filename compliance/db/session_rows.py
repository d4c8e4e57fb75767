"""行映射: a judged session as the rows of `sessions`, `player_metrics` and `findings`."""

from __future__ import annotations

from compliance.db.finding_rows import LineIds, stored
from compliance.domain.audited import AuditedSession
from compliance.domain.encoded import TemplatedFinding

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
    "utc_offset",
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
        offset_seconds(s.started_at),
    )


def offset_seconds(at) -> int | None:
    """时区: the UTC offset a log wrote its start with, in seconds."""
    offset = at.utcoffset()
    return None if offset is None else int(offset.total_seconds())


def same(value):
    return value


class Floats(dict):
    """Money as SQLite's driver takes it (a float), kept for the values met most: a batch's
    figures repeat, and a `Decimal` keeps its hash. Zero is not kept: 0 and −0 are equal
    keys with different floats."""

    def __missing__(self, value):
        found = float(value)
        if value:
            if len(self) >= MAX_FLOATS:
                self.clear()
            self[value] = found
        return found


MAX_FLOATS = 1 << 12  # larger, it fills over 100,000s of sessions: memory grows, CPU not less
EMPTY_FIGURES = (None, None, None, None, None, None, 0, 0, None)


def player_values(s: AuditedSession, money=same) -> list[tuple]:
    platform, session_id = s.platform, s.session_id
    rows = []
    for p in s.players:
        m = p.metrics
        if m is None:
            figures = EMPTY_FIGURES
        else:
            cap = m.table_cap
            figures = (
                money(m.single_stake),
                money(m.round_win_loss),
                money(m.session_win_loss),
                money(m.net),
                money(m.total_staked),
                money(m.capital),
                m.rounds,
                m.banker_rounds,
                None if cap is None else money(cap),
            )
        rows.append(
            (
                platform,
                session_id,
                p.id,
                p.name,
                p.jurisdiction_code or p.jurisdiction,
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
    platform, session_id = s.platform, s.session_id
    for f in s.findings:
        if type(f) is TemplatedFinding:
            line = f.line
            tier, text, line_id = f.tier, f.own, lines.id_for(line) if line else None
        else:
            line_id, text = stored(f, lines)
            tier = getattr(f, "tier", None)
        rows.append(
            (run_id, platform, session_id, f.kind, f.subject, tier, f.jurisdiction, text, line_id)
        )
    return rows
