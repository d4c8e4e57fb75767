"""审计结果: a judged session as stored, its players, and per-player totals of a run.

Pure data: the judging (service layer) makes them, storage (db) writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from compliance.domain.findings import Finding
from compliance.domain.metrics import PlayerMetrics, SessionMetrics


@dataclass(slots=True)
class AuditedPlayer:
    id: str
    name: str
    jurisdiction: str | None
    kin_group: str | None
    metrics: PlayerMetrics | None
    tier: str | None = None
    jurisdiction_written: str | None = None
    jurisdiction_code: str | None = None

    @property
    def stored_jurisdiction(self) -> str | None:
        """The code stored for the place: resolved where the rule book knows it."""
        return self.jurisdiction_code or self.jurisdiction


@dataclass(slots=True)
class AuditedSession:
    """一局审计结果: what is stored per session, and its findings."""

    platform: str
    session_id: str
    game: str
    room_id: str | None
    owner_id: str | None
    started_at: datetime
    day: date
    jurisdiction: str | None
    venue: str
    rounds: int
    point_value: Decimal | None
    metrics: SessionMetrics | None
    players: list[AuditedPlayer]
    source_file: str
    source_line: int
    findings: list[Finding] = field(default_factory=list)
    source_offset: int = -1  # the line's first byte in the file (or the decompressed stream)
    line_sha256: str | None = None
    line: bytes | None = None  # the line, zlib-compressed, where it is kept (streams, --keep-lines)
    encoded: list[bytes] | None = None
    minors: int = 0
    jurisdiction_written: str | None = None
    jurisdiction_code: str | None = None
    fixed_fee: Decimal | None = None  # 房费: the owner's fixed fee in yuan (not rake)

    @property
    def stored_jurisdiction(self) -> str | None:
        return self.jurisdiction_code or self.jurisdiction

    @property
    def key(self) -> tuple[str, str]:
        return (self.platform, self.session_id)

    def encode_findings(self) -> list[bytes]:
        """The findings as JSON, made once (in a worker, when there are workers)."""
        if self.encoded is None:
            self.encoded = [f.to_json() for f in self.findings]
        return self.encoded


@dataclass(slots=True)
class PlayerTotal:
    """玩家合计: a player's figures summed over the sessions of one partition, in yuan."""

    sessions: int = 0
    capital: Decimal = Decimal(0)
    net: Decimal = Decimal(0)
    max_stake: Decimal = Decimal(0)

    def add(self, other: PlayerTotal) -> None:
        self.sessions += other.sessions
        self.capital += other.capital
        self.net += other.net
        self.max_stake = max(self.max_stake, other.max_stake)


Totals = dict[tuple[str, str], PlayerTotal]


def add_session(totals: Totals, session: AuditedSession) -> None:
    """Fold one judged session into per-player totals (map-side partial aggregation)."""
    for p in session.players:
        if p.metrics is None:
            continue
        t = totals.get((session.platform, p.id))
        if t is None:
            t = totals[(session.platform, p.id)] = PlayerTotal()
        t.sessions += 1
        t.capital += p.metrics.capital
        t.net += p.metrics.net
        t.max_stake = max(t.max_stake, p.metrics.single_stake)


def merge_totals(into: Totals, part: Totals) -> None:
    for key, total in part.items():
        if key in into:
            into[key].add(total)
        else:
            into[key] = total
