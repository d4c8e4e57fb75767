"""网页报告: one self-contained HTML file (inline CSS and SVG, no scripts, no fetches)."""

from __future__ import annotations

from typing import Any

from compliance.domain.review import STATUSES
from compliance.reporting import charts
from compliance.reporting.duty_render import html_section
from compliance.reporting.labels import Labels
from compliance.reporting.model import Report
from compliance.reporting.review_marks import manifest_lines
from compliance.reporting.templating import template

MAX_ROWS = 500
MAX_NEAR = 25
SERIOUS_TIERS = ("criminal_serious", "criminal", "administrative_very_serious")
SECTIONS = (
    ("headline", "headline"),
    ("summary", "summary"),
    ("serious", "serious"),
    ("integrity", "integrity_list"),
    ("by_place", "by_place"),
    ("distribution", "distribution"),
    ("near_misses", "near_misses"),
    ("exposure", "exposure"),
    ("over_time", "over_time"),
    ("mismatches", "mismatches"),
    ("findings", "table"),
    ("waived", "waived"),
    ("rules", "rules_cited"),
)


def render_html(report: Report, lang: str = "zh", cjk_family: str | None | bool = True) -> str:
    """The report as HTML; `cjk_family` True finds a CJK font, None/False draws without one."""
    family = charts.find_cjk_family() if cjk_family is True else (cjk_family or None)
    labels = Labels(lang, cjk=True)
    chart_labels = Labels(lang, cjk=family is not None)
    notes = list(report.notes)
    if family is None:
        notes.append(labels("no_cjk"))
    page = template("report.html.j2")
    duties = html_section(report.duties, labels) if report.duties is not None else None
    sections = [
        (key, labels(label))
        for key, label in SECTIONS
        if (key != "rules" or report.rules) and (key != "waived" or report.waived_count)
    ]
    if duties is not None:
        at = next(n for n, (key, _) in enumerate(sections) if key == "findings")
        sections.insert(at, ("duties", duties["title"]))
    return page.render(
        r=report,
        L=labels,
        lang=lang,
        charts=charts.draw_all(report, chart_labels, family),
        font=family,
        notes=notes,
        rows=[describe(f, labels) for f in report.findings[:MAX_ROWS]],
        total=report.total,
        shown=min(report.total, MAX_ROWS),
        near=[describe(f, labels) for f in report.near_misses[:MAX_NEAR]],
        tier_rows=[(code, report.tiers.get(code, 0)) for code in charts.ORDER[:-2]],
        filters={k: v for k, v in report.query.describe().items() if v not in (None, [])},
        h=report.headline,
        sections=sections,
        D=duties,
        waived=[describe(f, labels) for f in report.waived[:MAX_ROWS]],
        statuses=[(s, report.statuses[s]) for s in STATUSES if report.statuses.get(s)],
        serious=[describe(f, labels) for f in report.serious],
        serious_total=sum(report.tiers.get(c, 0) for c in SERIOUS_TIERS),
        integrity=[describe_integrity(f, labels) for f in report.integrity],
        manifest_lines=manifest_lines,
    )


def describe(f: dict[str, Any], labels: Labels) -> dict[str, Any]:
    """A finding as the cells of one table row (plain strings; the template escapes)."""
    kind = f["kind"]
    if kind == "threshold":
        result, css = labels.tier(f["tier"]), f["tier"]
        figure = (
            f"{f.get('metric')} = {_num(f.get('value'))} ({f.get('boundary')})"
            if f.get("value") is not None
            else (f.get("boundary") or "")
        )
        if not figure and f.get("next_metric"):
            figure = f"{f['next_metric']} → {_num(f.get('next_boundary'))}"
        if f.get("exemptions"):
            figure += f"; exempt ({', '.join(f['exemptions'])}), would be {f.get('would_be')}"
        if f.get("elements"):
            figure += f"; rests on: {'; '.join(f['elements'])}"
        if f.get("elements_missing"):
            figure += f"; not read: {'; '.join(f['elements_missing'])}"
    elif kind == "integrity":
        result, css = labels.check(f["check"]), "integrity"
        figure = round_detail(f)
    else:
        result, css = labels("indeterminate"), "indeterminate"
        figure = f"missing {f['missing']}: {f['reason']}"
    session = f["session_id"]
    if session is None and f.get("window_start"):
        count = f.get("session_count")
        session = f"{f['window_start']} – {f['window_end']} ({sessions_n(count)})"
    subject = f["subject"]
    if f.get("name"):
        subject = f"{f['name']} ({subject})"
    return {
        "css": css,
        "result": result,
        "figure": figure,
        "subject": subject,
        "session": session,
        "platform": f["platform"],
        "day": f.get("day", ""),
        "game": labels.game(f.get("game", "")),
        "place": f.get("jurisdiction") or "-",
        "place_name": f.get("jurisdiction_name") or "",
        "rule": f.get("rule") or "",
        "citation": f.get("citation") or "",
        "confidence": labels.confidence(f.get("confidence")),
        "statute": f.get("statutory_penalty")
        or (
            f"escaped: {f['escaped_statutory_penalty']}"
            if f.get("escaped_statutory_penalty")
            else ""
        ),
        "disputed": f.get("dispute_note") or ("disputed" if f.get("disputed") else ""),
        "next_tier": labels.tier(f.get("next_tier")),
        "margin": _num(f.get("margin_to_next")),
        "margin_on": (
            f"{f['next_metric']} {_num(f.get('next_boundary'))}" if f.get("next_metric") else ""
        ),
        "share": f"{100 * f['margin_share']:.1f}%" if "margin_share" in f else "",
        "room": f.get("room_id") or "",
        "owner": f.get("owner_id") or "",
        "fingerprint": (f.get("fingerprint") or "")[:12],
        "review_status": labels.status(f.get("review_status")),
        "reopened": bool(f.get("reopened")),
        "waiver": f.get("waiver"),
        "waiver_reason": f.get("waiver_reason") or "",
        "waiver_until": f.get("waiver_until") or "",
    }


def sessions_n(count: Any) -> str:
    return f"{count} session" if count == 1 else f"{count} sessions"


def round_detail(f: dict[str, Any]) -> str:
    """`round 9: …`, once, though an engine's detail may already start so."""
    detail, prefix = f.get("detail") or "", f"round {f.get('round')}:"
    return detail if detail.startswith(prefix) else f"{prefix} {detail}"


def describe_integrity(f: dict[str, Any], labels: Labels) -> dict[str, Any]:
    """An integrity finding as its round and, per player, what was claimed against what the
    rules give (recomputed)."""
    claimed, expected = f.get("claimed") or {}, f.get("expected") or {}
    per_player = [
        (who, _num(claimed.get(who)), _num(expected.get(who)))
        for who in dict.fromkeys([*claimed, *expected])
    ]
    return {
        "session": f"{f['platform']}/{f['session_id']}",
        "room": f.get("room_id") or "",
        "owner": f.get("owner_id") or "",
        "day": f.get("day", ""),
        "game": labels.game(f.get("game", "")),
        "round": f.get("round"),
        "check": labels.check(f["check"]),
        "players": per_player,
        "named": ", ".join(f.get("players") or ()) if not per_player else "",
        "detail": f.get("detail") or "",
        "place": f.get("jurisdiction") or "-",
    }


def _num(value: Any) -> str:
    if value is None:
        return ""
    number = float(value)
    if number == int(number):
        return f"{number:,.0f}"
    return f"{number:,.2f}" if abs(number) >= 1 else f"{number:.4f}".rstrip("0")
