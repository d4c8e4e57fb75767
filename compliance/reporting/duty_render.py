"""平台义务一节的 CSV 与网页: the platform-duties section (reporting/duties.py) as a second
CSV table after the findings, and as the cells of the HTML report's section.

Both show one line per check (its status, breaches by severity, what was missing, the
instruments with their confidence) and the worst cases with their events.
"""

from __future__ import annotations

import io
from typing import Any

from compliance.domain.duties.rows import SEVERITIES
from compliance.reporting.cells import CsvWriter, csv_value
from compliance.reporting.labels import CONFIDENCE, Labels, counted

TEXT: dict[str, tuple[str, str]] = {
    "platform_duties": ("平台义务", "Platform duties"),
    "note": (
        "平台自身义务的检查, 每项一行: 已遵守、已违反, 或因缺少输入而无法判定。",
        "The platform's own duties, one line per check: held, breached, or indeterminate "
        "with what was missing.",
    ),
    "check": ("检查", "check"),
    "status": ("状态", "status"),
    "held": ("已遵守", "held"),
    "breached": ("已违反", "breached"),
    "indeterminate": ("无法判定", "indeterminate"),
    "violation": ("违规", "violation"),
    "signal": ("信号", "signal"),
    "advisory": ("提示", "advisory"),
    "by_severity": ("违反 (按严重程度)", "breaches by severity"),
    "missing": ("缺少的输入", "missing input"),
    "instruments": ("依据与可信度", "instruments and confidence"),
    "worst": ("最严重的案例", "Worst cases"),
    "severity": ("严重程度", "severity"),
    "subject": ("对象", "subject"),
    "period": ("期间", "period"),
    "figure": ("数额与上限", "figure and cap"),
    "detail": ("说明", "detail"),
    "events": ("事件", "events"),
    "cases": ("{n} 例", "{n} case[s]"),
    "no_cases": ("无违反", "no breach"),
}

CSV_COLUMNS = (
    "platform_duties",
    "number",
    "check",
    "label",
    "status",
    "violation",
    "signal",
    "advisory",
    "missing",
    "instruments",
    "duty",
    "severity",
    "subject",
    "date",
    "metric",
    "value",
    "cap",
    "detail",
    "events",
)
"""The section's CSV table: a `check` row per check, then a `case` row per worst case."""


def csv_section(section: list[dict[str, Any]]) -> str:
    """The section as a CSV table of its own, after a blank line that ends the findings."""
    out = io.StringIO()
    out.write("\n")
    writer = CsvWriter(out, CSV_COLUMNS)
    for line in section:
        writer.writerow(
            {
                "platform_duties": "check",
                "number": line["number"],
                "check": line["check"],
                "label": line["label"],
                "status": line["status"],
                **{s: line["by_severity"].get(s, 0) for s in SEVERITIES},
                "missing": "; ".join(
                    f"{m['missing']}: {m['reason']} ({m['cases']})" for m in line["missing"]
                ),
                "instruments": "; ".join(f"{i} {a} ({c})" for i, a, c in line["instruments"]),
            }
        )
    for line in section:
        for case in line["worst"]:
            writer.writerow(
                {
                    "platform_duties": "case",
                    "number": line["number"],
                    "check": line["check"],
                    "label": line["label"],
                    **{k: csv_value(case[k]) for k in ("duty", "severity", "subject", "date")},
                    **{k: csv_value(case[k]) for k in ("metric", "value", "cap", "detail")},
                    "events": "; ".join(case["events"]),
                }
            )
    return out.getvalue()


def html_section(section: list[dict[str, Any]], labels: Labels) -> dict[str, Any]:
    """The section's headings and cells for the HTML template, labels in both languages."""

    def say(key: str, **fmt: Any) -> str:
        zh, en = TEXT[key]
        return labels.pair(zh.format(**fmt), counted(en.format(**fmt)))

    def bilingual(label: str) -> str:
        zh, _, en = label.partition(" ")
        return labels.pair(zh, en) if en else label

    def cited(instrument: str, article: str, confidence: str) -> str:
        zh, en = CONFIDENCE.get(confidence, (confidence, confidence))
        return f"{instrument} {article} ({confidence} {labels.pair(zh, en)})"

    checks, cases = [], []
    for line in section:
        counts = [f"{say(s)} {n}" for s, n in line["by_severity"].items()]
        checks.append(
            {
                "code": line["check"],
                "title": f"{line['number']}. {bilingual(line['label'])}",
                "status": line["status"],
                "status_label": say(line["status"]),
                "counts": "; ".join(counts) or say("no_cases"),
                "missing": [
                    f"{m['missing']}: {m['reason']} ({say('cases', n=m['cases'])})"
                    for m in line["missing"]
                ],
                "instruments": [cited(*i) for i in line["instruments"]],
            }
        )
        for case in line["worst"]:
            figure = f"{case['metric']} {_plain(case['value'])}"
            if case["cap"] is not None:
                figure += f" / {_plain(case['cap'])}"
            cases.append(
                {
                    "check": f"{line['number']}. {bilingual(line['label'])}",
                    "duty": case["duty"],
                    "severity": case["severity"],
                    "severity_label": say(case["severity"]),
                    "subject": case["subject"],
                    "date": case["date"] or "",
                    "figure": figure,
                    "detail": case["detail"] or "",
                    "events": ", ".join(case["events"]) or "-",
                }
            )
    heads = ("check", "status", "by_severity", "missing", "instruments", "worst")
    more = ("severity", "subject", "period", "figure", "detail", "events")
    return {
        "title": say("platform_duties"),
        "note": say("note"),
        "head": {k: say(k) for k in heads + more},
        "checks": checks,
        "cases": cases,
    }


def _plain(value: Any) -> str:
    if value is None:
        return ""
    number = float(value)
    return f"{number:,.0f}" if number == int(number) else f"{number:,.2f}"
