"""Game engines, one package per game, behind the interface in `base`.

Engines are looked up by their game code, as logs and the command line name
them; `compliance.games.<code>` holds the game and its `SPEC` (names, round
record, options, seats, fused tally). Packages are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from compliance.errors import UnknownGameError, did_you_mean
from compliance.games.base import EngineSpec, Game

CODES: tuple[str, ...] = (
    "douniu",
    "chexuan",
    "paigow",
    "yuhuan",
    "guandan",
    "shengji",
    "chihuoguo",
    "bianselong",
)

_loaded: dict[str, Game] = {}


def get_game(code: str) -> Game:
    """The engine for a game code; UnknownGameError names the codes we know."""
    if code not in _loaded:
        if code not in CODES:
            known = ", ".join(sorted(CODES))
            close = did_you_mean(code, CODES)
            raise UnknownGameError(f"unknown game {code!r}{close} (known: {known})")
        game = importlib.import_module(f"{__name__}.{code}").GAME
        assert game.spec.code == code, f"compliance.games.{code} declares {game.spec.code!r}"
        _loaded[code] = game
    return _loaded[code]


def game_code(name: str) -> str:
    """The code of a game named by its code or its Chinese or English name (`斗牛`, `douniu`);
    UnknownGameError, with the closest name, for any other."""
    key = name.strip().lower()
    by_name = {code: code for code in CODES}
    for code, spec in specs().items():
        by_name.update({spec.name_zh.lower(): code, spec.name_en.lower(): code})
    if key not in by_name:
        known = ", ".join(sorted(CODES))
        close = did_you_mean(name, by_name)
        raise UnknownGameError(f"unknown game {name!r}{close} (known: {known})")
    return by_name[key]


def game_codes() -> list[str]:
    return sorted(CODES)


def specs() -> dict[str, EngineSpec]:
    """Every game's spec by code, in code order."""
    return {code: get_game(code).spec for code in game_codes()}


def names_zh() -> dict[str, str]:
    """Chinese game names by code, from each game's spec."""
    return {code: spec.name_zh for code, spec in specs().items()}


def __getattr__(name: str) -> Any:
    if name == "NAMES_ZH":  # kept for `from compliance.games import NAMES_ZH`
        return names_zh()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
