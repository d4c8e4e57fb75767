"""证据查询: the stored sessions an evidence pack shows, and where a subject's id is found."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from compliance.db.models import PlayerMetricsRow, SessionRow, table_of

SESSIONS = table_of(SessionRow)
PLAYERS = table_of(PlayerMetricsRow)


class SqlEvidenceRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    def platforms_of(self, kind: str, subject_id: str) -> list[str]:
        """The platforms on which a player, a room owner or a platform of this id is stored."""
        if kind == "platform":
            stmt = select(SESSIONS.c.platform).where(SESSIONS.c.platform == subject_id)
        elif kind == "owner":
            stmt = select(SESSIONS.c.platform).where(SESSIONS.c.owner_id == subject_id)
        else:
            stmt = select(PLAYERS.c.platform).where(PLAYERS.c.player_id == subject_id)
        return sorted(set(self.conn.execute(stmt.distinct()).scalars()))

    def sessions(self, platform: str, session_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Stored sessions by id, each with its players' stored figures."""
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(session_ids), 500):
            chunk = session_ids[start : start + 500]
            where = (SESSIONS.c.platform == platform, SESSIONS.c.session_id.in_(chunk))
            for row in self.conn.execute(select(SESSIONS).where(*where)).mappings():
                found[row["session_id"]] = {**row, "players": []}
            players = select(PLAYERS).where(
                PLAYERS.c.platform == platform, PLAYERS.c.session_id.in_(chunk)
            )
            for row in self.conn.execute(players.order_by(PLAYERS.c.player_id)).mappings():
                if row["session_id"] in found:
                    found[row["session_id"]]["players"].append(dict(row))
        return found
