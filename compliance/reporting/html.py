"""网页报告: one self-contained HTML file (inline CSS and SVG, no scripts, no fetches)."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader

from compliance.reporting import charts
from compliance.reporting.labels import Labels
from compliance.reporting.model import Report

MAX_ROWS = 500
MAX_NEAR = 25

_env = Environment(
    loader=PackageLoader("compliance.reporting", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render_html(report: Report, lang: str = "zh", cjk_family: str | None | bool = True) -> str:
    """The report as HTML; `cjk_family` True finds a CJK font, None/False draws without one."""
    family = charts.find_cjk_family() if cjk_family is True else (cjk_family or None)
    labels = Labels(lang, cjk=True)
    chart_labels = Labels(lang, cjk=family is not None)
    notes = list(report.notes)
    if family is None:
        notes.append(labels("no_cjk"))
    template = _env.get_template("report.html.j2")
    return template.render(
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
        figure = f"round {f['round']}: {f['detail']}"
    else:
        result, css = labels("indeterminate"), "indeterminate"
        figure = f"missing {f['missing']}: {f['reason']}"
    session = f["session_id"]
    if session is None and f.get("window_start"):
        session = f"{f['window_start']} – {f['window_end']} ({f.get('session_count')} sessions)"
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
        "share": f"{100 * f['margin_share']:.1f}%" if "margin_share" in f else "",
        "room": f.get("room_id") or "",
        "owner": f.get("owner_id") or "",
    }


def _num(value: Any) -> str:
    if value is None:
        return ""
    number = float(value)
    return f"{number:,.0f}" if number == int(number) else f"{number:,.2f}"
