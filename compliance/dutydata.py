"""义务数据文件: data/duties.toml read into a DutyBook (docs/platform-duties.md).

A malformed row raises RulesError naming the file and the row, as the rule files do.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from compliance.domain.duties.rows import Duty, DutyBook, Figure
from compliance.errors import RulesError
from compliance.ruledata import DATA_DIR, read_toml

DUTIES_FILE = "duties.toml"
FIELDS = ("id", "check", "instrument", "article", "confidence", "severity")


def duties_path(root: Path = DATA_DIR) -> Path:
    return root / DUTIES_FILE


def load_duties(path: Path | None = None) -> DutyBook:
    """The duty rows of a file (data/duties.toml by default), checked."""
    path = path or duties_path()
    doc = read_toml(path)
    book = DutyBook(
        [_duty(row, f"{path.name} duty #{n + 1}") for n, row in enumerate(doc.get("duty", []))]
    )
    problems = book.problems()
    if problems:
        raise RulesError(f"{path.name}: {problems[0]}")
    return book


def _duty(row: dict[str, Any], where: str) -> Duty:
    if not isinstance(row, dict):
        raise RulesError(f"{where}: not a table")
    for name in FIELDS:
        if not isinstance(row.get(name), str) or not row[name]:
            raise RulesError(f"{where}: {name} must be a non-empty string")
    where = f"{where} ({row['id']})"
    unknown = set(row) - {*FIELDS, "valid_from", "valid_to", "figures", "source", "note"}
    if unknown:
        raise RulesError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    return Duty(
        id=row["id"],
        check=row["check"],
        instrument=row["instrument"],
        article=row["article"],
        confidence=row["confidence"],
        severity=row["severity"],
        valid_from=_day(row.get("valid_from"), where),
        valid_to=_day(row.get("valid_to"), where),
        figures={
            str(k): _figure(v, f"{where} figure {k}") for k, v in row.get("figures", {}).items()
        },
        source=str(row.get("source", "")),
        note=str(row.get("note", "")),
    )


def _day(value: Any, where: str) -> date | None:
    if value is None or (isinstance(value, date) and type(value) is date):
        return value
    raise RulesError(f"{where}: a date must be written as YYYY-MM-DD, not {value!r}")


def _figure(value: Any, where: str) -> Figure:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RulesError(f"{where}: a figure is an integer or a string (a decimal in quotes)")
    return value
