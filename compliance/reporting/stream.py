"""Findings written as they are produced: a table for people, JSON Lines and CSV for machines."""

from __future__ import annotations

import shutil
from typing import IO, Any

from compliance.domain.findings import DUTY, FIELDS, FORMAT, Finding, with_format
from compliance.reporting.cells import CsvWriter as SafeCsvWriter
from compliance.reporting.cells import csv_value, pad, printable, wrap

CSV_COLUMNS = FIELDS
HIDDEN_TIERS = frozenset({"exempt", "below_threshold"})


class JsonLinesWriter:
    def __init__(self, out: IO[str], version: str = FORMAT):
        self.out = out
        self.version = version

    def write(self, finding: Finding) -> None:
        self.out.write(with_format(finding.to_json(), self.version).decode() + "\n")

    def close(self) -> None:
        pass


class CsvWriter:
    def __init__(self, out: IO[str], columns: tuple[str, ...] = CSV_COLUMNS):
        self.columns = columns
        self.writer = SafeCsvWriter(out, columns)

    def write(self, finding: Finding) -> None:
        row = finding.to_dict()
        if row["kind"] == DUTY:
            row["events"] = [_event_text(e) for e in row.get("events", [])]
        self.writer.writerow({k: csv_value(row.get(k)) for k in self.columns})

    def close(self) -> None:
        pass


def _event_text(event: dict[str, Any]) -> str:
    """A duty finding's event in one CSV cell: id, time, type and amounts."""
    parts = [event["id"], event["at"], event["type"]]
    if event.get("yuan") is not None:
        parts.append(f"{event['yuan']} yuan")
    if event.get("units") is not None:
        parts.append(f"{event['units']} units")
    return " ".join(str(p) for p in parts)


SHORT_TIERS = {
    "exempt": "不予处罚 exempt",
    "below_threshold": "未达标准 below",
    "administrative": "赌资较大 admin",
    "administrative_serious": "情节严重 serious",
    "administrative_very_serious": "情节特别严重 v.serious",
    "criminal": "刑事 criminal",
    "criminal_serious": "刑事情节严重 crim.serious",
}
CHECKS = {
    "settlement_mismatch": "结算不符",
    "illegal_action": "违规操作",
    "wrong_banker": "庄家错误",
    "impossible_deal": "不可能的牌",
    "negative_chips": "筹码为负",
}
COLUMNS = (
    ("KIND", 13, "<"),
    ("SESSION", 15, "<"),
    ("SUBJECT", 16, "<"),
    ("WHERE", 6, "<"),
    ("RESULT", 28, "<"),
    ("MARGIN", 9, ">"),
    ("CONF", 4, "<"),
)
MIN_DETAIL = 30


class TableWriter:
    """One line per finding worth a person's attention; quiet results are counted. Columns
    are measured in terminal columns (CJK two each); DETAIL wraps within its own column."""

    def __init__(self, out: IO[str], show_all: bool = False, width: int | None = None):
        self.out = out
        self.show_all = show_all
        self.hidden = 0
        self.rows = 0
        total = width or shutil.get_terminal_size((160, 24)).columns
        self.indent = sum(w + 1 for _, w, _ in COLUMNS)
        self.detail = max(MIN_DETAIL, total - self.indent)

    def write(self, finding: Finding) -> None:
        if not self.show_all and getattr(finding, "tier", None) in HIDDEN_TIERS:
            self.hidden += 1
            return
        row = finding.to_dict()
        if self.rows == 0:
            self.out.write(self._line([name for name, _, _ in COLUMNS], "DETAIL") + "\n")
        self.rows += 1
        cells = [
            row["kind"],
            row["session_id"] or "-",
            row["subject"],
            row["jurisdiction"] or "-",
            _result(row),
            _margin(row),
            row.get("confidence") or "-",
        ]
        lines = wrap(printable(_detail(row)), self.detail)
        self.out.write(self._line([printable(c) for c in cells], lines[0]) + "\n")
        for more in lines[1:]:
            self.out.write(" " * self.indent + more + "\n")

    def _line(self, cells: list[str], detail: str) -> str:
        padded = [pad(c, w, a) for c, (_, w, a) in zip(cells, COLUMNS, strict=True)]
        return " ".join([*padded, detail]).rstrip()

    def close(self) -> None:
        if self.hidden:
            self.out.write(
                f"({self.hidden} below-threshold or exempt results not shown; --all shows them)\n"
            )
        elif self.rows == 0:
            self.out.write("no findings\n")


def _result(row: dict[str, Any]) -> str:
    if row["kind"] == "threshold":
        return SHORT_TIERS.get(row["tier"], row["tier"])
    if row["kind"] == "integrity":
        return f"{CHECKS.get(row['check'], '')} {row['check']}".strip()
    if row["kind"] == DUTY and row["status"] == "breached":
        return f"{row['severity']} {row['check']}"
    return f"无法判定 missing {row['missing']}"


def _margin(row: dict[str, Any]) -> str:
    margin = row.get("margin")
    if row["kind"] != "threshold" or margin is None:
        return "-"
    number = float(margin)
    return f"{number:,.0f}" if number == int(number) else f"{number:,.2f}"


def _detail(row: dict[str, Any]) -> str:
    if row["kind"] == "integrity":
        detail, prefix = row["detail"], f"round {row['round']}:"
        return detail if detail.startswith(prefix) else f"{prefix} {detail}"
    if row["kind"] == "indeterminate":
        return row["reason"]
    if row["kind"] == DUTY:
        return _duty_detail(row)
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
    if row.get("escaped_statutory_penalty"):
        parts.append(f"escaped statute: {row['escaped_statutory_penalty']}")
    if row.get("elements"):
        parts.append(f"rests on: {'; '.join(row['elements'])}")
    if row.get("elements_missing"):
        parts.append(f"not read: {'; '.join(row['elements_missing'])}")
    if row.get("disputed"):
        parts.append("figure disputed")
    return "; ".join(parts)


def _duty_detail(row: dict[str, Any]) -> str:
    if row["status"] != "breached":
        return f"{row['reason']} ({row['event_count']}); {row['citation']}"
    said = row.get("detail") or ""
    if row.get("value") is not None:
        said += f"; {row['metric']} {row['value']} ({row['boundary']})"
    return f"{said}; {row['citation']} [{row['date']}]"


def make_writer(fmt: str, out: IO[str], show_all: bool = False, version: str = FORMAT):
    """The findings' writer; `version` the contract: /2 (with the duty columns) where the
    run checks duties, /1 otherwise, byte for byte as before."""
    if fmt == "sarif":
        from compliance.reporting.sarif import SarifWriter

        return SarifWriter(out, version)
    if fmt == "jsonl":
        return JsonLinesWriter(out, version)
    if fmt == "csv":
        return CsvWriter(out, CSV_COLUMNS)
    return TableWriter(out, show_all)
