"""CSV 导出: one row per selected finding, every cell safe to open in a spreadsheet."""

from __future__ import annotations

import io
from collections.abc import Iterator

from compliance.reporting.cells import CsvWriter
from compliance.reporting.model import Report
from compliance.reporting.stream import CSV_COLUMNS

COLUMNS = (
    *CSV_COLUMNS[:4],
    "name",
    "game",
    "day",
    "room_id",
    "owner_id",
    *CSV_COLUMNS[4:],
    "next_tier",
    "margin_to_next",
    "dispute_note",
)


def render_csv(report: Report) -> str:
    return "".join(csv_chunks(report))


def csv_chunks(report: Report, rows: int = 2000) -> Iterator[str]:
    """Every selected finding, most severe first, in the audit's CSV columns and a few
    more; streamed, `rows` at a time."""
    out = io.StringIO()
    writer = CsvWriter(out, COLUMNS)
    for n, finding in enumerate(report.export(), 1):
        writer.writerow({k: _cell(finding.get(k)) for k in COLUMNS})
        if n % rows == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def _cell(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list | dict):
        return "; ".join(map(str, value)) if isinstance(value, list) else str(value)
    return value
