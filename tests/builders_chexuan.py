"""One-line builders for 扯旋 and 牌九 tests: seats, rounds and sessions."""

from __future__ import annotations

from typing import Any

from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of

PLAYERS = ["a", "b", "c", "d", "e", "f"]


def seat(
    player: str, cards: str, cap: int = 100, head: str | None = None, claimed: int = 0
) -> dict[str, Any]:
    """A 扯旋 seat: seat("a", "HQ S8 S4 S5", cap=100, head="HQ S8")."""
    row: dict[str, Any] = {"player": player, "cap": cap, "cards": cards.split(), "claimed": claimed}
    if head:
        row["head"] = head.split()
    return row


def act(player: str, action: str, amount: int | None = None) -> dict[str, Any]:
    return {"player": player, "act": action} | ({"amount": amount} if amount is not None else {})


def round_of(
    dealer: str, *seats: dict[str, Any], ante: int = 0, betting: list | None = None
) -> dict[str, Any]:
    return {"dealer": dealer, "ante": ante, "seats": list(seats), "betting": betting or []}


def session_of(
    rounds: list[dict[str, Any]],
    players: list[str] | None = None,
    game: str = "chexuan",
    preset: str | None = None,
    **options: Any,
) -> Session:
    return shared_session_of(
        game, rounds, players or PLAYERS, Variant(preset=preset, options=options)
    )
