"""Findings written as they are produced: a table for people, JSON Lines and CSV for machines."""

from __future__ import annotations

from typing import IO, Any

from compliance.domain.findings import FIELDS, Finding, with_format
from compliance.reporting.cells import CsvWriter as SafeCsvWriter
from compliance.reporting.cells import csv_value, printable

CSV_COLUMNS = FIELDS
HIDDEN_TIERS = frozenset({"exempt", "below_threshold"})


class JsonLinesWriter:
    def __init__(self, out: IO[str]):
        self.out = out

    def write(self, finding: Finding) -> None:
        self.out.write(with_format(finding.to_json()).decode() + "\n")

    def close(self) -> None:
        pass


class CsvWriter:
    def __init__(self, out: IO[str]):
        self.writer = SafeCsvWriter(out, CSV_COLUMNS)

    def write(self, finding: Finding) -> None:
        row = finding.to_dict()
        self.writer.writerow({k: csv_value(row.get(k)) for k in CSV_COLUMNS})

    def close(self) -> None:
        pass


class TableWriter:
    """One line per finding worth a person's attention; quiet results are counted."""

    def __init__(self, out: IO[str], show_all: bool = False):
        self.out = out
        self.show_all = show_all
        self.hidden = 0
        self.rows = 0

    def write(self, finding: Finding) -> None:
        if not self.show_all and getattr(finding, "tier", None) in HIDDEN_TIERS:
            self.hidden += 1
            return
        row = finding.to_dict()
        if self.rows == 0:
            self.out.write(
                f"{'KIND':<13} {'SESSION':<14} {'SUBJECT':<16} {'WHERE':<7} {'RESULT':<27} DETAIL\n"
            )
        self.rows += 1
        line = (
            f"{row['kind']:<13} {row['session_id'] or '-':<14} {row['subject']:<16} "
            f"{row['jurisdiction'] or '-':<7} {_result(row):<27} {_detail(row)}"
        )
        self.out.write(printable(line) + "\n")

    def close(self) -> None:
        if self.hidden:
            self.out.write(
                f"({self.hidden} below-threshold or exempt results not shown; --all shows them)\n"
            )
        elif self.rows == 0:
            self.out.write("no findings\n")


def _result(row: dict[str, Any]) -> str:
    if row["kind"] == "threshold":
        return row["tier"]
    if row["kind"] == "integrity":
        return row["check"]
    return f"missing {row['missing']}"


def _detail(row: dict[str, Any]) -> str:
    if row["kind"] == "integrity":
        return f"round {row['round']}: {row['detail']}"
    if row["kind"] == "indeterminate":
        return row["reason"]
    parts = []
    if row.get("value") is not None:
        parts.append(f"{row['metric']} {row['value']} ({row['boundary']})")
    elif row.get("boundary"):
        parts.append(row["boundary"])
    if row.get("citation"):
        parts.append(row["citation"])
    if row.get("statutory_penalty"):
        parts.append(f"statute: {row['statutory_penalty']}")
    if row.get("exemptions"):
        parts.append(f"exempt, would be {row['would_be']}")
    if row.get("disputed"):
        parts.append("figure disputed")
    return "; ".join(parts)


def make_writer(fmt: str, out: IO[str], show_all: bool = False):
    if fmt == "sarif":
        from compliance.reporting.sarif import SarifWriter

        return SarifWriter(out)
    if fmt == "jsonl":
        return JsonLinesWriter(out)
    if fmt == "csv":
        return CsvWriter(out)
    return TableWriter(out, show_all)
