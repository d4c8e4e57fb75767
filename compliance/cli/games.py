"""`compliance games`: evaluate hands and settle rounds without a database."""

from __future__ import annotations

import functools
import gc
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from compliance.cli.options import INPUT
from compliance.cli.output import plural, to_json
from compliance.errors import BadValueError, DealError, UnknownGameError
from compliance.games import game_code
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


def fewer_collections(command: Callable[..., None]) -> Callable[..., None]:
    """A settle makes few reference cycles, so the cycle collector may run less often: at
    its default (every 700 new objects) it walked the parsed log again and again, about
    40 % of a 掼蛋 settle's CPU (docs/performance.md, "掼蛋 engine")."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
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
        sessions = svc.settle_file(file, game, preset)
    except svc.GameNeededError as exc:
        raise click.UsageError(str(exc)) from None
    for session in sessions:
        if fmt == "json":
            rounds = [r.as_dict() for r in session.rounds]
            click.echo(to_json({"session_id": session.session_id, "rounds": rounds}, indent=None))
            continue
        click.echo(
            f"session {session.session_id} ({session.game}, {plural(len(session.rounds), 'round')})"
        )
        for r in session.rounds:
            deltas = " ".join(f"{p} {d:+d}" for p, d in r.deltas.items())
            banker = f" banker {r.banker}" if r.banker else ""
            click.echo(f"  round {r.index}{banker}: {deltas}")
            for issue in r.issues:
                detail = issue.detail.removeprefix(f"round {r.index}: ")
                click.echo(f"    {issue.check}: {detail}")
