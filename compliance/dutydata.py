"""义务数据文件: data/duties.toml read into a DutyBook, and a DutyBook written back as
one (docs/platform-duties.md).

A malformed row raises RulesError on one line naming the file, the row and the field,
as the rule files do.
"""

from __future__ import annotations

import math
import re
import tomllib
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from compliance import ruletoml
from compliance.domain.duties.rows import CHECKS, Duty, DutyBook, Figure
from compliance.errors import RulesError
from compliance.ruledata import DATA_DIR
from compliance.streams import read_all

DUTIES_FILE = "duties.toml"
FIELDS = ("id", "check", "instrument", "article", "confidence", "severity")
OPTIONAL = ("valid_from", "valid_to", "figures", "source", "note")
RULE_KEYS = ("jurisdiction", "game_class", "game_type")
TOML_AT = re.compile(r"\(at line (\d+), column \d+\)")
KEY_AT = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
HEADER = (
    "# 平台义务: the platform's own duties (docs/platform-duties.md), exported by "
    "compliance rules export.\n"
    "# Each row: its check, the instrument and article, the confidence, the days in force\n"
    "# (inclusive), the severity of a breach, and its figures; `rule` says which test of\n"
    "# the check the row is.\n"
)


def duties_path(root: Path = DATA_DIR) -> Path:
    return root / DUTIES_FILE


def is_duties_doc(doc: dict[str, Any]) -> bool:
    """A TOML document of duty rows (`[[duty]]`), not a rule file."""
    return "duty" in doc and not any(k in doc for k in RULE_KEYS)


def read_duties_toml(path: Path) -> dict[str, Any]:
    """A rule or duties file's TOML (standard input for `-`); a syntax error inside a
    duty row names the row and the field of the line it is on."""
    try:
        text = read_all(path).decode("utf-8")
    except OSError as exc:
        raise RulesError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{path}{_place(text, str(exc))}: {exc}") from None


def _place(text: str, message: str) -> str:
    """` duty #N FIELD` for the line a TOML error names, or "" outside every row."""
    found = TOML_AT.search(message)
    if found is None:
        return ""
    lines = text.splitlines()[: int(found.group(1))]
    rows = sum(1 for line in lines if line.strip().startswith("[[duty]]"))
    if not rows:
        return ""
    key = KEY_AT.match(lines[-1]) if lines else None
    return f" duty #{rows}" + (f" {key.group(1)}" if key else "")


def load_duties(path: Path | None = None) -> DutyBook:
    """The duty rows of a file (data/duties.toml by default), checked."""
    path = path or duties_path()
    return duties_of(read_duties_toml(path), str(path))


def duties_of(doc: dict[str, Any], name: str) -> DutyBook:
    """The duty rows of a parsed duties document, checked; `name` is its file in errors."""
    rows = doc.get("duty", [])
    if not isinstance(rows, list):
        raise RulesError(f"{name}: duty must be an array of tables ([[duty]])")
    book = DutyBook([_duty(row, f"{name} duty #{n + 1}") for n, row in enumerate(rows)])
    problems = book.problems()
    if problems:
        raise RulesError(f"{name}: {problems[0]}")
    return book


def _duty(row: dict[str, Any], where: str) -> Duty:
    if not isinstance(row, dict):
        raise RulesError(f"{where}: not a table")
    for name in FIELDS:
        if not isinstance(row.get(name), str) or not row[name]:
            raise RulesError(f"{where} {name}: must be a non-empty string")
    where = f"{where} ({row['id']})"
    unknown = set(row) - {*FIELDS, *OPTIONAL}
    if unknown:
        raise RulesError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    if row["check"] not in CHECKS:
        raise RulesError(
            f"{where} check: unknown check {row['check']!r} (known: {', '.join(CHECKS)})"
        )
    figures = row.get("figures", {})
    if not isinstance(figures, dict):
        raise RulesError(f"{where} figures: must be a table ({{ rule = ... }})")
    for name in ("source", "note"):
        if not isinstance(row.get(name, ""), str):
            raise RulesError(f"{where} {name}: must be a string")
    return Duty(
        id=row["id"],
        check=row["check"],
        instrument=row["instrument"],
        article=row["article"],
        confidence=row["confidence"],
        severity=row["severity"],
        valid_from=_day(row.get("valid_from"), f"{where} valid_from"),
        valid_to=_day(row.get("valid_to"), f"{where} valid_to"),
        figures={str(k): _figure(v, f"{where} figures.{k}") for k, v in figures.items()},
        source=row.get("source", ""),
        note=row.get("note", ""),
    )


def _day(value: Any, where: str) -> date | None:
    if value is None or (isinstance(value, date) and type(value) is date):
        return value
    raise RulesError(f"{where}: a date must be written as YYYY-MM-DD, not {value!r}")


def _figure(value: Any, where: str) -> Figure:
    if isinstance(value, float) and not math.isfinite(value):
        raise RulesError(f"{where}: {value!r} is not a finite number")
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RulesError(f"{where}: a figure is an integer or a string (a decimal in quotes)")
    if isinstance(value, str):
        try:
            number = Decimal(value)
        except InvalidOperation:
            return value
        if not number.is_finite():
            raise RulesError(f"{where}: {value!r} is not a finite number")
    return value


def dumps_duties(book: DutyBook) -> str:
    """The rows as a duties.toml, grouped by check in the order of §7, so that
    `duties_of` of the text gives the same rows."""
    order = {code: n for n, code in enumerate(CHECKS)}
    rows = sorted(book.duties, key=lambda d: order.get(d.check, len(order)))
    out = [HEADER]
    check = None
    for d in rows:
        if d.check != check:
            check = d.check
            number, label = CHECKS.get(check, (0, check))
            out.append(f"\n# ── {number}. {label} ──\n")
        else:
            out.append("\n")
        out.append("[[duty]]\n" + "".join(f"{line}\n" for line in duty_lines(d)))
    return "".join(out)


def duty_lines(d: Duty) -> list[str]:
    lines = [f"{name} = {ruletoml.string(getattr(d, name))}" for name in FIELDS]
    for name in ("valid_from", "valid_to"):
        day = getattr(d, name)
        if day is not None:
            lines.append(f"{name} = {day.isoformat()}")
    figures = {"rule": d.figures["rule"]} if "rule" in d.figures else {}
    figures |= d.figures
    if figures:
        lines.append(f"figures = {ruletoml.inline(figures)}")
    lines += [
        f"{name} = {ruletoml.string(getattr(d, name))}"
        for name in ("source", "note")
        if getattr(d, name)
    ]
    return lines
