"""`compliance demo`: the whole job on the embedded database, in one command."""

from __future__ import annotations

import shlex
import sys

import click

from compliance.cli.options import db_option, open_store
from compliance.cli.output import summary_line
from compliance.domain.tiers import Tier
from compliance.reporting.cells import pad
from compliance.service_layer.demo import (
    DEMO_RECORDS,
    DUTY_COUNTS,
    INDETERMINATE,
    DemoSummary,
    run_demo,
)

SHORT = {
    Tier.EXEMPT: "exempt",
    Tier.BELOW_THRESHOLD: "below",
    Tier.ADMINISTRATIVE: "admin",
    Tier.ADMINISTRATIVE_SERIOUS: "serious",
    Tier.ADMINISTRATIVE_VERY_SERIOUS: "v.serious",
    Tier.CRIMINAL: "criminal",
    Tier.CRIMINAL_SERIOUS: "crim.serious",
}
DISCLAIMER = "This tool informs; it is not legal advice. 本工具仅供参考，不构成法律意见。"


@click.command()
@click.option("--sessions", type=click.IntRange(min=1), default=300, show_default=True)
@click.option("--seed", type=int, default=2026, show_default=True)
@click.option(
    "--log",
    "log_path",
    default="demo-sessions.jsonl",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="Where the simulated log is written ('-': standard output, and this summary to "
    "standard error).",
)
@click.option(
    "--platform-records",
    "records_path",
    default=DEMO_RECORDS,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder for the simulated accounts, ledger and platform configuration.",
)
@db_option
def demo(sessions: int, seed: int, log_path: str, records_path: str, db_url: str | None) -> None:
    """Simulate a few hundred sessions, audit them, and summarise what was found.

    Creates and seeds the database (a SQLite file in this folder by default),
    writes a simulated log with a few tampered rounds and the platform's
    accounts, ledger and configuration with a few breaches of its own duties,
    audits them and prints findings by tier and province, and the duty
    findings by severity.

    \b
    Example:
      compliance demo
    """
    store = open_store(db_url)
    to_stdout = log_path == "-"
    shown = run_demo(
        store, sessions, seed, log_path, stdout=sys.stdout.buffer, records_path=records_path
    )
    click.echo("\n".join(summary_lines(shown, store.where(), db_url)), err=to_stdout)


def next_step(log_path: str, db_url: str | None) -> str:
    """The audit to run next, on the log and the database the demo used, as typed."""
    db = f" --db {shlex.quote(db_url)}" if db_url else ""
    return (
        f"Next: compliance audit {shlex.quote(log_path)}{db} "
        "--fail-on administrative_serious --format jsonl"
    )


def summary_lines(shown: DemoSummary, where: str, db_url: str | None = None) -> list[str]:
    """The demo's report: the findings table by province and tier, organisers, integrity."""
    made, tally = shown.log, shown.tally
    lines = [
        f"simulated {shown.spec.sessions} sessions of {len(shown.spec.games)} games "
        f"({made.rounds} rounds, {len(made.anomalies)} tampered) → "
        + ("standard output" if shown.log_path == "-" else shown.log_path),
        f"database: {where} ({shown.rule_rows} rule rows seeded)",
        "",
        "Findings by province and tier  按省份和档次的结论 (players)",
    ]
    tiers = list(Tier)
    lines.append(f"{'':<14}" + "".join(f"{SHORT[t]:>13}" for t in tiers) + f"{'indeterm.':>11}")
    for code in tally.places():
        label = f"{tally.names.get(code, '')} {code}".strip()
        cells = "".join(f"{tally.by_place[(code, t.code)]:>13}" for t in tiers)
        lines.append(f"{pad(label, 14)}{cells}{tally.by_place[(code, INDETERMINATE)]:>11}")
    lines.append("")
    for kind, label in (("owner", "Room owners  房主"), ("platform", "Platforms  平台")):
        counts = ", ".join(
            f"{t.code} {tally.organisers[(kind, t.code)]}"
            for t in tiers
            if tally.organisers[(kind, t.code)]
        )
        span = f"{shown.window_days} days" if shown.window_days else "their rules' windows"
        lines.append(f"{label} over {span}: {counts or 'none'}")
    checks = ", ".join(f"{k} {v}" for k, v in sorted(tally.integrity.items())) or "none"
    lines += [
        f"Integrity  完整性问题: {checks}; "
        f"{shown.caught} of {len(made.anomalies)} tampered rounds caught",
        "Platform duties  平台义务: "
        + ", ".join(f"{k} {tally.duties[k]}" for k in DUTY_COUNTS)
        + f"; {shown.duties_caught} of {len(shown.platform.injected)} injected breaches found "
        f"(records: {shown.records_path})",
        f"Rejected lines  拒收: {shown.audit.rejects}",
        summary_line(shown.audit, where),
        next_step(shown.log_path, db_url),
        f"Report  报告: {shown.report_path} "
        "(open it in a browser; compliance report --help for more)",
        DISCLAIMER,
    ]
    return lines
