"""One-line builders for 玉环麻将 tests: tiles in compact notation, hands, rounds, sessions."""

from __future__ import annotations

from typing import Any

from compliance.logs.records import Session, Variant
from tests.builders import session_of as shared_session_of

PLAYERS = ["a", "b", "c", "d"]


def tiles(text: str) -> list[str]:
    """Compact notation to tiles: "777p99m5z" → ["7p", "7p", "7p", "9m", "9m", "5z"]."""
    out: list[str] = []
    digits = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def meld(kind: str, text: str, source: str | None = None) -> dict[str, Any]:
    return {"type": kind, "tiles": tiles(text), "from": source}


def hand(
    concealed: str, *melds: dict[str, Any], win: str | None = None, **fields: Any
) -> dict[str, Any]:
    """A `games eval` record: hand("777p999m...", meld("pung", "222z"), win="7p", wildcard="8p")."""
    record: dict[str, Any] = {"tiles": tiles(concealed), "melds": list(melds), **fields}
    if win:
        record["win_tile"] = win
    if "flowers" in record and isinstance(record["flowers"], str):
        record["flowers"] = tiles(record["flowers"])
    return record


def seat(
    player: str, wind: str, concealed: str, *melds: dict[str, Any], flowers: str = ""
) -> dict[str, Any]:
    return {
        "player": player,
        "wind": wind,
        "tiles": tiles(concealed),
        "melds": list(melds),
        "flowers": tiles(flowers),
    }


def round_of(
    banker: str,
    *hands: dict[str, Any],
    wildcard: str = "8p",
    tiles_left: int = 40,
    win: dict[str, Any] | None = None,
    claimed: dict[str, int] | None = None,
) -> dict[str, Any]:
    return {
        "banker": banker,
        "wildcard": wildcard,
        "tiles_left": tiles_left,
        "hands": list(hands),
        "win": win,
        "claimed": claimed or {},
    }


def win_of(player: str, tile: str, source: str | None = None, **flags: bool) -> dict[str, Any]:
    return {"player": player, "tile": tile, "from": source, **flags}


def session_of(
    rounds: list[dict[str, Any]],
    players: list[str] | None = None,
    preset: str | None = None,
    **options: Any,
) -> Session:
    return shared_session_of(
        "yuhuan", rounds, players or PLAYERS, Variant(preset=preset, options=options)
    )
