"""审计结果: a judged session as stored, its players, and the players a run met.

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


Players = dict[str, set[str]]
"""玩家: the ids of a run's players with figures, by platform (the summary counts them)."""


def add_players(players: Players, session: AuditedSession) -> None:
    """Note the players of one judged session who have figures."""
    ids = players.get(session.platform)
    if ids is None:
        ids = players[session.platform] = set()
    ids.update([p.id for p in session.players if p.metrics is not None])


def merge_players(into: Players, part: Players) -> None:
    for platform, ids in part.items():
        if platform in into:
            into[platform] |= ids
        else:
            into[platform] = ids


def count_players(players: Players) -> int:
    return sum(len(ids) for ids in players.values())
