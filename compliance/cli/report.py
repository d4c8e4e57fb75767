"""`compliance report`: stored audit results as HTML, CSV, JSON or Markdown."""

from __future__ import annotations

import re

import click

from compliance.cli.fail_on import FAIL_ON
from compliance.cli.options import MAX_ROW_ID, PSEUDONYMISE, db_option, stored_store
from compliance.cli.output import plural, table, to_json
from compliance.cli.progress import bar, set_total
from compliance.domain.review import STATUSES
from compliance.errors import BadValueError, UnknownGameError
from compliance.games import game_code
from compliance.reporting.model import ReportQuery
from compliance.service_layer import reports
from compliance.service_layer.compare import compare as compare_runs


class RunParam(click.ParamType):
    name = "RUN|latest"

    def convert(self, value, param, ctx):
        if isinstance(value, int) or value == "latest":
            return value
        if re.fullmatch("[0-9]+", str(value)):
            if int(value) > MAX_ROW_ID:
                raise click.ClickException(f"no audit run {int(value)} is stored")
            return int(value)
        self.fail(f"{value!r} is neither a run number nor 'latest'", param, ctx)


MOVED_SHOWN = 50


@click.command()
@click.argument("run", type=RunParam(), required=False)
@click.option(
    "--format", "fmt", type=click.Choice(reports.FORMATS), default="html", show_default=True
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    help="Write here (default: report.<format>; '-' for standard output).",
)
@click.option(
    "--jurisdiction", help="Only this jurisdiction and those below it (430000, hunan, 湖南)."
)
@click.option("--game", help="Only this game: code or name (douniu, 斗牛, ...).")
@click.option("--platform", help="Only sessions of this platform.")
@click.option(
    "--tier",
    "tiers",
    multiple=True,
    type=click.Choice(FAIL_ON),
    metavar="TIER|integrity|indeterminate",
    help="Only threshold findings at or above TIER, and/or findings of this kind (repeatable).",
)
@click.option(
    "--since", type=click.DateTime(["%Y-%m-%d"]), help="Sessions played on or after this day."
)
@click.option(
    "--until", type=click.DateTime(["%Y-%m-%d"]), help="Sessions played on or before this day."
)
@click.option(
    "--status",
    "statuses",
    multiple=True,
    type=click.Choice(STATUSES),
    help="Only findings of this review status (repeatable); `open` includes those reopened.",
)
@PSEUDONYMISE
@click.option(
    "--compare",
    nargs=2,
    type=int,
    metavar="RUN_A RUN_B",
    help="How each finding identity moved from RUN_A to RUN_B: a tier-migration matrix and "
    "the identities that moved (text, or --format json).",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default="zh",
    show_default=True,
    help="Main language of the labels; the other is the gloss.",
)
@db_option
def report(
    run,
    fmt,
    output,
    jurisdiction,
    game,
    platform,
    tiers,
    since,
    until,
    statuses,
    pseudonyms,
    compare,
    lang,
    db_url,
):
    """Report on stored audit results: one run, or every run's sessions in a date range.

    RUN is a run number or `latest` (the default, unless --since or --until
    is given, which then selects sessions of every run). The HTML report is one
    self-contained file with charts; CSV and JSON hold every selected finding.

    \b
    Example:
      compliance report latest --format html -o report.html --jurisdiction hunan
    """
    if compare:
        _compare(stored_store(db_url), compare[0], compare[1], fmt)
        return
    if game is not None:
        try:
            game = game_code(game)
        except UnknownGameError as exc:
            raise BadValueError(f"--game: {exc}") from None
    store = stored_store(db_url)
    query = ReportQuery(
        jurisdiction=jurisdiction,
        game=game,
        platform=platform,
        tiers=tuple(tiers),
        since=since.date() if since else None,
        until=until.date() if until else None,
        statuses=tuple(statuses),
    )
    if run is None:
        run = None if (since or until) else "latest"
    with bar("report") as progress:
        built = reports.make_report(
            store(), query, run, lambda n: set_total(progress, n), progress.update, pseudonyms
        )
    _warn_if_empty(built.sessions, jurisdiction=jurisdiction, game=game, platform=platform)
    if output == "-":
        for piece in reports.chunks(built, fmt, lang):
            click.echo(piece, nl=False)
        return
    path = reports.write_report(built, fmt, output or f"report{reports.SUFFIX[fmt]}", lang)
    findings = built.total
    click.echo(f"report of {built.sessions} sessions and {findings} findings → {path}")


def _compare(store, run_a: int, run_b: int, fmt: str) -> None:
    """The tier-migration matrix of two runs (rows: RUN_A, columns: RUN_B), then the moves."""
    result = compare_runs(store(), run_a, run_b)
    if fmt == "json":
        click.echo(to_json(result.as_dict()))
        return
    labels = result.labels()
    rows = [[f"#{run_a} \\ #{run_b}", *labels]]
    rows += [[a, *(str(result.matrix.get((a, b), "")) for b in labels)] for a in labels]
    click.echo(table(rows))
    moved = result.moved
    click.echo(
        f"{plural(len(moved), 'identity') if len(moved) == 1 else f'{len(moved)} identities'} moved"
    )
    for m in moved[:MOVED_SHOWN]:
        where = m["session_id"] or f"window to {m['window_end']}"
        click.echo(
            f"  {m['fingerprint'][:12]}  {m['a']} → {m['b']}  {m['subject']}  {m['band']}  {where}"
        )
    if len(moved) > MOVED_SHOWN:
        click.echo(f"  … and {len(moved) - MOVED_SHOWN} more (--format json lists them all)")


def _warn_if_empty(sessions: int, **filters: str | None) -> None:
    """A filter that matches no stored session says so: a typo must not pass for a clean
    report."""
    given = [f"--{name} {value}" for name, value in filters.items() if value is not None]
    if sessions == 0 and given:
        click.echo(
            f"warning: no stored session matches {' '.join(given)}; the report is empty",
            err=True,
        )
