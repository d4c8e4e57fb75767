"""一场: a session as the round-reading duty checks see it: its room, owner and fee, and
each round's results and rake (checks 9 and 10)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from compliance.logs.round_money import RoundMoney


@dataclass(frozen=True, slots=True)
class Sitting:
    platform: str
    session_id: str
    game: str
    started_at: datetime
    rounds: list[RoundMoney] | None  # None: the rounds did not decode (the audit rejects it)
    room_id: str | None = None
    owner: str | None = None  # None: the log names no owner, so no room_fee either
    room_fee: int = 0
    fee_basis: str = "fixed"
    preset: str | None = None  # the house-rule preset (check 10's mode mapping)

    @property
    def room(self) -> str:
        """The finding's subject: the room, or the session where the log names none."""
        return f"room:{self.room_id}" if self.room_id else f"session:{self.session_id}"
