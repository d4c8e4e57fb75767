"""平台义务一节: the platform-duties section of a report, from a run's duty findings.

One line per check: its status over the run (held, breached, or indeterminate with
what was missing), its counts by severity, the instruments with their confidence,
and the worst cases with their events. A run that checked no duties has none.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from compliance.domain.duties.rows import CHECKS, SEVERITIES, DutyBook
from compliance.domain.findings import DutyFinding

WORST = 5


def duty_section(
    findings: list[DutyFinding], statuses: dict[str, str], book: DutyBook | None = None
) -> list[dict[str, Any]]:
    """The section's lines, in the checks' order; `statuses` as the run summed them. The
    instruments are those of the findings and, given the duty `book`, those of every row
    of the check, so a check that held still names what it was held to."""
    lines = []
    for code, (number, label) in CHECKS.items():
        mine = [f for f in findings if f.check == code]
        if code not in statuses and not mine:
            continue
        cited = {(f.instrument, f.article, f.confidence) for f in mine}
        if book is not None:
            cited |= {(d.instrument, d.article, d.confidence) for d in book.rows(code)}
        breached = [f for f in mine if f.status == "breached"]
        unknown = [f for f in mine if f.status != "breached"]
        counts = Counter(f.severity for f in breached)
        worst = sorted(
            breached, key=lambda f: (-SEVERITIES.index(f.severity), -f.event_count, f.subject)
        )[:WORST]
        lines.append(
            {
                "check": code,
                "number": number,
                "label": label,
                "status": statuses.get(code, "breached" if breached else "indeterminate"),
                "breaches": len(breached),
                "by_severity": {s: counts[s] for s in reversed(SEVERITIES) if counts[s]},
                "missing": [
                    {"missing": f.missing, "reason": f.reason, "cases": f.event_count}
                    for f in unknown
                ],
                "instruments": sorted(cited),
                "worst": [
                    {
                        "duty": f.duty,
                        "severity": f.severity,
                        "subject": f.subject,
                        "date": f.date,
                        "metric": f.metric,
                        "value": f.value,
                        "cap": f.cap,
                        "detail": f.detail,
                        "events": [e.id for e in f.events],
                    }
                    for f in worst
                ],
            }
        )
    return lines


def markdown_lines(section: list[dict[str, Any]]) -> list[str]:
    """The section in Markdown: a table of the checks, then each check's worst cases."""
    out = [
        "## 平台义务 Platform duties",
        "",
        "| check | status | breaches | missing | instruments |",
        "|---|---|---:|---|---|",
    ]
    for line in section:
        missing = "; ".join(f"{m['missing']} ({m['cases']})" for m in line["missing"]) or "-"
        cited = "; ".join(f"{i} {a} ({c})" for i, a, c in line["instruments"]) or "-"
        out.append(
            f"| {line['number']}. {line['label']} | {line['status']} | {line['breaches']} "
            f"| {missing} | {cited} |"
        )
    out.append("")
    for line in section:
        for case in line["worst"]:
            events = ", ".join(case["events"]) or "-"
            out.append(
                f"- {line['number']}. {case['severity']} {case['subject']} [{case['date']}]: "
                f"{case['detail']} ({case['metric']} {case['value']}, cap {case['cap']}; "
                f"events {events})"
            )
    out.append("")
    return [text.replace("\n", " ") for text in out]
