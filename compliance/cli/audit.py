"""`compliance audit`: judge session logs and store the run."""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, cast

import click
import msgspec

from compliance.cli.exit_codes import ExitCode
from compliance.cli.fail_on import DUTY_GATES, FAIL_ON, REJECT, FailOn
from compliance.cli.options import (
    INPUT,
    PSEUDONYMISE,
    WINDOW_DAYS,
    db_option,
    open_store,
    read_once,
)
from compliance.cli.output import CutOff, plural, summary_line
from compliance.cli.progress import bar, count_lines, is_interactive
from compliance.domain.classifier import ClassifierOptions
from compliance.domain.findings import FORMAT, Finding
from compliance.domain.pseudonym import Pseudonyms
from compliance.domain.rules import VENUES
from compliance.logs.reader import MAX_LINE_BYTES
from compliance.reporting.cells import printable

if TYPE_CHECKING:
    from compliance.service_layer import audit as services

MAX_REJECTS_SHOWN = 20
MAX_WORKERS = 256


def parse_versions(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        group, sep, instrument = pair.partition("=")
        if not sep or not group or not instrument:
            raise click.BadParameter(
                f"{pair!r} is not GROUP=INSTRUMENT", param_hint="--rule-version"
            )
        out[group] = instrument
    return out


@click.command()
@click.argument("files", nargs=-1, required=True, type=INPUT)
@click.option(
    "--jurisdiction", help="Where a log names none (code, name or alias: 430000, hunan, 湖南)."
)
@click.option(
    "--as-of",
    type=click.DateTime(["%Y-%m-%d"]),
    help="Judge under the rules in force on this date.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "jsonl", "csv", "sarif"]),
    default="table",
    show_default=True,
    help="A table for people; JSON Lines, CSV or SARIF 2.1.0 for machines (README, "
    "'Finding fields').",
)
@click.option(
    "--output",
    "-o",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="Write findings here instead of standard output.",
)
@click.option(
    "--fail-on",
    multiple=True,
    type=click.Choice((*FAIL_ON, *DUTY_GATES, REJECT)),
    metavar="TIER|integrity|indeterminate|duty|duty-signal|duty-advisory|reject",
    help="Exit 3 when a finding is at or above this tier, or of this kind, or when any "
    "line was rejected (repeatable). duty: a platform duty breached as a violation; "
    "duty-signal, duty-advisory: at or above that severity.",
)
@click.option(
    "--max-reject-rate",
    type=click.FloatRange(0, 1),
    metavar="R",
    help="Exit 3 when more than this share of the input's lines was rejected (0.01: 1 %).",
)
@click.option(
    "--include-waived",
    is_flag=True,
    help="--fail-on counts waived findings too (by default a waiver lets its findings by).",
)
@click.option(
    "--keep-lines",
    is_flag=True,
    help="Store each session's log line (compressed), for evidence packs after the file is "
    "gone; a stream's lines are stored always.",
)
@click.option(
    "--no-names",
    "no_names",
    is_flag=True,
    help="Store no player's name (ids only): nothing of a name the log gives is kept.",
)
@PSEUDONYMISE
@click.option("--strict", is_flag=True, help="Stop at the first line that cannot be audited.")
@click.option(
    "--all", "show_all", is_flag=True, help="Table: also show below-threshold and exempt results."
)
@click.option(
    "--win-loss-scope",
    type=click.Choice(["player", "table"]),
    default="player",
    show_default=True,
    help="全场输赢 per player, or the table's total (docs/metrics.md).",
)
@click.option(
    "--rule-version",
    "versions",
    multiple=True,
    metavar="GROUP=INSTRUMENT",
    help="Apply this instrument of a disputed version group (repeatable).",
)
@click.option(
    "--venue",
    type=click.Choice(VENUES),
    default="online",
    show_default=True,
    help="Where a session that names no venue was played (docs/log-format.md).",
)
@click.option(
    "--window-days",
    type=WINDOW_DAYS,
    default=None,
    help="Read windows' stored sessions only this many days back from the run's last day "
    "(default: all; 0: judge no windows). Each rule counts its own window (docs/metrics.md).",
)
@click.option(
    "--cumulative-years",
    type=click.IntRange(min=1, max=100),
    default=None,
    help="Count 累计 (cumulative) lines over this many years (default: the offence's "
    "limitation period, 刑法 art. 87).",
)
@click.option(
    "--priors",
    type=INPUT,
    help="CSV of earlier penalties (platform,player_id,date) for the repeat rule.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    default=1,
    show_default=True,
    help="Processes auditing byte ranges of the input in parallel.",
)
@click.option(
    "--dask",
    metavar="ADDRESS",
    help="Audit the partitions on a Dask cluster (scheduler address, or 'local').",
)
@click.option(
    "--max-line-bytes",
    type=click.IntRange(min=1),
    default=MAX_LINE_BYTES,
    show_default=True,
    help="A longer line is a reject, skipped without being held in memory.",
)
@click.option(
    "--accounts",
    type=INPUT,
    help="Check the platform's duties: its accounts (accounts/1 JSON Lines; "
    "docs/platform-duties.md).",
)
@click.option("--ledger", type=INPUT, help="The platform's ledger of events (ledger/1).")
@click.option(
    "--platform-config",
    "platform_config",
    type=INPUT,
    help="The platform's configuration: caps, draws, features, retention (platform-config/1).",
)
@click.option(
    "--duty-per-account",
    is_flag=True,
    help="Sum minors' monthly payments per account, not per person (research note §8 q6).",
)
@click.option(
    "--adjusted-days-closed",
    is_flag=True,
    help="Close minors' hours on 调休 working weekend days (company practice, not text).",
)
@db_option
def audit(
    files,
    jurisdiction,
    as_of,
    fmt,
    output,
    fail_on,
    max_reject_rate,
    include_waived,
    keep_lines,
    no_names,
    pseudonyms,
    strict,
    show_all,
    win_loss_scope,
    versions,
    venue,
    window_days,
    cumulative_years,
    priors,
    workers,
    dask,
    max_line_bytes,
    accounts,
    ledger,
    platform_config,
    duty_per_account,
    adjusted_days_closed,
    db_url,
):
    """Audit session logs (.jsonl or .jsonl.gz) and store the run.

    Every session is re-settled from its cards and bets, measured, and judged
    under the rules in force in each player's jurisdiction on its date. A FILE
    of - is standard input; pipes and FIFOs are read too, gzip or not.

    \b
    Example:
      compliance audit data/samples/douniu.jsonl --fail-on administrative

    \b
    From a pipe:
      zcat logs.jsonl.gz | compliance audit - --fail-on administrative
    """
    # the run's machinery loads here, not for --help or a usage error (0.5 s of imports)
    from compliance.priors import read_priors
    from compliance.reporting.stream import make_writer
    from compliance.service_layer import audit as services
    from compliance.service_layer.duties import DutyInputs

    duties = DutyInputs(accounts, ledger, platform_config, duty_per_account, adjusted_days_closed)
    read_once(files, [p for p in (priors, accounts, ledger, platform_config) if p])
    store = open_store(db_url)
    sink = CutOff(output)
    version = FORMAT
    writer = make_writer(fmt, cast(IO[str], sink), show_all, version)
    gate = FailOn(fail_on, max_reject_rate)

    def on_finding(finding) -> None:
        gate.see(finding)
        writer.write(masked(finding, pseudonyms) if pseudonyms else finding)

    def on_finding_under_bar(finding) -> None:
        progress.clear()  # the table and the bar share the terminal: no row lands on the bar
        on_finding(finding)
        sink.flush()  # the next update redraws the bar below the rows

    options = services.AuditOptions(
        jurisdiction=jurisdiction,
        as_of=as_of.date() if as_of else None,
        strict=strict,
        workers=workers,
        dask=dask,
        window_days=window_days,
        cumulative_years=cumulative_years,
        max_line_bytes=max_line_bytes,
        store_names=not no_names,
        keep_lines=keep_lines,
        duties=duties if duties.given else None,
        priors=read_priors(priors) if priors else {},
        classifier=ClassifierOptions(
            win_loss_scope=win_loss_scope, versions=parse_versions(versions), venue=venue
        ),
    )
    see_session = getattr(writer, "see_session", None)
    total = count_lines(files) if is_interactive() else None
    with bar("audit", total) as progress:

        def on_session(item) -> None:
            progress.update(item.count if isinstance(item, services.RejectsStored) else 1)
            if see_session is not None:
                see_session(item)

        try:
            shared = not progress.disable and is_interactive(cast(IO[str], sink))
            found = on_finding_under_bar if shared else on_finding
            summary = services.audit(store(), list(files), options, found, on_session, _note)
        except services.Interrupted as stop:
            raise Interrupted(stopped(stop)) from None
    writer.close()
    sink.flush()
    for reject in summary.reject_list[:MAX_REJECTS_SHOWN]:
        click.echo(f"reject: {printable(reject.describe())}", err=True)
    if summary.rejects > MAX_REJECTS_SHOWN:
        click.echo(
            f"reject: … and {summary.rejects - MAX_REJECTS_SHOWN} more, stored with the run",
            err=True,
        )
    where = store.where()
    cut = "; output cut: its reader closed it, the audit went on to the end" if sink.cut else ""
    waived = gate.without_waived(store, summary.run_id, include_waived) if summary.run_id else None
    click.echo(summary_line(summary, where) + (waived or "") + cut, err=True)
    if not summary.sessions and summary.rejects:
        raise click.ClickException(f"no session could be read: {plural(summary.rejects, 'reject')}")
    if not (summary.sessions or summary.repeated):
        click.echo("warning: the input has no lines; nothing was audited", err=True)
    records = summary.duties.records if summary.duties is not None else 0
    why = gate.see_rejects(summary.rejects, summary.sessions + records)
    if why:
        click.echo(why, err=True)
    if gate.tripped:
        sys.exit(ExitCode.FINDINGS)


def masked(finding, pseudonyms: Pseudonyms):
    """The finding as written with player ids and names pseudonymised."""
    row = pseudonyms.finding(finding.to_dict())
    return msgspec.json.decode(msgspec.json.encode(row), type=Finding)


def _note(text: str) -> None:
    click.echo(text, err=True)


class Interrupted(click.ClickException):
    exit_code = ExitCode.INTERRUPTED


def stopped(stop: services.Interrupted) -> str:
    """What an interrupted run kept, as it is: nothing, an empty run, or its batches."""
    summary = stop.summary
    if summary.run_id is None:
        return "interrupted before the run was stored: nothing of it is kept"
    run = f"run {summary.run_id}"
    marked = "marked unfinished (reports say so)"
    again = "audit the files again to complete it"
    if stop.parallel and not (summary.stored or summary.stored_rejects):
        return (
            f"interrupted before a worker reported a batch: {run} is kept, {marked}, with "
            f"what its workers had stored; {again}"
        )
    if not (summary.stored or summary.stored_rejects):
        return (
            f"interrupted before the first batch was stored: no session is stored; "
            f"{run} is kept, empty and {marked}; {again}"
        )
    least = "at least " if stop.parallel else ""
    return (
        f"interrupted: {least}{plural(summary.stored, 'session')} and "
        f"{plural(summary.stored_rejects, 'reject')} stored before the stop stay, in {run}, "
        f"{marked}; {again}"
    )
