"""Markdown 报告: the summary and the most severe findings, for a ticket or a wiki."""

from __future__ import annotations

from compliance.domain.tiers import Tier
from compliance.reporting.duties import markdown_lines
from compliance.reporting.html import MAX_ROWS, describe
from compliance.reporting.labels import Labels
from compliance.reporting.model import Report
from compliance.reporting.review_marks import manifest_lines

_ESCAPES = str.maketrans(
    {
        "|": "\\|",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        "\n": " ",
        "\r": " ",
        "`": "\\`",
        "[": "\\[",
        "]": "\\]",
        "*": "\\*",
        "_": "\\_",
    }
)


def cell(value) -> str:
    """Text from logs as inert Markdown: no tags, links or table breaks."""
    return str(value if value is not None else "").translate(_ESCAPES)


def render_markdown(report: Report, lang: str = "zh") -> str:
    L = Labels(lang)
    out = [f"# {L('title')}", "", f"> **{L('not_advice')}**", ""]
    out += [line for note in report.notes for line in (f"> {note}", "")]
    if report.unfinished:
        out += [f"> {L('unfinished', ids=report.unfinished)}", ""]
    out += headline(report, L)
    out += [f"## {L('summary')}", ""]
    out += [
        f"- {L('sessions')}: {report.sessions}",
        f"- {L('rejected')}: {report.rejects}",
        f"- {L('players')}: {report.players}",
        f"- {L('runs')}: {', '.join(str(r.id) for r in report.runs) or '-'}",
        "",
        f"| {L('by_tier')} | {L('count')} |",
        "|---|---:|",
    ]
    out += [f"| {L.tier(t)} | {n} |" for t, n in sorted(report.tiers.items(), key=_rank)]
    out += [
        f"| {L('integrity')} | {report.kinds.get('integrity', 0)} |",
        f"| {L('indeterminate')} | {report.kinds.get('indeterminate', 0)} |",
        "",
    ]
    out += [f"## {L('table')}", ""]
    if report.total > MAX_ROWS:
        out += [L("shown", shown=MAX_ROWS, total=report.total), ""]
    heads = (
        "result",
        "session",
        "subject",
        "place",
        "figure",
        "rule",
        "citation",
        "confidence",
        "review",
    )
    out += ["| " + " | ".join(L(h) for h in heads) + " |", "|" + "---|" * len(heads)]
    for f in report.findings[:MAX_ROWS]:
        row = describe(f, L)
        figure = row["figure"] + (f" ({L('disputed')})" if row["disputed"] else "")
        cells = (
            row["result"],
            f"{row['platform']}/{row['session']}",
            row["subject"],
            f"{row['place_name']} {row['place']}",
            figure,
            row["rule"],
            row["citation"],
            row["confidence"],
            f"{row['review_status']} {row['fingerprint']}".strip(),
        )
        out.append("| " + " | ".join(cell(c) for c in cells) + " |")
    out += waived(report, L)
    if report.duties is not None:
        out += ["", *markdown_lines(report.duties)]
    for run in report.runs:
        if run.manifest:
            out += ["", f"## {L('manifest')} #{run.id}", ""]
            out += [f"- `{line}`" for line in manifest_lines(run.manifest)]
    out += ["", f"{L('not_advice')} {L('disclaimer')}", ""]
    return "\n".join(out)


def waived(report: Report, L: Labels) -> list[str]:
    """已豁免: the findings a waiver covers, apart, never hidden."""
    if not report.waived_count:
        return []
    out = ["", f"## {L('waived')}", "", L("waived_note", total=report.waived_count), ""]
    heads = ("result", "session", "subject", "figure", "waiver")
    out += ["| " + " | ".join(L(h) for h in heads) + " |", "|" + "---|" * len(heads)]
    for f in report.waived[:MAX_ROWS]:
        row = describe(f, L)
        cells = (
            row["result"],
            f"{row['platform']}/{row['session']}",
            row["subject"],
            row["figure"],
            f"#{row['waiver']}: {row['waiver_reason']} ({row['waiver_until']})",
        )
        out.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return out


def headline(report: Report, L: Labels) -> list[str]:
    """要点: who is at criminal and very serious lines and where; tampered rounds, rejects."""
    h = report.headline
    out = [f"## {L('headline')}", ""]
    for key, counts, places in (
        ("at_criminal", h.criminal, h.criminal_places),
        ("at_very_serious", h.very_serious, h.very_serious_places),
    ):
        where = ", ".join(L.place(code, report.places) for code in places)
        out.append(
            f"- **{L(key)}**: {L('subjects', **counts)}"
            + (f"; {L('in_places')} {cell(where)}" if where else "")
        )
    out += [
        f"- {L('tampered', rounds=h.tampered_rounds, findings=h.integrity)}",
        f"- {L('rejects_line', n=h.rejects)}",
        f"- {L('indeterminate_line', n=h.indeterminate)}",
        "",
    ]
    return out


def _rank(item) -> int:
    return -Tier.parse(item[0])
