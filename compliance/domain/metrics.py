"""赌资指标: the stake figures the rules use, per player and per session.

Rounds are tallied in points as they stream past; the figures are turned
into yuan once per session (online 赌资 = points × the value of a point:
2005 interpretation art. 8, 公安部 2005 notice art. 六). The legal basis of
each metric is in docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from compliance.domain.rounds import PlayerTally, RoundResult, SessionTally

PLAYER_METRICS = ("single_stake", "round_win_loss", "session_win_loss", "total_staked", "capital")
SESSION_METRICS = ("per_capita_capital", "scene_capital", "table_win_loss", "headcount")
DERIVED_METRICS = ("per_capita_wage_ratio",)
WINDOW_METRICS = (
    "window_sessions",
    "window_rake",
    "window_capital",
    "window_participants",
    "window_win_loss",
)
AMOUNT_METRICS = frozenset(
    PLAYER_METRICS
    + ("per_capita_capital", "scene_capital", "table_win_loss")
    + ("window_rake", "window_capital", "window_win_loss")
)
PRIOR_METRIC = "prior_penalties"  # earlier penalties (--priors) within the band's window
ALL_METRICS = frozenset(
    PLAYER_METRICS + SESSION_METRICS + DERIVED_METRICS + WINDOW_METRICS + (PRIOR_METRIC,)
)


def tally(results: Iterable[RoundResult], player_ids: Iterable[str]) -> SessionTally:
    """Sum a replay's rounds into per-player tallies (the hot loop of an audit)."""
    players = {pid: PlayerTally() for pid in player_ids}
    summary = SessionTally(players)
    rounds = rake = 0
    for result in results:
        rounds += 1
        rake += result.rake
        if result.issues:
            summary.issues.extend(result.issues)
        stakes = result.stakes
        for pid, delta in result.deltas.items():
            players[pid].add(stakes.get(pid, 0), delta)
        if len(stakes) > len(result.deltas):
            for pid, stake in stakes.items():
                if pid not in result.deltas:
                    t = players[pid]
                    t.rounds += 1
                    t.staked += stake
                    t.max_stake = max(t.max_stake, stake)
        if result.banker is not None:
            players[result.banker].banker_rounds += 1
        if result.caps:
            for pid, cap in result.caps.items():
                t = players[pid]
                if t.max_cap is None or cap > t.max_cap:
                    t.max_cap = cap
    summary.rounds = rounds
    summary.rake = rake
    return summary


def add_entry_fees(summary: SessionTally, fee: int) -> None:
    """报名费: an entry fee pooled into the prize is a stake each player wagers."""
    for t in summary.players.values():
        t.staked += fee
        t.max_stake = max(t.max_stake, fee)


@dataclass(frozen=True, slots=True)
class PlayerMetrics:
    """一名玩家一局的赌资指标, in yuan."""

    player_id: str
    single_stake: Decimal
    round_win_loss: Decimal
    session_win_loss: Decimal
    net: Decimal
    total_staked: Decimal
    capital: Decimal
    rounds: int
    banker_rounds: int
    table_cap: Decimal | None = None

    def as_dict(self) -> dict[str, Decimal]:
        """The PLAYER_METRICS by name (spelled out: this runs once a player)."""
        return {
            "single_stake": self.single_stake,
            "round_win_loss": self.round_win_loss,
            "session_win_loss": self.session_win_loss,
            "total_staked": self.total_staked,
            "capital": self.capital,
        }


@dataclass(frozen=True, slots=True)
class SessionMetrics:
    """一局的整体指标: headcount, scene total, per-capita capital, in yuan."""

    headcount: int
    scene_capital: Decimal
    per_capita_capital: Decimal
    table_win_loss: Decimal
    rake: Decimal
    rounds: int

    def as_dict(self) -> dict[str, Decimal]:
        return {
            "headcount": Decimal(self.headcount),
            "scene_capital": self.scene_capital,
            "per_capita_capital": self.per_capita_capital,
            "table_win_loss": self.table_win_loss,
        }


CENT = Decimal("0.01")


def to_yuan(points: int, point_value: Decimal) -> Decimal:
    return (Decimal(points) * point_value).quantize(CENT)


def player_metrics(pid: str, t: PlayerTally, point_value: Decimal) -> PlayerMetrics:
    """A player's figures in yuan. 个人赌资 = stakes + winnings, gross (丹东 2021);
    `table_cap` the largest 簸簸 he set, where the game has one (扯旋)."""
    return PlayerMetrics(
        player_id=pid,
        single_stake=to_yuan(t.max_stake, point_value),
        round_win_loss=to_yuan(t.max_round_swing, point_value),
        session_win_loss=to_yuan(abs(t.net), point_value),
        net=to_yuan(t.net, point_value),
        total_staked=to_yuan(t.staked, point_value),
        capital=to_yuan(t.staked + t.won, point_value),
        rounds=t.rounds,
        banker_rounds=t.banker_rounds,
        table_cap=to_yuan(t.max_cap, point_value) if t.max_cap is not None else None,
    )


def session_metrics(
    summary: SessionTally, players: list[PlayerMetrics], point_value: Decimal
) -> SessionMetrics:
    """人均赌资 = the players' capital ÷ headcount (通知 六); 当场赌资 = their sum."""
    headcount = len(players)
    scene = sum((p.capital for p in players), Decimal(0))
    won = sum((p.net for p in players if p.net > 0), Decimal(0))
    per_capita = (scene / headcount).quantize(CENT) if headcount else Decimal(0)
    return SessionMetrics(
        headcount=headcount,
        scene_capital=scene,
        per_capita_capital=per_capita,
        table_win_loss=won,
        rake=to_yuan(summary.rake, point_value),
        rounds=summary.rounds,
    )
