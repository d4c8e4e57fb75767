"""一局的结果: what a game engine gives for each round and for a session.

Engines produce these; the metrics and the classifier read them. Breaches of
the rules by a well-formed log are `Integrity` records on the round: they
become findings, and the replay goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Integrity checks, in the order a reader meets them.
SETTLEMENT_MISMATCH = "settlement_mismatch"
ILLEGAL_ACTION = "illegal_action"
WRONG_BANKER = "wrong_banker"
IMPOSSIBLE_DEAL = "impossible_deal"
# Claims a log makes of itself that the audit cannot take on trust (docs/metrics.md).
TOURNAMENT_IN_YUAN = "tournament_in_yuan"
UNVERIFIABLE = "unverifiable"
SESSION_ROUND = 0  # the round of an issue that concerns the whole session


@dataclass(slots=True)
class Integrity:
    """完整性问题: what the log claims against what the rules give, in one round."""

    round: int
    check: str
    detail: str
    players: tuple[str, ...] = ()
    claimed: dict[str, int] | None = None
    expected: dict[str, int] | None = None


@dataclass(slots=True)
class RoundResult:
    """一局结算: one round as the rules settle it.

    `deltas` are the rules' own settlement per player in points, before rake
    (zero-sum apart from pots carried forward); `stakes` are what each player
    wagered in the round as agreed before the result (DESIGN §5); `rake` is
    what the room owner took (抽头); `carried` is what went into or out of a
    pot that outlives the round (positive: into the pot); `caps` are the
    most each player could lose in the round where the game sets it (扯旋's 簸簸).
    """

    index: int
    deltas: dict[str, int]
    stakes: dict[str, int]
    banker: str | None = None
    rake: int = 0
    carried: int = 0
    issues: list[Integrity] = field(default_factory=list)
    caps: dict[str, int] | None = None


@dataclass(slots=True)
class PlayerTally:
    """One player's running figures over a session, in points."""

    max_stake: int = 0
    max_round_swing: int = 0
    net: int = 0
    staked: int = 0
    won: int = 0
    rounds: int = 0
    banker_rounds: int = 0
    max_cap: int | None = None

    def add(self, stake: int, amount: int) -> None:
        """One round played: `stake` wagered, `amount` won (or lost, if negative)."""
        self.rounds += 1
        self.staked += stake
        if stake > self.max_stake:
            self.max_stake = stake
        self.net += amount
        if amount > 0:
            self.won += amount
            if amount > self.max_round_swing:
                self.max_round_swing = amount
        elif -amount > self.max_round_swing:
            self.max_round_swing = -amount


@dataclass(slots=True)
class SessionTally:
    """A session's replay summed up: per-player tallies, rake, issues."""

    players: dict[str, PlayerTally]
    rounds: int = 0
    rake: int = 0
    issues: list[Integrity] = field(default_factory=list)
