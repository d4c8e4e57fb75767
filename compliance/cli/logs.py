"""`compliance logs`: the session-log format."""

from __future__ import annotations

import click

from compliance.cli.output import to_json
from compliance.logs.schema import session_schema


@click.group()
def logs() -> None:
    """The stakelog/1 session-log format."""


@logs.command()
def schema() -> None:
    """Print the JSON Schema of a stakelog/1 session line.

    \b
    Example:
      compliance logs schema > stakelog-1.schema.json
    """
    click.echo(to_json(session_schema()))
