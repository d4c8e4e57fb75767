"""Game engines, one module per game, behind the interface in `base`.

Engines are looked up by their game code, as logs and the command line name
them. Modules are imported on first use.
"""

from __future__ import annotations

import importlib

from compliance.errors import UnknownGameError
from compliance.games.base import Game

MODULES: dict[str, str] = {
    "douniu": "compliance.games.douniu",
    "chexuan": "compliance.games.chexuan",
    "paigow": "compliance.games.paigow",
    "guandan": "compliance.games.guandan",
    "shengji": "compliance.games.shengji",
    "chihuoguo": "compliance.games.chihuoguo",
    "bianselong": "compliance.games.bianselong",
    "yuhuan": "compliance.games.yuhuan",
}

NAMES_ZH: dict[str, str] = {
    "douniu": "斗牛",
    "chexuan": "扯旋",
    "paigow": "牌九",
    "yuhuan": "玉环麻将",
    "guandan": "掼蛋",
    "shengji": "升级",
    "chihuoguo": "吃火锅",
    "bianselong": "变色龙",
}

_loaded: dict[str, Game] = {}


def get_game(code: str) -> Game:
    """The engine for a game code; UnknownGameError names the codes we know."""
    if code not in _loaded:
        module = MODULES.get(code)
        if module is None:
            known = ", ".join(sorted(MODULES))
            raise UnknownGameError(f"unknown game {code!r} (known: {known})")
        _loaded[code] = importlib.import_module(module).GAME
    return _loaded[code]


def game_codes() -> list[str]:
    return sorted(MODULES)
