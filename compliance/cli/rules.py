"""`compliance rules`: list, show, check, diff, import, export and verify the threshold data."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import click

from compliance.cli.exit_codes import ExitCode
from compliance.cli.options import MAX_ROW_ID, db_option, lazy_store
from compliance.cli.output import emit, plural, table
from compliance.domain.rulediff import summarise, words
from compliance.resources import data_dir
from compliance.service_layer import duty_views
from compliance.service_layer import rules as svc
from compliance.service_layer import rules_views as views

FORMAT = click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
AS_OF = click.option(
    "--as-of",
    type=click.DateTime(["%Y-%m-%d"]),
    help="The rules in force on this date (default: today).",
)
SOURCE = click.option(
    "--source",
    default=svc.DB,
    show_default=True,
    metavar="db|PATH",
    help="Read the rules from the database, a data/ folder or a file.",
)


def book_source(source: str, db_url: str | None) -> tuple[str, str]:
    """The database, unless it is a SQLite file not made yet: then the shipped data/, which
    the first audit would seed into it (and no empty file is left behind); and what to say
    of it on standard error once the command has done its work ("" where nothing)."""
    from compliance.service_layer import bootstrap  # the database's modules: not for --help

    if source != svc.DB or bootstrap.has_database(db_url):
        return source, ""
    return str(data_dir()), (
        f"no database at {bootstrap.database_url(db_url)} yet: read the shipped rules "
        f"in {data_dir()}, which the first audit seeds"
    )


def _note(text: str) -> None:
    if text:
        click.echo(text, err=True)


@click.group()
def rules() -> None:
    """List, check, compare, import and export the threshold data."""


@rules.command("list")
@click.option("--jurisdiction", help="Only this jurisdiction (code, name or alias).")
@AS_OF
@FORMAT
@SOURCE
@db_option
def list_(jurisdiction, as_of, fmt, source, db_url) -> None:
    """List instruments: dates, confidence, number of bands.

    With --as-of, only those in force on that date.

    \b
    Example:
      compliance rules list --jurisdiction hunan --as-of 2026-03-01
    """
    source, note = book_source(source, db_url)
    book = views.read_book(source, lazy_store(db_url))
    chosen = views.list_instruments(book, jurisdiction, as_of.date() if as_of else None)
    rows = [["instrument", "jurisdiction", "kind", "from", "to", "conf", "bands", "title"]]
    rows += [
        [
            i.id,
            i.jurisdiction,
            i.kind,
            i.effective_from,
            i.effective_to or "—",
            i.confidence + ("!" if i.disputed else ""),
            str(i.bands),
            i.title,
        ]
        for i in chosen
    ]
    emit([i.as_dict() for i in chosen], fmt, table(rows))
    _note(note)


@rules.command()
@click.argument("jurisdiction")
@AS_OF
@FORMAT
@SOURCE
@db_option
def show(jurisdiction, as_of, fmt, source, db_url) -> None:
    """Show the rules in force for a jurisdiction on a date.

    Bands by tier with their conditions in words, sources and confidence, then
    the statutory penalties, exemptions and aggravations (从重) in force. A city without bands of its own is judged by its province's (and the
    nation's), as an audit would; each band names the instrument it comes from.

    \b
    JURISDICTION `platform` shows the platform's own duties in force instead
    (docs/platform-duties.md).

    \b
    Example:
      compliance rules show 湖南 --as-of 2026-03-01

    \b
    The platform's duties:
      compliance rules show platform --as-of 2022-01-07
    """
    source, note = book_source(source, db_url)
    if jurisdiction in duty_views.PLATFORM:
        duties = duty_views.read_duties(source, lazy_store(db_url))
        shown = duty_views.show_duties(duties, as_of.date() if as_of else None)
        emit(shown, fmt, duty_views.duties_text(shown))
        _note(note)
        return
    book = views.read_book(source, lazy_store(db_url))
    rules_in_force = views.show_jurisdiction(book, jurisdiction, as_of.date() if as_of else None)
    emit(rules_in_force.as_dict(), fmt, _rules_in_force_text(rules_in_force))
    _note(note)


def _rules_in_force_text(shown: views.RulesInForce) -> str:
    lines = [
        f"{shown.name} {shown.jurisdiction} on {shown.as_of.isoformat()} "
        f"(judged by {' < '.join(shown.chain)})"
    ]
    for band in shown.bands:
        scope = ", ".join(
            filter(
                None,
                [
                    ", ".join(band.game_classes),
                    f"role {band.role}" if band.role else "",
                    f"venue {', '.join(band.venues)}" if band.venues else "",
                ],
            )
        )
        lines += [
            f"  {band.tier_label}  [{band.subject}{'; ' + scope if scope else ''}]  {band.id}",
            f"    when {band.condition}",
            f"    {band.instrument} {band.article} · confidence {band.confidence} · {band.source}",
        ]
    if not shown.bands:
        lines.append("  no threshold band in force")
    for p in shown.penalties:
        lines.append(f"  penalty {', '.join(p.tiers)}: {p.text} ({p.id})")
    for e in shown.exemptions:
        lines.append(f"  exemption {e.kind}: {e.text} ({e.id})")
    for a in shown.aggravations:
        span = (
            f"; {a.effective_from or '…'} to {a.effective_to or '…'}"
            if (a.effective_from or a.effective_to)
            else ""
        )
        lines.append(f"  aggravation {a.kind}: {a.text} ({a.id}, {a.article}{span})")
    return "\n".join(lines)


@rules.command("check")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, allow_dash=True, path_type=Path))
@FORMAT
@SOURCE
@db_option
def check_(paths, fmt, source, db_url) -> None:
    """Find gaps, overlaps and other faults in the rules.

    Gaps and overlaps between bands, tiers that fall as amounts rise, rows
    without a source, rival versions both marked default, unknown metrics and
    game classes.

    Checks the database, or a data/ folder given as PATH; rule files given as
    PATH are laid over it (or over --source) as an import would. The platform's
    duty rows (data/duties.toml, or a duties.toml given) are checked too: known
    checks and severities, dates in order, the figures each rule needs. Exits 3
    when it finds a problem.

    \b
    Example:
      compliance rules check data/
    """
    note = ""
    if not any(views.is_data_folder(p) for p in paths):
        source, note = book_source(source, db_url)
    rule_paths = [p for p in paths if not duty_views.is_duties_file(p)]
    checked = views.check_rules(rule_paths, source, lazy_store(db_url))
    duties = duty_views.check_duties(duty_views.read_duties(source, lazy_store(db_url), paths))
    problems = checked.problems
    summary = (
        f"checked {checked.bands} bands of {checked.instruments} instruments: "
        f"{len(problems) or 'no'} problem{'s' if len(problems) != 1 else ''}"
    )
    emit(
        {
            "problems": [p.as_dict() for p in problems],
            "bands": checked.bands,
            "duties": {"rows": duties.rows, "problems": duties.problems},
        },
        fmt,
        "\n".join(
            [*(f"duty: {p}" for p in duties.problems), duties.summary()]
            + [*(p.describe() for p in problems), summary]
        ),
    )
    _note(note)
    if problems or duties.problems:
        sys.exit(ExitCode.FINDINGS)


@rules.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--jurisdiction", help="Only rows of this jurisdiction.")
@FORMAT
@SOURCE
@db_option
def diff_(old, new, jurisdiction, fmt, source, db_url) -> None:
    """Show what changed, row by row, between two dates or two versions.

    Two dates compare the rows in force on each (in --source); two versions
    are db, a data/ folder, or a file, which is laid over the other side.

    \b
    Example:
      compliance rules diff 2025-12-31 2026-01-01
    """
    first, second = _as_date(old), _as_date(new)
    uows = lazy_store(db_url)
    if first and second:
        changes = views.diff_days(views.read_book(source, uows), first, second, jurisdiction)
    elif first or second:
        raise click.UsageError("compare two dates, or two versions (db, a data/ folder, a file)")
    else:
        for name, side in (("OLD", old), ("NEW", new)):
            if side != svc.DB and not Path(side).exists():
                raise click.BadParameter(f"{side}: no such file or folder", param_hint=name)
        changes = views.diff_versions(uows, old, new, source, jurisdiction)
    text = "\n".join([*(line for c in changes for line in c.lines()), summarise(changes)])
    emit([c.as_dict() for c in changes], fmt, text)


def _as_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


@rules.command("import")
@click.argument(
    "files",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, allow_dash=True, path_type=Path),
)
@click.option("--reason", required=True, help="Why: recorded in the change trail.")
@click.option("--actor", help="Who: recorded in the change trail (default: $USER).")
@click.option(
    "--delete-absent",
    is_flag=True,
    help="Delete the stored duty rows that the duties.toml files do not name (each "
    "deletion in the change trail); rule rows are never deleted.",
)
@click.option(
    "--dry-run", is_flag=True, help="Check the files and list the changes; store nothing."
)
@db_option
def import_(files, reason, actor, delete_absent, dry_run, db_url) -> None:
    """Validate rule files and store their rows, in the change trail.

    Rows replace the stored rows with the same id; rows the files do not name
    stay. Nothing is stored if a row is malformed, lacks its source, or brings
    a fault that `rules check` finds. A duties.toml (the platform's duty rows,
    as `rules export` writes it) is checked and stored the same way; with
    --delete-absent it is the whole of the duty rows, and the stored rows it
    does not name are deleted (each listed as `- duties ID`). --dry-run lists
    the changes an import would make and stores none.

    \b
    Example:
      compliance rules import hunan-2027.toml --reason "湖南 2027 基准 published"

    \b
    An edited duty row:
      compliance rules import /tmp/rules/duties.toml --reason "guest hour reread"
    """
    store = lazy_store(db_url)()
    result = svc.import_files(store, list(files), reason, actor, delete_absent, dry_run)
    for change in result.changes:
        click.echo("\n".join(change.lines()))
    done = "would import" if dry_run else "imported"
    stored = " (a dry run: nothing stored)" if dry_run else ""
    click.echo(f"{done} {plural(len(files), 'file')}: {summarise(result.changes)}{stored}")


@rules.command("export")
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("exported-rules"),
    show_default=True,
    help="Folder to write.",
)
@db_option
def export_(out, db_url) -> None:
    """Write the stored rules as TOML files in the layout of data/.

    games.toml, jurisdictions/*.toml, and duties.toml with the platform's duty rows.

    \b
    Example:
      compliance rules export -o /tmp/rules && compliance rules check /tmp/rules
    """
    written = svc.export(lazy_store(db_url)(), out)
    click.echo(f"wrote {len(written)} files to {out}")


@rules.command()
@db_option
def verify(db_url) -> None:
    """Check the change trail, and the rule, waiver and review tables against it.

    Recomputes the hash chain and compares every rule, waiver and review row
    with the state the trail gives (`trail verify` is the same command).

    Exits 3 naming each row changed, added or deleted behind the tool's back.

    \b
    Example:
      compliance trail verify --db postgresql://127.0.0.1/compliance
    """
    verdict = svc.verify(lazy_store(db_url)())
    for problem in verdict.problems:
        click.echo(problem)
    state = "intact" if verdict.ok else plural(len(verdict.problems), "problem")
    trail = f"{verdict.entries} {'entry' if verdict.entries == 1 else 'entries'}"
    click.echo(f"trail of {trail} over {plural(verdict.rows, 'row')}: {state}")
    if not verdict.ok:
        sys.exit(ExitCode.FINDINGS)


@rules.command()
@click.option(
    "--limit",
    type=click.IntRange(min=1, max=MAX_ROW_ID, clamp=True),
    default=20,
    show_default=True,
    help="At most this many entries (a larger number: all of them).",
)
@db_option
def history(limit, db_url) -> None:
    """Show the newest entries of the change trail.

    When, who, why, which row.

    \b
    Example:
      compliance rules history --limit 5
    """
    rows = [["id", "at", "actor", "action", "table", "row", "reason"]]
    rows += [
        [
            str(e["id"]),
            words(e["at"])[:19],
            e["actor"],
            e["action"],
            e["table_name"],
            e["row_key"],
            e["reason"],
        ]
        for e in svc.history(lazy_store(db_url)(), limit)
    ]
    click.echo(table(rows))
