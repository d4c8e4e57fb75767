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

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import GenericAlias
from typing import Annotated, Any, Protocol

import msgspec

from compliance.domain.rounds import (
    ILLEGAL_ACTION,
    IMPOSSIBLE_DEAL,
    SETTLEMENT_MISMATCH,
    WRONG_BANKER,
    Integrity,
    PlayerTally,
    RoundResult,
    SessionTally,
)
from compliance.errors import DecodeError, LogError
from compliance.logs.bounds import MAX_ROUNDS
from compliance.logs.reader import TOO_DEEP
from compliance.logs.records import Session, Variant

# The result types live in the domain; they are re-exported here for older imports.
__all__ = [
    "IMPOSSIBLE_DEAL",
    "ILLEGAL_ACTION",
    "SETTLEMENT_MISMATCH",
    "WRONG_BANKER",
    "Engine",
    "EngineSpec",
    "Game",
    "Integrity",
    "PlayerTally",
    "RoundResult",
    "SessionTally",
    "Simulated",
    "Tally",
    "compare_claims",
    "decode_rounds",
    "resolve_options",
]

Tally = Callable[[Session, list[str], Any], SessionTally]


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """引擎档案: what a game declares once: its code, names, records, options and seats.

    `round_type` is the msgspec Struct of one entry of a log's `rounds`;
    `options_type`, `presets` and `default_preset` resolve a log's variant;
    `seat_range` bounds the players of a simulated session; `tally`, when a
    game has one, is its fused one-pass tally `(session, player_ids, options)`,
    equal to metrics.tally(replay(session)). `keys_apart` names round fields whose keys
    the game proves itself (`logs.key_counts`), given the key mirror's record of each round
    of a line (those fields as raw JSON, UNSET where left out; the rest decoded, unbounded)
    and the line's raw `rounds`: True only if each text decodes as the field's type and no
    object in it names a key twice.
    """

    code: str
    name_zh: str
    name_en: str
    round_type: type
    options_type: type
    presets: Mapping[str, Mapping[str, Any]]
    default_preset: str
    seat_range: tuple[int, int] = (2, 6)
    tally: Tally | None = None
    keys_apart: Mapping[str, Callable[[tuple[Any, ...], msgspec.Raw], bool]] = field(
        default_factory=dict
    )


class Game(Protocol):
    """A game engine: its spec, its options, a replay of whole sessions, a hand describer."""

    spec: EngineSpec

    @property
    def code(self) -> str: ...

    @property
    def name_zh(self) -> str: ...

    @property
    def name_en(self) -> str: ...

    @property
    def tally_session(self) -> Callable[[Session, list[str]], SessionTally] | None: ...

    def options_for(self, variant: Variant | None) -> Any:
        """玩法: the typed options of a log's variant (its preset plus overrides)."""
        ...

    def replay(self, session: Session) -> Iterator[RoundResult]:
        """Settle every round of the session in order, carrying state."""
        ...

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """What a hand is (for `games eval`): a JSON-ready description.

        `hand` is the card strings given on the command line, or, for hands
        that need more (melds, a wildcard), a JSON record read from stdin.
        """
        ...


class Engine(ABC):
    """引擎: the members every game shares, derived from its spec; each game replays and
    describes in its own way, so a game that lacks either cannot be made."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec

    @property
    def code(self) -> str:
        return self.spec.code

    @property
    def name_zh(self) -> str:
        return self.spec.name_zh

    @property
    def name_en(self) -> str:
        return self.spec.name_en

    @property
    def tally_session(self) -> Callable[[Session, list[str]], SessionTally] | None:
        """The replay summed up in one pass, or None when the game has no fused tally."""
        tally = self.spec.tally
        if tally is None:
            return None
        return lambda session, player_ids: tally(
            session, player_ids, self.options_for(session.variant)
        )

    def options_for(self, variant: Variant | None) -> Any:
        """玩法: the typed options of a log's variant (its preset plus overrides)."""
        spec = self.spec
        return resolve_options(
            variant or Variant(), spec.presets, spec.default_preset, spec.options_type
        )

    @abstractmethod
    def replay(self, session: Session) -> Iterator[RoundResult]:
        """Settle every round of the session in order, carrying state."""

    @abstractmethod
    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """What a hand is (for `games eval`): a JSON-ready description."""


_round_decoders: dict[type, msgspec.json.Decoder[list[Any]]] = {}


def decode_rounds(raw: msgspec.Raw | bytes, round_type: type) -> list[Any]:
    """Decode a session's raw `rounds` array into the game's round Structs."""
    decoder = _round_decoders.get(round_type)
    if decoder is None:
        # list[round_type], spelt so a type checker reads it as a runtime value
        rounds_type: Any = Annotated[
            GenericAlias(list, (round_type,)), msgspec.Meta(max_length=MAX_ROUNDS)
        ]
        decoder = _round_decoders[round_type] = msgspec.json.Decoder(rounds_type)
    try:
        return decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise DecodeError(f"invalid round: {exc}") from None
    except msgspec.DecodeError as exc:
        raise DecodeError(f"malformed rounds: {exc}") from None
    except RecursionError:
        raise DecodeError(TOO_DEEP) from None


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
    except RecursionError:
        raise LogError(f"bad variant options: {TOO_DEEP}") from None


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
