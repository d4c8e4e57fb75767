"""`compliance logs`: the session-log format."""

from __future__ import annotations

import json

import click

from compliance.logs.schema import session_schema


@click.group()
def logs() -> None:
    """The stakelog/1 session-log format."""


@logs.command()
def schema() -> None:
    """Print the JSON Schema of a stakelog/1 session line.

    Example: compliance logs schema > stakelog-1.schema.json
    """
    click.echo(json.dumps(session_schema(), ensure_ascii=False, indent=2))
