"""`compliance rules`: list, show, check, diff, import, export and verify the threshold data."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import click

from compliance.cli.options import db_option, open_store
from compliance.domain.rulediff import condition_words, summarise, words
from compliance.domain.rules import SUBJECTS
from compliance.domain.ruleset import Resolver
from compliance.service_layer import rules as svc
from compliance.service_layer.unit_of_work import UnitOfWork

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


def uow_for(db_url: str | None) -> UnitOfWork:
    return open_store(db_url)()


def read_book(source: str, db_url: str | None):
    if source == svc.DB:
        return svc.stored_rules(uow_for(db_url))
    return svc.read_source(Path(source))


def table(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell (by characters), the last one free."""
    if not rows:
        return ""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[-1]]).rstrip()
        for r in rows
    )


def emit(payload, fmt: str, text: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2, default=str))
    elif text:
        click.echo(text)


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

    Example: compliance rules list --jurisdiction hunan --as-of 2026-03-01
    """
    book = read_book(source, db_url)
    code = Resolver(book).lookup(jurisdiction).code if jurisdiction else None
    day = as_of.date() if as_of else None
    counts: dict[str, int] = {}
    for band in book.bands:
        counts[band.instrument] = counts.get(band.instrument, 0) + 1
    chosen = [
        i
        for i in sorted(
            book.instruments.values(), key=lambda i: (i.jurisdiction, i.effective_from, i.id)
        )
        if (code is None or i.jurisdiction == code) and (day is None or i.in_force(day))
    ]
    rows = [["instrument", "jurisdiction", "kind", "from", "to", "conf", "bands", "title"]]
    rows += [
        [
            i.id,
            i.jurisdiction,
            i.kind,
            words(i.effective_from),
            words(i.effective_to) or "—",
            i.confidence + ("!" if i.disputed else ""),
            str(counts.get(i.id, 0)),
            i.title,
        ]
        for i in chosen
    ]
    payload = [
        {
            "id": i.id,
            "jurisdiction": i.jurisdiction,
            "kind": i.kind,
            "title": i.title,
            "effective_from": words(i.effective_from),
            "effective_to": words(i.effective_to) or None,
            "confidence": i.confidence,
            "disputed": i.disputed,
            "source": i.source,
            "bands": counts.get(i.id, 0),
        }
        for i in chosen
    ]
    emit(payload, fmt, table(rows))


@rules.command()
@click.argument("jurisdiction")
@AS_OF
@FORMAT
@SOURCE
@db_option
def show(jurisdiction, as_of, fmt, source, db_url) -> None:
    """Show the rules in force for a jurisdiction on a date.

    Bands by tier with their conditions in words, sources and confidence, then
    the statutory penalties and exemptions in force. A city without bands of its own is judged by its province's (and the
    nation's), as an audit would; each band names the instrument it comes from.

    Example: compliance rules show 湖南 --as-of 2026-03-01
    """
    book = read_book(source, db_url)
    resolver = Resolver(book)
    where = resolver.lookup(jurisdiction)
    day = as_of.date() if as_of else date.today()
    rs = resolver.ruleset(where.code, day)
    order = sorted(rs.bands, key=lambda s: SUBJECTS.index(s) if s in SUBJECTS else len(SUBJECTS))
    bands = [b for subject in order for b in rs.bands[subject]]
    payload = {
        "jurisdiction": where.code,
        "name": where.name_zh,
        "as_of": day.isoformat(),
        "chain": [j.code for j in rs.chain],
        "bands": [
            {
                "id": b.id,
                "subject": b.subject,
                "tier": b.tier.code,
                "tier_label": b.tier.label,
                "condition": condition_words(b.condition),
                "game_classes": sorted(b.game_classes),
                "role": b.role,
                "article": b.article,
                "penalty": b.penalty,
                "instrument": b.instrument,
                "source": rs.instruments[b.instrument].source,
                "confidence": min(
                    b.confidence, rs.instruments[b.instrument].confidence, key="LMH".index
                ),
            }
            for b in bands
        ],
        "penalties": [
            {
                "id": p.id,
                "tiers": [t.code for t in p.tiers],
                "text": p.text,
                "instrument": p.instrument,
            }
            for p in rs.penalties
        ],
        "exemptions": [{"id": e.id, "kind": e.kind, "text": e.text} for e in rs.exemptions],
    }
    lines = [
        f"{where.name_zh} {where.code} on {day.isoformat()} "
        f"(judged by {' < '.join(j.code for j in rs.chain)})"
    ]
    for band, row in zip(bands, payload["bands"], strict=True):
        scope = ", ".join(
            filter(
                None,
                [", ".join(sorted(band.game_classes)), f"role {band.role}" if band.role else ""],
            )
        )
        lines += [
            f"  {band.tier.label}  [{band.subject}{'; ' + scope if scope else ''}]  {band.id}",
            f"    when {row['condition']}",
            f"    {row['instrument']} {band.article} · confidence {row['confidence']} · "
            f"{row['source']}",
        ]
    if not bands:
        lines.append("  no threshold band in force")
    for p in rs.penalties:
        lines.append(f"  penalty {', '.join(t.code for t in p.tiers)}: {p.text} ({p.id})")
    for e in rs.exemptions:
        lines.append(f"  exemption {e.kind}: {e.text} ({e.id})")
    emit(payload, fmt, "\n".join(lines))


@rules.command("check")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@FORMAT
@SOURCE
@db_option
def check_(paths, fmt, source, db_url) -> None:
    """Find gaps, overlaps and other faults in the rules.

    Gaps and overlaps between bands, tiers that fall as amounts rise, rows
    without a source, rival versions both marked default, unknown metrics and
    game classes.

    Checks the database, or a data/ folder given as PATH; rule files given as
    PATH are laid over it (or over --source) as an import would. Exits 3 when
    it finds a problem.

    Example: compliance rules check data/
    """
    full = [p for p in paths if p.is_dir() and (p / "jurisdictions").is_dir()]
    base = svc.read_source(full[0]) if full else read_book(source, db_url)
    rest = [p for p in paths if p not in full[:1]]
    book = svc.with_patch(base, rest) if rest else base
    problems = svc.check(book)
    summary = (
        f"checked {len(book.bands)} bands of {len(book.instruments)} instruments: "
        f"{len(problems) or 'no'} problem{'s' if len(problems) != 1 else ''}"
    )
    emit(
        {"problems": [p.as_dict() for p in problems], "bands": len(book.bands)},
        fmt,
        "\n".join([*(p.describe() for p in problems), summary]),
    )
    if problems:
        sys.exit(3)


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

    Example: compliance rules diff 2025-12-31 2026-01-01
    """
    dates = [_as_date(old), _as_date(new)]
    if any(dates) and not all(dates):
        raise click.UsageError("compare two dates, or two versions (db, a data/ folder, a file)")
    if all(dates):
        book = read_book(source, db_url)
        code = Resolver(book).lookup(jurisdiction).code if jurisdiction else None
        changes = svc.diff_days(book, dates[0], dates[1], code)
    else:
        code = jurisdiction
        if jurisdiction:
            code = (
                Resolver(read_book(svc.DB if svc.DB in (old, new) else source, db_url))
                .lookup(jurisdiction)
                .code
            )
        changes = svc.diff_sources(uow_for(db_url), old, new, code)
    text = "\n".join([*(line for c in changes for line in c.lines()), summarise(changes)])
    emit([c.as_dict() for c in changes], fmt, text)


