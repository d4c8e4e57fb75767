"""`compliance games`: evaluate hands and settle rounds without a database."""

from __future__ import annotations

import atexit
import functools
import gc
import json
import sys
from collections.abc import Callable
from itertools import chain
from typing import Any

import click

from compliance.cli.options import INPUT
from compliance.cli.output import plural, to_json
from compliance.domain.rounds import RoundResult
from compliance.errors import BadValueError, DealError, UnknownGameError
from compliance.games import game_code
from compliance.logs.records import Session
from compliance.service_layer import settle as svc


@click.group()
def games() -> None:
    """Evaluate hands and settle rounds of the supported games."""


@games.command("list")
def list_games() -> None:
    """List the game codes this tool replays.

    \b
    Example:
      compliance games list
    """
    for game in svc.list_games():
        click.echo(f"{game.code:<11} {game.name_zh} {game.name_en}")


@games.command("eval")
@click.argument("game")
@click.argument("cards", nargs=-1)
@click.option("--preset", help="House-rule preset (the game's default if omitted).")
@click.option(
    "--option", "options", multiple=True, metavar="KEY=VALUE", help="Variant option (repeatable)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def evaluate(game: str, cards: tuple[str, ...], preset, options, fmt) -> None:
    """Say what a hand is: cards as arguments, or a JSON record on standard input.

    \b
    Example:
      compliance games eval douniu SA H2 C3 D4 S5
    """
    hand: Any = list(cards)
    if not cards:
        raw = sys.stdin.read()
        try:
            hand = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise click.UsageError(
                f"give cards as arguments or a JSON record on stdin ({exc})"
            ) from None
    try:
        result = svc.describe_hand(game_code(game), hand, preset, _parse_options(options))
    except (UnknownGameError, DealError) as exc:
        raise BadValueError(str(exc)) from None
    if fmt == "json":
        click.echo(to_json(result, indent=None))
    elif "rank" in result:
        extra = f" ×{result['multiplier']}" if "multiplier" in result else ""
        click.echo(f"{result['rank']} {result.get('name_zh', '')}{extra}".rstrip())
    else:
        for key, value in result.items():
            click.echo(f"{key}: {value if isinstance(value, str) else to_json(value, indent=None)}")


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.UsageError(f"--option takes KEY=VALUE, not {pair!r}")
        try:
            out[key] = json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            out[key] = value
    return out


SETTLE_GEN0 = 50_000  # objects allocated between two young collections while settling


@functools.cache
def _no_last_collection() -> None:
    """The engines' tables live until the process ends, and the interpreter's last full
    collection would walk them only to find no garbage (about a tenth of a 掼蛋 settle's CPU):
    at exit everything is frozen first (atexit runs before that collection)."""
    atexit.register(gc.freeze)


def fewer_collections(command: Callable[..., None]) -> Callable[..., None]:
    """A settle makes few reference cycles, so the cycle collector may run less often: at
    its default (every 700 new objects) it walked the parsed log again and again, about
    40 % of a 掼蛋 settle's CPU (docs/performance.md, "掼蛋 engine")."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        _no_last_collection()
        gen0, *older = gc.get_threshold()
        gc.set_threshold(max(gen0, SETTLE_GEN0), *older)
        try:
            command(*args, **kwargs)
        finally:
            gc.set_threshold(gen0, *older)

    return run


@games.command()
@click.argument("file", type=INPUT)
@click.option("--game", help="The game of a single round record (a session log names its own).")
@click.option("--preset", help="Preset for a single round record.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@fewer_collections
def settle(file: str, game: str | None, preset: str | None, fmt: str) -> None:
    """Settle every round of a session log, or one round record, by the rules.

    Prints each round's settlement, stakes and any integrity problem.

    A file of round records (one, or a JSON list) needs --game; its players
    are those the records name.

    \b
    Example:
      compliance games settle data/samples/douniu.jsonl
    """
    try:
        sessions = svc.sessions_to_settle(file, game, preset)
    except svc.GameNeededError as exc:
        raise click.UsageError(str(exc)) from None
    settled = _json_line if fmt == "json" else _text_lines
    # Every session is settled before anything is printed, so an engine error prints no
    # round; each session's lines go out in one write.
    results = svc.replay_sessions(sessions)
    blocks = [settled(session, rounds) for session, rounds in zip(sessions, results, strict=True)]
    for block in blocks:
        click.echo(block)


def _json_line(session: Session, rounds: list[RoundResult]) -> str:
    payload = {"session_id": session.session_id, "rounds": [_round_json(r) for r in rounds]}
    return to_json(payload, indent=None)


def _round_json(r: RoundResult) -> dict[str, Any]:
    issues = [
        {
            "check": i.check,
            "detail": i.detail,
            "players": list(i.players),
            "claimed": i.claimed,
            "expected": i.expected,
        }
        for i in r.issues
    ]
    return {
        "index": r.index,
        "banker": r.banker,
        "deltas": r.deltas,
        "stakes": r.stakes,
        "rake": r.rake,
        "issues": issues,
    }


class _RoundTemplates(dict[tuple[int, bool], str]):
    """`  round N banker B: P +D P -D …` for so many players, with a banker or not, as one
    %-format, made the first time it is asked for."""

    def __missing__(self, key: tuple[int, bool]) -> str:
        players, banker = key
        deltas = " ".join(["%s %+d"] * players)
        self[key] = template = f"  round %d{' banker %s' if banker else ''}: {deltas}"
        return template


_ROUND_TEMPLATES = _RoundTemplates()


def _text_lines(session: Session, rounds: list[RoundResult]) -> str:
    """A session's heading, each round's deltas and its integrity issues, one per line."""
    lines = [f"session {session.session_id} ({session.game}, {plural(len(rounds), 'round')})"]
    add = lines.append
    flat = chain.from_iterable
    templates = _ROUND_TEMPLATES
    for r in rounds:
        deltas = r.deltas
        banker = r.banker
        if banker:
            add(templates[len(deltas), True] % (r.index, banker, *flat(deltas.items())))
        else:
            add(templates[len(deltas), False] % (r.index, *flat(deltas.items())))
        if r.issues:
            prefix = f"round {r.index}: "
            for issue in r.issues:
                add(f"    {issue.check}: {issue.detail.removeprefix(prefix)}")
    return "\n".join(lines)
