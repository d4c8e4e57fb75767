"""`compliance whatif`: back-test a change to the rules on the stored sessions."""

from __future__ import annotations

from pathlib import Path

import click

from compliance.cli.options import WINDOW_DAYS, db_option, open_store
from compliance.cli.output import table, to_json
from compliance.cli.progress import bar, set_total
from compliance.domain.classifier import ClassifierOptions
from compliance.service_layer import backtest as svc


@click.command()
@click.option(
    "--rules",
    "paths",
    multiple=True,
    type=click.Path(exists=True, allow_dash=True, path_type=Path),
    help="Rule file or folder laid over the stored rules (repeatable).",
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="BAND.METRIC.BOUND=VALUE",
    help="Move one bound (min, max, above, below; `none` removes it) (repeatable).",
)
@click.option(
    "--as-of",
    type=click.DateTime(["%Y-%m-%d"]),
    help="Judge every session under the rules in force on this date.",
)
@click.option(
    "--win-loss-scope",
    type=click.Choice(["player", "table"]),
    default="player",
    show_default=True,
    help="全场输赢 per player, or the table's total.",
)
@click.option(
    "--window-days",
    type=WINDOW_DAYS,
    default=None,
    help="Read windows' stored sessions only this many days back (default: all; 0: none).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)
@db_option
def whatif(paths, settings, as_of, win_loss_scope, window_days, fmt, db_url) -> None:
    """Re-classify the stored sessions under changed rules and list every tier that changes.

    Both sides are judged now, from the stored metrics, under the stored rules
    and under the changed ones, and so are the windows (room owners, platforms,
    players) ending on each subject's last stored day; the stored results are not touched.

    \b
    Example:
      compliance whatif --set hn-2015-general-stake.single_stake.max=100 \\
        --set hn-2015-general-serious.single_stake.min=100
    """
    if not paths and not settings:
        raise click.UsageError("give --rules FILE or --set BAND.METRIC.BOUND=VALUE")
    with bar("whatif") as progress:
        result = svc.whatif(
            open_store(db_url)(),
            svc.edit_with(list(paths), list(settings)),
            ClassifierOptions(win_loss_scope=win_loss_scope),
            as_of.date() if as_of else None,
            window_days,
            lambda n: set_total(progress, n),
            progress.update,
        )
    counts = sorted(result.counts().items(), key=lambda kv: (kv[0][0] or "", kv[0][1], kv[0][2]))
    summary = (
        f"{len(result.changes)} of {result.players} players in "
        f"{result.sessions_changed} of {result.sessions} sessions change tier; "
        f"{len(result.window_changes)} of {result.windows} judged over a window "
        "(stored results untouched)"
    )
    if fmt == "json":
        click.echo(
            to_json(
                {
                    "sessions": result.sessions,
                    "players": result.players,
                    "changes": [
                        {
                            "platform": c.platform,
                            "session_id": c.session_id,
                            "date": c.day.isoformat(),
                            "player": c.player,
                            "jurisdiction": c.jurisdiction,
                            "before": c.before,
                            "after": c.after,
                        }
                        for c in result.changes
                    ],
                    "counts": [
                        {"jurisdiction": j, "before": b, "after": a, "players": n}
                        for (j, b, a), n in counts
                    ],
                    "windows": result.windows,
                    "window_changes": [
                        {
                            "platform": w.platform,
                            "subject": w.subject,
                            "jurisdiction": w.jurisdiction,
                            "window_start": w.start.isoformat(),
                            "window_end": w.end.isoformat(),
                            "before": w.before,
                            "after": w.after,
                        }
                        for w in result.window_changes
                    ],
                },
            )
        )
        return
    if result.changes:
        rows = [["session", "player", "jurisdiction", "date", "before", "after"]]
        rows += [
            [
                f"{c.platform}/{c.session_id}",
                c.player,
                c.jurisdiction or "—",
                c.day.isoformat(),
                c.before,
                c.after,
            ]
            for c in result.changes
        ]
        click.echo(table(rows))
        click.echo("")
        rows = [["jurisdiction", "before", "after", "players"]]
        rows += [[j or "—", b, a, str(n)] for (j, b, a), n in counts]
        click.echo(table(rows))
        click.echo("")
    if result.window_changes:
        rows = [["subject", "jurisdiction", "window", "before", "after"]]
        rows += [
            [
                f"{w.platform}/{w.subject}",
                w.jurisdiction or "—",
                f"{w.start.isoformat()}–{w.end.isoformat()}",
                w.before,
                w.after,
            ]
            for w in result.window_changes
        ]
        click.echo(table(rows))
        click.echo("")
    click.echo(summary)
