"""One-line builders for 斗牛 tests: seats, rounds and sessions."""

from __future__ import annotations

from typing import Any

from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of

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
    return shared_session_of(
        "douniu", rounds, players or PLAYERS, Variant(preset=preset, options=options)
    )
