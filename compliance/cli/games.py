"""`compliance games`: evaluate hands and settle rounds without a database."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
import msgspec

from compliance.errors import DecodeError
from compliance.games import NAMES_ZH, game_codes, get_game
from compliance.logs.reader import Reject, read_sessions
from compliance.logs.records import Player, Session, Variant

PLAYER_KEYED = ("claimed", "chips", "antes", "hands")


@click.group()
def games() -> None:
    """Evaluate hands and settle rounds of the supported games."""


@games.command("list")
def list_games() -> None:
    """List the game codes this tool replays.

    Example: compliance games list
    """
    for code in game_codes():
        engine = get_game(code)
        click.echo(f"{code:<11} {NAMES_ZH.get(code, '')} {engine.name_en}")


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

    Example: compliance games eval douniu SA H2 C3 D4 S5
    """
    engine = get_game(game)
    hand: Any = list(cards)
    if not cards:
        raw = sys.stdin.read()
        try:
            hand = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise click.UsageError(
                f"give cards as arguments or a JSON record on stdin ({exc})"
            ) from None
    result = engine.describe(hand, Variant(preset=preset, options=_parse_options(options)))
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False))
    elif "rank" in result:
        extra = f" ×{result['multiplier']}" if "multiplier" in result else ""
        click.echo(f"{result['rank']} {result.get('name_zh', '')}{extra}".rstrip())
    else:
        for key, value in result.items():
            click.echo(
                f"{key}: {json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value}"
            )


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


@games.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", help="The game of a single round record (a session log names its own).")
@click.option("--preset", help="Preset for a single round record.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def settle(file: str, game: str | None, preset: str | None, fmt: str) -> None:
    """Settle every round of a session log, or one round record, by the rules.

    Prints each round's settlement, stakes and any integrity problem.

    A file of round records (one, or a JSON list) needs --game; its players
    are those the records name.

    Example: compliance games settle data/samples/douniu.jsonl
    """
    try:
        text = Path(file).read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        raise DecodeError(f"{file}: not UTF-8 text") from None
    if text.startswith("[") or (text.startswith("{") and '"format"' not in text.split("\n", 1)[0]):
        if not game:
            raise click.UsageError("a round record (or a list of them) needs --game")
        sessions = [_session_of_round(game, preset, text)]
    else:
        sessions = []
        for item in read_sessions(file):
            if isinstance(item, Reject):
                raise DecodeError(item.describe())
            sessions.append(item.session)
    for session in sessions:
        rounds = [_round_dict(r) for r in get_game(session.game).replay(session)]
        if fmt == "json":
            click.echo(
                json.dumps({"session_id": session.session_id, "rounds": rounds}, ensure_ascii=False)
            )
            continue
        n = f"{len(rounds)} round" + ("" if len(rounds) == 1 else "s")
        click.echo(f"session {session.session_id} ({session.game}, {n})")
        for r in rounds:
            deltas = " ".join(f"{p} {d:+d}" for p, d in r["deltas"].items())
            banker = f" banker {r['banker']}" if r["banker"] else ""
            click.echo(f"  round {r['index']}{banker}: {deltas}")
            for issue in r["issues"]:
                click.echo(f"    {issue['check']}: {issue['detail']}")


def _round_dict(result) -> dict[str, Any]:
    return {
        "index": result.index,
        "banker": result.banker,
        "deltas": result.deltas,
        "stakes": result.stakes,
        "rake": result.rake,
        "issues": [
            {
                "check": i.check,
                "detail": i.detail,
                "players": list(i.players),
                "claimed": i.claimed,
                "expected": i.expected,
            }
            for i in result.issues
        ],
    }


def _session_of_round(game: str, preset: str | None, text: str) -> Session:
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

    collect(record)
    players = [Player(id=name) for name in dict.fromkeys(names)]
    return Session(
        format="stakelog/1",
        session_id="(records)",
        platform="-",
        game=game,
        started_at=datetime.now(UTC),
        players=players or [Player(id="-")],
        rounds=msgspec.Raw(msgspec.json.encode(record if isinstance(record, list) else [record])),
        variant=Variant(preset=preset),
    )
