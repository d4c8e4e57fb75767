"""`compliance logs`: the session-log format and the platform's record formats."""

from __future__ import annotations

import click

from compliance.cli.output import to_json
from compliance.logs.platform_records import KINDS
from compliance.logs.platform_schema import record_schema
from compliance.logs.records import FORMAT
from compliance.logs.schema import session_schema


@click.group()
def logs() -> None:
    """The stakelog/1 session-log format, and accounts/1, ledger/1, platform-config/1."""


@logs.command()
@click.option(
    "--kind",
    type=click.Choice((FORMAT, *KINDS)),
    default=FORMAT,
    show_default=True,
    help="Which format: the session logs, or the platform's accounts, ledger or "
    "configuration (docs/log-format.md).",
)
def schema(kind: str) -> None:
    """Print the JSON Schema of one line of a log format.

    \b
    Example:
      compliance logs schema > stakelog-1.schema.json

    \b
    The platform's ledger:
      compliance logs schema --kind ledger/1 > ledger-1.schema.json
    """
    click.echo(to_json(session_schema() if kind == FORMAT else record_schema(kind)))
