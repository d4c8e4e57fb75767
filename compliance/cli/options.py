"""Options shared by several commands."""

from __future__ import annotations

import click

from compliance.service_layer.bootstrap import unit_of_work_factory

db_option = click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="Database URL (default: $COMPLIANCE_DB_URL, else sqlite:///compliance.db).",
)


def open_store(db_url: str | None, migrate: bool = True):
    """A unit-of-work factory on the database (migrated on first use, unless told not to)."""
    return unit_of_work_factory(db_url, set_up=migrate)
