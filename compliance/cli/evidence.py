"""`compliance evidence`: everything behind the findings on one subject, as a pack."""

from __future__ import annotations

from pathlib import Path

import click

from compliance.cli.options import PSEUDONYMISE, db_option, stored_store
from compliance.cli.output import plural
from compliance.errors import BadValueError
from compliance.reporting.evidence import target_for
from compliance.service_layer.evidence import Subject, make_pack


@click.command()
@click.argument("subject")
@click.option("--platform", help="The platform (needed when the id is on more than one).")
@click.option("--run", "run_id", type=int, help="The stored run (default: the latest).")
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(path_type=Path),
    help="A new folder, or a FILE.zip.",
)
@PSEUDONYMISE
@db_option
def evidence(subject, platform, run_id, output, pseudonyms, db_url) -> None:
    """Hand over the evidence behind the findings on SUBJECT.

    SUBJECT is player:ID, owner:ID or platform:ID (a bare ID is a player). The
    pack holds an index page and pages of at most 200 sessions, self-contained
    HTML and the same as JSON: every finding on the subject with its band,
    instrument, dates in force, confidence, waiver and review history; each
    session behind them read again from its log and replayed round by round
    (cards, hands, stakes, the rules' settlement against the log's claim, the
    figures in yuan); the original log lines; and SHA256SUMS over every file,
    which `sha256sum -c SHA256SUMS` checks in the pack's folder.

    \b
    Example:
      compliance evidence owner:owner-04 --platform sim -o owner-04.zip
    """
    wanted = Subject.parse(subject)
    made = not output.exists()
    try:
        writer, finish = target_for(output)
    except FileExistsError as exc:
        raise BadValueError(str(exc)) from None
    try:
        summary = make_pack(stored_store(db_url), wanted, platform, run_id, writer, pseudonyms)
    except BaseException:
        if made and output.is_dir() and not any(output.iterdir()):
            output.rmdir()  # a refused pack leaves nothing behind
        raise
    where = finish()
    unread = f", {summary.unreadable} not readable again" if summary.unreadable else ""
    click.echo(
        f"evidence on {summary.subject} ({summary.platform}, run {summary.run}): "
        f"{plural(summary.findings, 'finding')}, {plural(summary.sessions, 'session')} on "
        f"{plural(summary.pages, 'page')}{unread} → {where}"
    )
