"""按规则集判定的批: what the per-rule-set judge (batch_judging.py) keeps of a batch, as
columns, and the routes its players are judged on."""

from __future__ import annotations

from typing import Any

from compliance.domain.band_kernel import Kernel
from compliance.domain.ruleset import Ruleset
from compliance.domain.templates import Template


class Route:
    """方案: what judges a player — one plan, in one place — and its templates, for the run."""

    __slots__ = ("kernel", "rules", "place", "venue", "templates")

    def __init__(self, kernel: Kernel, rules: Ruleset, place, venue: str):
        self.kernel, self.rules, self.place, self.venue = kernel, rules, place, venue
        self.templates: dict[Any, Template] = {}


class Group:
    """The players of a batch on one route (`index`: its number in the batch)."""

    __slots__ = ("route", "index")

    def __init__(self, route: Route, index: int):
        self.route, self.index = route, index


class Batch:
    """A batch's figures as columns, in exact cents: per player (in the batch's order of
    sessions and seats) and per session judged here."""

    __slots__ = ("groups", "by_route", "player", "people", "group_of", "sessions")

    def __init__(self) -> None:
        self.groups: list[Group] = []
        self.by_route: dict[Route, Group] = {}
        self.player: tuple[list[int], ...] = ([], [], [], [], [])  # PLAYER_COLUMNS
        self.people: list = []  # the log's record of each player
        self.group_of: list[int] = []
        self.sessions: list[tuple] = []  # SESSION_COLUMNS, then …

    def group(self, route: Route) -> Group:
        group = self.by_route[route] = Group(route, len(self.groups))
        self.groups.append(group)
        return group

    def undo(self, base: int) -> None:
        """Forget the players from `base` on (their session goes to the reference)."""
        for values in (*self.player, self.people, self.group_of):
            del values[base:]


PLAYER_COLUMNS = ("single_stake", "round_win_loss", "session_win_loss", "total_staked", "capital")
SESSION_COLUMNS = ("per_capita_capital", "scene_capital", "table_win_loss", "headcount")
"""Then, per session: its slot in the batch, its first player, its kin class (0: none; 1, 2:
one family, without and with rake), its wage ratios by group, its holes in the templates."""
