"""`compliance db`: migrate, inspect and seed the database."""

from __future__ import annotations

import click

from compliance.cli.options import db_option, open_store


@click.group()
def db() -> None:
    """Create, migrate and seed the threshold database."""


@db.command()
@db_option
def upgrade(db_url: str | None) -> None:
    """Migrate the database to the newest schema.

    \b
    Example:
      compliance db upgrade --db postgresql://127.0.0.1/compliance
    """
    from compliance.service_layer import bootstrap  # the database's modules: not for --help

    click.echo(f"database at {bootstrap.upgrade(db_url)} (head)")


@db.command()
@db_option
def current(db_url: str | None) -> None:
    """Print the database's schema revision and the newest one.

    \b
    Example:
      compliance db current
    """
    from compliance.service_layer import bootstrap

    now, head = bootstrap.revisions(db_url)
    state = "up to date" if now == head else "behind: run `compliance db upgrade`"
    click.echo(f"current {now or 'none'}, head {head}: {state}")


@db.command()
@click.option(
    "--reason",
    default="seed from data/",
    show_default=True,
    help="Why: recorded in the change trail.",
)
@click.option("--actor", help="Who: recorded in the change trail (default: $USER).")
@db_option
def seed(reason: str, actor: str | None, db_url: str | None) -> None:
    """Load the reviewed threshold files in data/ (idempotent).

    Every row added or changed is recorded in the change trail.

    \b
    Example:
      compliance db seed --reason "湖南 2015 基准 re-read" --actor li
    """
    from compliance.service_layer import seeding

    counts = seeding.seed(open_store(db_url)(), reason, actor)
    added = sum(i for i, _ in counts.values())
    changed = sum(u for _, u in counts.values())
    click.echo(f"seeded: {added} rows added, {changed} changed (each in the change trail)")
