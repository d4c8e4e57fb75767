"""`compliance demo`: the whole job on the embedded database, in one command."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from compliance.cli.options import db_option, open_store
from compliance.cli.output import summary_line
from compliance.domain.tiers import Tier
from compliance.games import game_codes
from compliance.reporting.model import ReportQuery
from compliance.service_layer import audit as services
from compliance.service_layer import reports as report_service
from compliance.service_layer import seeding
from compliance.service_layer.simulate import SimulationSpec, write_log

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
    help="Where the simulated log is written.",
)
@db_option
def demo(sessions: int, seed: int, log_path: str, db_url: str | None) -> None:
    """Simulate a few hundred sessions, audit them, and summarise what was found.

    Creates and seeds the database (a SQLite file in this folder by default),
    writes a simulated log with a few tampered rounds, audits it and prints
    findings by tier and province.

    Example: compliance demo
    """
    store = open_store(db_url)
    counts = seeding.seed(store())
    rows = sum(a + u for a, u in counts.values())
    spec = SimulationSpec(games=tuple(game_codes()), sessions=sessions, seed=seed, anomalies=0.01)
    made = write_log(spec, log_path)
    click.echo(
        f"simulated {sessions} sessions of {len(spec.games)} games ({made.rounds} rounds, "
        f"{len(made.anomalies)} tampered) → {log_path}"
    )
    by_place: Counter = Counter()
    names: dict[str, str] = {}
    integrity: Counter = Counter()
    found: set[tuple[str, int, str]] = set()
    organisers: Counter = Counter()

    def on_finding(f) -> None:
        where = f.jurisdiction or "-"
        if f.session_id is None:
            organisers[(f.subject.split(":")[0], f.tier)] += 1
        elif f.kind == "threshold":
            by_place[(where, f.tier)] += 1
            names[where] = f.jurisdiction_name
        elif f.kind == "indeterminate":
            by_place[(where, "indeterminate")] += 1
        else:
            integrity[f.check] += 1
            found.add((f.session_id, f.round, f.check))

    summary = services.audit(store(), [log_path], services.AuditOptions(), on_finding)
    where = store.where()
    click.echo(f"database: {where} ({rows} rule rows seeded)")
    click.echo("")
    click.echo("Findings by province and tier  按省份和档次的结论 (players)")
    tiers = list(Tier)
    click.echo(f"{'':<14}" + "".join(f"{SHORT[t]:>13}" for t in tiers) + f"{'indeterm.':>11}")
    for code in sorted({c for c, _ in by_place}):
        label = f"{names.get(code, '')} {code}".strip()
        cells = "".join(f"{by_place[(code, t.code)]:>13}" for t in tiers)
        click.echo(f"{label:<14}{cells}{by_place[(code, 'indeterminate')]:>11}")
    click.echo("")
    for kind, label in (("owner", "Room owners  房主"), ("platform", "Platforms  平台")):
        counts = ", ".join(
            f"{t.code} {organisers[(kind, t.code)]}" for t in tiers if organisers[(kind, t.code)]
        )
        click.echo(f"{label} over {services.AuditOptions().window_days} days: {counts or 'none'}")
    caught = sum(1 for a in made.anomalies if a in found)
    checks = ", ".join(f"{k} {v}" for k, v in sorted(integrity.items())) or "none"
    click.echo(
        f"Integrity  完整性问题: {checks}; {caught} of {len(made.anomalies)} tampered rounds caught"
    )
    click.echo(f"Rejected lines  拒收: {summary.rejects}")
    click.echo(summary_line(summary, where))
    click.echo(
        f"Next: compliance audit {Path(log_path).name} --fail-on administrative_serious --format jsonl"
    )
    report = report_service.make_report(store(), ReportQuery(), summary.run_id)
    page = report_service.write_report(report, "html", "report.html").resolve()
    click.echo(f"Report  报告: {page} (open it in a browser; compliance report --help for more)")
    click.echo(DISCLAIMER)
