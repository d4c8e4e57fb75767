"""Options shared by several commands."""

from __future__ import annotations

import click

from compliance.db.engine import database_url, ensure_schema, make_engine

db_option = click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="Database URL (default: $COMPLIANCE_DB_URL, else sqlite:///compliance.db).",
)


def open_engine(db_url: str | None, migrate: bool = True):
    engine = make_engine(database_url(db_url))
    if migrate:
        ensure_schema(engine)
    return engine