def _as_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


@rules.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--reason", required=True, help="Why: recorded in the change trail.")
@click.option("--actor", help="Who: recorded in the change trail (default: $USER).")
@db_option
def import_(files, reason, actor, db_url) -> None:
    """Validate rule files and store their rows, in the change trail.

    Rows replace the stored rows with the same id; rows the files do not name
    stay. Nothing is stored if a row is malformed, lacks its source, or brings
    a fault that `rules check` finds.

    Example: compliance rules import hunan-2027.toml --reason "湖南 2027 基准 published"
    """
    result = svc.import_files(uow_for(db_url), list(files), reason, actor)
    for change in result.changes:
        click.echo("\n".join(change.lines()))
    click.echo(
        f"imported {len(files)} file{'s' if len(files) != 1 else ''}: {summarise(result.changes)}"
    )


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

    Example: compliance rules export -o /tmp/rules && compliance rules check /tmp/rules
    """
    written = svc.export(uow_for(db_url), out)
    click.echo(f"wrote {len(written)} files to {out}")


@rules.command()
@db_option
def verify(db_url) -> None:
    """Check the change trail, and the rule tables against it.

    Recomputes the hash chain and compares every rule row with the state the
    trail gives.

    Exits 3 naming each row changed, added or deleted behind the tool's back.

    Example: compliance rules verify --db postgresql://127.0.0.1/compliance
    """
    verdict = svc.verify(uow_for(db_url))
    for problem in verdict.problems:
        click.echo(problem)
    state = "intact" if verdict.ok else f"{len(verdict.problems)} problems"
    click.echo(f"trail of {verdict.entries} entries over {verdict.rows} rows: {state}")
    if not verdict.ok:
        sys.exit(3)


@rules.command()
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True)
@db_option
def history(limit, db_url) -> None:
    """Show the newest entries of the change trail.

    When, who, why, which row.

    Example: compliance rules history --limit 5
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
        for e in svc.history(uow_for(db_url), limit)
    ]
    click.echo(table(rows))
