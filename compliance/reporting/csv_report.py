"""CSV 导出: one row per selected finding, every cell safe to open in a spreadsheet."""

from __future__ import annotations

import io
from collections.abc import Iterator

from compliance.domain.findings import FIELDS
from compliance.reporting.cells import CsvWriter, csv_value
from compliance.reporting.duty_render import csv_section
from compliance.reporting.model import Report

COLUMNS = FIELDS


def render_csv(report: Report) -> str:
    return "".join(csv_chunks(report))


def csv_chunks(report: Report, rows: int = 2000) -> Iterator[str]:
    """Every selected finding, most severe first, in the audit's CSV columns (`FIELDS`),
    with the stored session's name, room and owner; streamed, `rows` at a time. A run
    that checked the platform's duties adds their section after a blank line."""
    out = io.StringIO()
    writer = CsvWriter(out, COLUMNS)
    for n, finding in enumerate(report.export(), 1):
        row = {k: csv_value(finding.get(k)) for k in COLUMNS}
        if row["date"] is None:
            row["date"] = finding.get("day")
        writer.writerow(row)
        if n % rows == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()
    if report.duties is not None:
        yield csv_section(report.duties)
