"""结算: settle a session log, or bare round records, by the rules; say what a hand is.

No database: the use cases of `compliance games` return plain data.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import Any

import msgspec

from compliance.domain.rounds import RoundResult
from compliance.errors import ConfigError, DecodeError
from compliance.games import game_codes, get_game, names_zh
from compliance.logs.reader import Reject, sessions_in
from compliance.logs.records import Player, Session, Variant
from compliance.streams import read_all

PLAYER_KEYED = ("claimed", "chips", "antes", "hands")
RECORDS_SESSION_ID = "(records)"


class GameNeededError(ConfigError):
    """Round records name no game: the caller must say which."""


@dataclass(frozen=True)
class GameRow:
    code: str
    name_zh: str
    name_en: str


def list_games() -> list[GameRow]:
    """游戏: the games this tool replays, by code."""
    zh = names_zh()
    return [GameRow(code, zh.get(code, ""), get_game(code).name_en) for code in game_codes()]


def describe_hand(
    game: str,
    hand: list[str] | dict[str, Any],
    preset: str | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """牌型: what a hand (cards, or a JSON record) is under the game's rules and variant."""
    return get_game(game).describe(hand, Variant(preset=preset, options=options or {}))


@dataclass(frozen=True)
class IntegrityIssue:
    """完整性问题 of one round: what the log claims against what the rules give."""

    check: str
    detail: str
    players: list[str]
    claimed: dict[str, int] | None
    expected: dict[str, int] | None


@dataclass(frozen=True)
class SettledRound:
    """一局结算: one round's deltas, stakes, rake and integrity issues."""

    index: int
    banker: str | None
    deltas: dict[str, int]
    stakes: dict[str, int]
    rake: int
    issues: list[IntegrityIssue]

    @classmethod
    def of(cls, result: RoundResult) -> SettledRound:
        return cls(
            index=result.index,
            banker=result.banker,
            deltas=result.deltas,
            stakes=result.stakes,
            rake=result.rake,
            issues=[
                IntegrityIssue(i.check, i.detail, list(i.players), i.claimed, i.expected)
                for i in result.issues
            ],
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SettledSession:
    session_id: str
    game: str
    rounds: list[SettledRound]


def settle_file(
    path: str | Path, game: str | None = None, preset: str | None = None
) -> list[SettledSession]:
    """结算: every round of each session of a log, or of a file of round records (one, or a
    JSON list) of `game`, whose players are those the records name (GameNeededError without it)."""
    return [settle_session(session) for session in sessions_to_settle(path, game, preset)]


def sessions_to_settle(
    path: str | Path, game: str | None = None, preset: str | None = None
) -> list[Session]:
    """The sessions `settle_file` settles, every line decoded before any is replayed (a bad
    line is a DecodeError naming it; GameNeededError for round records without `game`)."""
    data = read_all(path)
    if not _plainly_a_log(data):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DecodeError(f"{path}: not UTF-8 text") from None
        if is_round_records(text.strip()):
            if not game:
                raise GameNeededError("a round record (or a list of them) needs --game")
            return [session_of_rounds(game, preset, text.strip())]
    sessions = []
    with _kept_frozen() as keep:
        for item in sessions_in(data, str(path), get_game):
            if isinstance(item, Reject):
                _check_utf8(data, path)
                raise DecodeError(item.describe())
            sessions.append(item.session)
            keep()
    return sessions


@contextmanager
def _kept_frozen() -> Iterator[Callable[[], None]]:
    """冻结: what a step keeps to its end (the sessions read, with what the engines kept of
    their rounds; the replays and the engines' tables) frozen out of the cycle collector's
    sight as it is made, by `keep()` after each session, and handed back to its oldest
    generation as the step ends. Its collections walked all of it again and again, ~6 % of a
    掼蛋 settle (docs/performance.md, "guandan6"); reference counting frees the rest as before,
    and a cycle made while the step runs waits for the collector only until it ends. Where
    something is frozen already, unfreezing would hand that back too: the step then leaves
    the collector alone."""
    if gc.get_freeze_count():
        yield _leave
        return
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


def _leave() -> None:
    """Freeze nothing."""


def _plainly_a_log(data: bytes) -> bool:
    """The file opens with `{` and its first line names a `format`: a session log, whatever
    a UTF-8 decode of the whole would say (a line that is not UTF-8 cannot decode, and a
    reject checks the whole file before it is told)."""
    lead = data[:256].lstrip()
    if not lead.startswith(b"{"):
        return False
    start = len(data[:256]) - len(lead)
    end = data.find(b"\n", start)
    return b'"format"' in data[start : end if end >= 0 else len(data)]


def _check_utf8(data: bytes, path: str | Path) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise DecodeError(f"{path}: not UTF-8 text") from None


def replay_session(session: Session) -> list[RoundResult]:
    """Every round of a session as its game's rules settle it, in order."""
    return list(get_game(session.game).replay(session))


def replay_sessions(sessions: list[Session]) -> list[list[RoundResult]]:
    """`replay_session` of each session, in order; a game that replays many sessions at
    once (`replay_many`) gets each run of consecutive sessions of it together."""
    out: list[list[RoundResult]] = []
    with _kept_frozen() as keep:
        for code, run in groupby(sessions, attrgetter("game")):
            game = get_game(code)
            many = getattr(game, "replay_many", None)
            if many is None:
                for session in run:
                    out.append(list(game.replay(session)))
                    keep()
            else:
                out.extend(many(list(run)))
                keep()
    return out


def settle_session(session: Session) -> SettledSession:
    rounds = [SettledRound.of(r) for r in replay_session(session)]
    return SettledSession(session.session_id, session.game, rounds)


def is_round_records(text: str) -> bool:
    """A JSON list, or an object whose first line names no `format`: not a session log."""
    if text.startswith("["):
        return True
    end = text.find("\n")
    return text.startswith("{") and '"format"' not in (text if end < 0 else text[:end])


def session_of_rounds(game: str, preset: str | None, text: str) -> Session:
    """Wrap round records in a session whose players are those they name."""
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise DecodeError(f"malformed round record: {exc}") from None
    names: list[str] = []

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("player", "banker", "from") and isinstance(value, str):
                    names.append(value)
                elif key in PLAYER_KEYED and isinstance(value, dict):
                    names.extend(value)
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    try:
        collect(record)
    except RecursionError:
        raise DecodeError("malformed round record: nested too deeply") from None
    players = [Player(id=name) for name in dict.fromkeys(names)]
    return Session(
        format="stakelog/1",
        session_id=RECORDS_SESSION_ID,
        platform="-",
        game=game,
        started_at=datetime.now(UTC),
        players=players or [Player(id="-")],
        rounds=msgspec.Raw(msgspec.json.encode(record if isinstance(record, list) else [record])),
        variant=Variant(preset=preset),
    )
