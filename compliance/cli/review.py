"""`compliance waive`, `waivers`, `review` and `trail`: the compliance team's own records."""

from __future__ import annotations

from datetime import UTC, date, datetime

import click

from compliance.cli import rules as rules_cli
from compliance.cli.options import db_option, lazy_store
from compliance.cli.output import emit, table
from compliance.domain.review import STATUS_LABELS, STATUSES, Review, Scope, Waiver
from compliance.domain.trail import default_actor
from compliance.reporting.cells import printable
from compliance.service_layer import review as svc
from compliance.service_layer import rules as rule_cases
from compliance.service_layer import rules_views as views

BEGINNING = date(1, 1, 1)
DAY = click.DateTime(["%Y-%m-%d"])
ACTOR = click.option("--actor", default=None, help="Who (default: $USER).")
FORMAT = click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)


@click.command()
@click.option("--platform", help="Findings of this platform.")
@click.option("--room", help="Findings of sessions in this room.")
@click.option("--owner", help="Findings on this room owner, or of sessions in his rooms.")
@click.option("--player", help="Findings on this player.")
@click.option("--band", help="Findings of this band (a rule id, or e.g. integrity/payout).")
@click.option("--jurisdiction", help="Findings in this jurisdiction (code, name or alias).")
@click.option("--reason", required=True, help="Why (kept in the trail).")
@click.option("--from", "starts", type=DAY, help="First day of findings covered (default: any).")
@click.option("--until", type=DAY, required=True, help="Last day of findings covered.")
@ACTOR
@db_option
def waive(platform, room, owner, player, band, jurisdiction, reason, starts, until, actor, db_url):
    """Waive the findings of a scope, dated from --from to --until (both included).

    A finding is covered when its own date (its session's day, a window's last
    day) is in that span and it matches every part of the scope given. It is
    still computed and stored, marked with the waiver; reports show it apart;
    --fail-on lets it by unless --include-waived. An expired or revoked waiver
    covers nothing.

    \b
    Example:
      compliance waive --platform p1 --room r7 --reason "friends' table, checked" \\
        --until 2026-12-31
    """
    uows = lazy_store(db_url)
    code = views.jurisdiction_code(views.read_book(rule_cases.DB, uows), jurisdiction)
    scope = Scope(platform, room, owner, player, band, code)
    first = starts.date() if starts else BEGINNING
    made = svc.waive(uows(), scope, reason, actor or default_actor(), first, until.date())
    click.echo(f"waiver {made.id}: {made.scope.describe()}, {_span(made)}")


@click.group()
def waivers() -> None:
    """List, show and revoke waivers."""


@waivers.command("list")
@click.option("--all", "show_all", is_flag=True, help="Revoked and expired waivers too.")
@FORMAT
@db_option
def list_(show_all, fmt, db_url) -> None:
    """The waivers in force or to come (with --all: every one).

    \b
    Example:
      compliance waivers list --all
    """
    today = datetime.now(UTC).date()
    items = [
        w
        for w in svc.waivers(lazy_store(db_url)())
        if show_all or w.state(today) in ("active", "future")
    ]
    rows = [["id", "state", "scope", "covers", "actor", "reason"]]
    rows += [
        [str(w.id), w.state(today), w.scope.describe(), _span(w), w.actor, w.reason] for w in items
    ]
    text = table([[printable(c) for c in r] for r in rows]) if items else "no waivers"
    emit([_waiver_json(w, today) for w in items], fmt, text)


@waivers.command()
@click.argument("waiver_id", type=int)
@FORMAT
@db_option
def show(waiver_id, fmt, db_url) -> None:
    """One waiver, whole.

    \b
    Example:
      compliance waivers show 3
    """
    today = datetime.now(UTC).date()
    w = svc.waiver(lazy_store(db_url)(), waiver_id)
    emit(_waiver_json(w, today), fmt, _waiver_text(w, today))


@waivers.command()
@click.argument("waiver_id", type=int)
@click.option("--reason", required=True, help="Why (kept in the trail).")
@ACTOR
@db_option
def revoke(waiver_id, reason, actor, db_url) -> None:
    """Revoke a waiver: it covers nothing from now on, in runs and in reports.

    \b
    Example:
      compliance waivers revoke 3 --reason "the room changed hands"
    """
    w = svc.revoke(lazy_store(db_url)(), waiver_id, actor or default_actor(), reason)
    click.echo(f"waiver {w.id} revoked by {w.revoked_by}: {w.revoke_reason}")


@click.group()
def review() -> None:
    """Give findings a review status, and list and show them."""


