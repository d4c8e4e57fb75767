"""Options shared by several commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from compliance.domain.pseudonym import Pseudonyms

if TYPE_CHECKING:  # the database's modules load when a command opens it, not at start-up
    from compliance.service_layer.unit_of_work import Store, UnitOfWork, UnitOfWorkFactory

MAX_ROW_ID = 2**31 - 1
"""The largest key a stored row can have (PostgreSQL's `integer`); SQLite's go further."""
WINDOW_DAYS = click.IntRange(min=0, max=36_600)
"""Days of a window: up to a hundred years, which every date minus it can hold."""

INPUT = click.Path(exists=True, dir_okay=False, allow_dash=True)
"""A file to read: a path (a FIFO, /dev/stdin and <(…) included) or `-` for standard input."""


def read_once(*groups) -> None:
    """Standard input can be read once: refuse `-` given twice (to FILES and to --priors)."""
    dashes = sum(1 for group in groups for value in group if str(value) == "-")
    if dashes > 1:
        raise click.UsageError("standard input (-) can be read once: give - only once")


db_option = click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="Database URL (default: $COMPLIANCE_DB_URL, else sqlite:///compliance.db).",
)


def open_store(db_url: str | None, migrate: bool = True) -> Store:
    """A unit-of-work factory on the database (migrated on first use, unless told not to),
    whose pooled connections close when the command ends (an in-process caller, such as
    a test's CliRunner, would otherwise keep them until the collector runs)."""
    from compliance.service_layer.bootstrap import unit_of_work_factory

    store = unit_of_work_factory(db_url, set_up=migrate)
    ctx = click.get_current_context(silent=True)
    engine = getattr(store, "engine", None)
    if ctx is not None and engine is not None:
        ctx.call_on_close(engine.dispose)
    return store


def stored_store(db_url: str | None) -> Store:
    """Units of work on a database that must exist already: a command that only reads it
    says so where a SQLite file is missing, and makes none."""
    from compliance.service_layer.bootstrap import existing_database

    return open_store(existing_database(db_url))


def lazy_store(db_url: str | None) -> UnitOfWorkFactory:
    """Units of work on the database, which is opened (and migrated) only when first asked for:
    a command reading rules from files leaves no database behind."""
    opened: list[UnitOfWorkFactory] = []

    def unit_of_work() -> UnitOfWork:
        if not opened:
            opened.append(open_store(db_url))
        return opened[0]()

    return unit_of_work


def _pseudonyms(ctx, param, value):
    if value is None:
        return None
    try:
        with open(value, "rb") as fh:
            return Pseudonyms(fh.read())
    except OSError as exc:
        raise click.BadParameter(f"{value}: {exc.strerror}", ctx, param) from None
    except ValueError as exc:
        raise click.BadParameter(f"{value}: {exc}", ctx, param) from None


PSEUDONYMISE = click.option(
    "--pseudonymise",
    "pseudonyms",
    metavar="KEYFILE",
    callback=_pseudonyms,
    help="Replace player ids and names by keyed digests (HMAC-SHA-256 with the bytes of "
    "KEYFILE, at least 16), the same in every output made with that key.",
)
