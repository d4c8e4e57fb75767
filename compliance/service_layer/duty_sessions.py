"""义务的场次摘要: what the duty checks read of a session (checks 1, 2, 5, 9, 10, 16 and
17's sessions), made in the audit's own pass over the sessions, in its workers where it
has them, and passed to the driver in file order, so that the sessions are read once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from compliance.domain.duties.sitting import Sitting
from compliance.logs.records import Session
from compliance.logs.round_money import round_money


@dataclass(frozen=True, slots=True)
class SessionDigest:
    """一场的义务摘要: the session's rounds as checks 9 and 10 read them, its players and end."""

    sitting: Sitting
    players: tuple[str, ...]
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class DutySessions:
    """The digests of a batch of sessions the log gave (those the audit rejects too), in
    file order."""

    digests: list[SessionDigest]


def sitting_of(s: Session) -> Sitting:
    """The session as checks 9 and 10 read it: room, owner and fee, the rounds' money."""
    owner = s.owner
    return Sitting(
        platform=s.platform,
        session_id=s.session_id,
        game=s.game,
        started_at=s.started_at,
        rounds=round_money(s.rounds),
        room_id=s.room_id,
        owner=owner.id if owner is not None else None,
        room_fee=owner.room_fee if owner is not None else 0,
        fee_basis=owner.fee_basis if owner is not None else "fixed",
        preset=s.variant.preset,
    )


def digest_of(s: Session) -> SessionDigest:
    return SessionDigest(sitting_of(s), tuple(p.id for p in s.players), s.ended_at)
