"""The session-replay interface every game engine implements.

An engine replays a whole session: it takes the rounds in order, carries the
state that passes from round to round (the banker, a pot, levels, a running
score), checks each round against that state and the cards, and yields one
`RoundResult` per round. Engines are pure: no database, no CLI, no I/O.

Structural impossibilities (an unknown or duplicate card, a wrong card count,
a player who is not in the session) raise `DealError`: the session becomes a
reject. Breaches of the rules by a well-formed log (a settlement that differs
from the claim, an illegal action, the wrong banker) are `Integrity` records
on the round: they become findings, and the replay goes on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from compliance.errors import DecodeError, LogError
from compliance.logs.records import Session, Variant

# Integrity checks, in the order a reader meets them.
SETTLEMENT_MISMATCH = "settlement_mismatch"
ILLEGAL_ACTION = "illegal_action"
WRONG_BANKER = "wrong_banker"
IMPOSSIBLE_DEAL = "impossible_deal"


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
    pot that outlives the round (positive: into the pot).
    """

    index: int
    deltas: dict[str, int]
    stakes: dict[str, int]
    banker: str | None = None
    rake: int = 0
    carried: int = 0
    issues: list[Integrity] = field(default_factory=list)


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


class Game(Protocol):
    """A game engine: a code, names, and a replay of whole sessions."""

    code: str
    name_zh: str
    name_en: str

    def replay(self, session: Session) -> Iterator[RoundResult]:
        """Settle every round of the session in order, carrying state."""
        ...

    # An engine may also offer `tally_session(session, player_ids) -> SessionTally`:
    # the replay summed up in one pass, equal to metrics.tally(replay(session)).

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """What a hand is (for `games eval`): a JSON-ready description.

        `hand` is the card strings given on the command line, or, for hands
        that need more (melds, a wildcard), a JSON record read from stdin.
        """
        ...

    def simulate(
        self, rng: random.Random, players: list[str], n_rounds: int, base: int, anomaly_rate: float
    ) -> Simulated:
        """Rounds of a realistic session from really shuffled decks.

        `base` is the stake unit in points; with probability `anomaly_rate`
        a round is tampered with (a changed payout, a wrong banker, an
        illegal action) and the tampering is listed in the result.
        """
        ...


_round_decoders: dict[type, msgspec.json.Decoder] = {}


def decode_rounds(raw: msgspec.Raw | bytes, round_type: type) -> list:
    """Decode a session's raw `rounds` array into the game's round Structs."""
    decoder = _round_decoders.get(round_type)
    if decoder is None:
        decoder = _round_decoders[round_type] = msgspec.json.Decoder(list[round_type])
    try:
        return decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise DecodeError(f"invalid round: {exc}") from None
    except msgspec.DecodeError as exc:
        raise DecodeError(f"malformed rounds: {exc}") from None


def resolve_options(
    variant: Variant, presets: Mapping[str, Mapping[str, Any]], default: str, options_type: type
):
    """A typed options object from a named preset plus explicit overrides.

    Unknown presets and options are log errors, so the session is rejected
    with the name that was wrong rather than replayed under guessed rules.
    """
    name = variant.preset or default
    if name not in presets:
        known = ", ".join(sorted(presets))
        raise LogError(f"unknown preset {name!r} (known: {known})")
    merged = {**presets[name], **variant.options}
    try:
        return msgspec.convert(merged, options_type)
    except msgspec.ValidationError as exc:
        raise LogError(f"bad variant options: {exc}") from None


def compare_claims(
    index: int, deltas: Mapping[str, int], claimed: Mapping[str, int]
) -> Integrity | None:
    """A settlement-mismatch record naming the players whose claim differs."""
    wrong = tuple(p for p in deltas if claimed.get(p, 0) != deltas[p])
    wrong += tuple(p for p in claimed if p not in deltas and claimed[p] != 0)
    if not wrong:
        return None
    detail = "; ".join(
        f"{p} claimed {claimed.get(p, 0)}, rules give {deltas.get(p, 0)}" for p in wrong
    )
    return Integrity(
        round=index,
        check=SETTLEMENT_MISMATCH,
        detail=detail,
        players=wrong,
        claimed={p: claimed.get(p, 0) for p in wrong},
        expected={p: deltas.get(p, 0) for p in wrong},
    )


@dataclass(slots=True)
class Simulated:
    """What a game's simulator made for one session: its variant and rounds.

    `anomalies` lists every tampering it injected as (round index, check), so
    tests can prove the audit finds each one.
    """

    variant: dict[str, Any]
    rounds: list[dict[str, Any]]
    anomalies: list[tuple[int, str]] = field(default_factory=list)
