"""One-line builders for 斗牛 tests: seats, rounds and sessions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec

from compliance.logs.records import Player, Session, Variant

PLAYERS = ["p1", "p2", "p3", "p4", "p5", "p6"]


def seat(player: str, cards: str, claimed: int = 0, **extra: Any) -> dict[str, Any]:
    """A seat from space-separated cards: seat("p1", "SA H2 C3 D4 S5", -20, bet=2)."""
    return {"player": player, "cards": cards.split(), "claimed": claimed, **extra}


def round_of(banker: str, *seats: dict[str, Any], base: int = 10, grab: int = 1) -> dict[str, Any]:
    return {"banker": banker, "base": base, "grab": grab, "seats": list(seats)}


def session_of(
    rounds: list[dict[str, Any]],
    players: list[str] | None = None,
    preset: str | None = None,
    **options: Any,
) -> Session:
    return Session(
        format="stakelog/1",
        session_id="douniu-test",
        platform="test",
        game="douniu",
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        players=[Player(id=p) for p in (players or PLAYERS)],
        rounds=msgspec.Raw(msgspec.json.encode(rounds)),
        variant=Variant(preset=preset, options=options),
    )