@review.command("set")
@click.argument("fingerprint")
@click.argument("status", type=click.Choice(STATUSES))
@click.option("--note", default="", help="Why (needed to dismiss or escalate).")
@click.option("--run", "run_id", type=int, help="The run the finding is in (default: latest).")
@ACTOR
@db_option
def set_(fingerprint, status, note, run_id, actor, db_url) -> None:
    """Set a finding identity's status: open, confirmed, dismissed, escalated.

    FINGERPRINT is the finding's `fingerprint` (report --format csv|json, SARIF),
    or its first characters. The status holds for the same identity in later
    runs while its tier is no higher; a higher tier reopens it.

    \b
    Example:
      compliance review set 3f9a2c dismissed --note "a cousins' table, verified"
    """
    uows = lazy_store(db_url)
    found = svc.find(uows(), fingerprint, run_id)
    r = svc.set_status(uows(), found, status, note, actor or default_actor())
    click.echo(f"{r.fingerprint}: {STATUS_LABELS[r.status]} ({_finding_words(found.finding)})")


@review.command("list")
@click.option("--status", type=click.Choice(STATUSES), help="Only this status.")
@FORMAT
@db_option
def review_list(status, fmt, db_url) -> None:
    """Reviewed finding identities, newest first.

    \b
    Example:
      compliance review list --status escalated
    """
    items = svc.reviews(lazy_store(db_url)(), status)
    rows = [["fingerprint", "status", "tier", "subject", "at", "actor", "note"]]
    rows += [
        [
            r.fingerprint,
            r.status,
            r.tier or "-",
            r.subject,
            f"{r.at:%Y-%m-%d %H:%M}",
            r.actor,
            r.note,
        ]
        for r in items
    ]
    text = table([[printable(c) for c in r] for r in rows]) if items else "no reviews"
    emit([_review_json(r) for r in items], fmt, text)


@review.command("show")
@click.argument("fingerprint")
@FORMAT
@db_option
def review_show(fingerprint, fmt, db_url) -> None:
    """A review's status and its history (from the trail).

    \b
    Example:
      compliance review show 3f9a2c
    """
    r, entries = svc.history(lazy_store(db_url)(), fingerprint)
    lines = [f"{r.fingerprint}: {STATUS_LABELS[r.status]}"]
    for e in entries:
        after = e["after"] or {}
        lines.append(
            f"  {str(e['at'])[:19]}  {e['actor']}  {after.get('status')}"
            + (f"  {after.get('note')}" if after.get("note") else "")
        )
    history = [{"at": str(e["at"]), "actor": e["actor"], **(e["after"] or {})} for e in entries]
    emit({**_review_json(r), "history": history}, fmt, "\n".join(printable(x) for x in lines))


@click.group()
def trail() -> None:
    """The one change trail: rules, waivers and reviews (`rules verify`, `rules history`)."""


trail.add_command(rules_cli.verify, "verify")
trail.add_command(rules_cli.history, "history")


def _span(w: Waiver) -> str:
    first = "any day" if w.starts == BEGINNING else w.starts.isoformat()
    return f"{first} to {w.until.isoformat()}"


def _waiver_json(w: Waiver, today: date) -> dict:
    return {
        "id": w.id,
        "state": w.state(today),
        "scope": w.scope.parts(),
        "from": None if w.starts == BEGINNING else w.starts.isoformat(),
        "until": w.until.isoformat(),
        "reason": w.reason,
        "actor": w.actor,
        "created_at": w.created_at.isoformat() if w.created_at else None,
        "revoked_at": w.revoked_at.isoformat() if w.revoked_at else None,
        "revoked_by": w.revoked_by,
        "revoke_reason": w.revoke_reason,
    }


def _waiver_text(w: Waiver, today: date) -> str:
    lines = [
        f"waiver {w.id} ({w.state(today)})",
        f"  scope    {w.scope.describe()}",
        f"  covers   findings dated {_span(w)}",
        f"  reason   {w.reason}",
        f"  by       {w.actor}" + (f", {w.created_at:%Y-%m-%d %H:%M}" if w.created_at else ""),
    ]
    if w.revoked_at:
        lines.append(
            f"  revoked  {w.revoked_at:%Y-%m-%d %H:%M} by {w.revoked_by}: {w.revoke_reason}"
        )
    return "\n".join(printable(x) for x in lines)


def _review_json(r: Review) -> dict:
    return {
        "fingerprint": r.fingerprint,
        "status": r.status,
        "tier": r.tier,
        "subject": r.subject,
        "band": r.band,
        "note": r.note,
        "actor": r.actor,
        "at": r.at.isoformat(),
    }


def _finding_words(f: dict) -> str:
    what = f.get("tier") or f.get("check") or f.get("missing") or f["kind"]
    where = f.get("session_id") or f"window to {f.get('window_end')}"
    return f"{f['subject']} {what}, {where}"
