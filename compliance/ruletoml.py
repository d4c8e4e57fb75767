"""规则导出: a rule book written back as the TOML files of docs/rules-data.md.

A small serializer for the shapes the format uses (strings, numbers, booleans,
dates, lists of scalars, and conditions as inline tables), so that export then
`ruledata.load_book` gives an equal book. Rows go to the file of their
jurisdiction (penalties: their instrument's; wages: their city's), in the book's
order, bands in their `seq` order, so the round trip keeps tie-breaking.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

from compliance.domain.rules import Comparison, Condition, RuleBook
from compliance.errors import RulesError

SKIP = {"jurisdiction", "seq"}
RENAME = {"condition": "when", "game_class": "class"}
SECTIONS = (
    ("instrument", "instruments"),
    ("band", "bands"),
    ("penalty", "penalties"),
    ("exemption", "exemptions"),
    ("aggravation", "aggravations"),
    ("wage", "wages"),
    ("multiplier", "multipliers"),
)
BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def string(text: str) -> str:
    """A TOML basic string; multi-line (\"\"\") where the text has line breaks."""
    if "\n" in text and not text.startswith(("\n", "\r")):
        body = "".join(_escape(ch, keep_newline=True) for ch in text)
        return f'"""{body}"""'
    return '"' + "".join(_escape(ch) for ch in text) + '"'


def _escape(ch: str, keep_newline: bool = False) -> str:
    if keep_newline and ch == "\n":
        return ch
    if ch in ESCAPES:
        return ESCAPES[ch]
    if ord(ch) < 0x20 or ord(ch) == 0x7F:
        return f"\\u{ord(ch):04x}"
    return ch


def number(value: Decimal | int | float) -> str:
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    d = Decimal(str(value))
    if d == d.to_integral_value():
        return str(int(d))
    return format(d.normalize(), "f")


def value(v: Any) -> str:
    """One value in TOML."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Enum):
        return string(v.name.lower())
    if isinstance(v, (int, float, Decimal)):
        return number(v)
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, str):
        return string(v)
    if isinstance(v, Comparison | Condition):
        return inline(v.to_dict())
    if isinstance(v, dict):
        return inline(v)
    if isinstance(v, frozenset):
        return "[" + ", ".join(value(x) for x in sorted(v)) + "]"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def key(name: str) -> str:
    return name if BARE_KEY.match(name) else string(name)


def inline(table: dict[str, Any]) -> str:
    return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in table.items()) + " }"


def condition(clause: Comparison | Condition) -> str:
    """A `when`: a top-level all/any spreads its members one a line, as the files do."""
    if isinstance(clause, Comparison):
        return inline(clause.to_dict())
    members = "".join(f"  {inline(p.to_dict())},\n" for p in clause.parts)
    return f"{{ {clause.mode} = [\n{members}] }}"


def row_lines(row: Any) -> list[str]:
    lines = []
    for f in dataclasses.fields(row):
        if f.name in SKIP:
            continue
        v = getattr(row, f.name)
        if v is None or (isinstance(v, frozenset) and not v):
            continue
        name = RENAME.get(f.name, f.name)
        text = condition(v) if f.name == "condition" else value(v)
        lines.append(f"{key(name)} = {text}")
    return lines


def _section(name: str, rows: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for row in rows:
        out += ["", f"[[{name}]]", *row_lines(row)]
    return out


def dumps_games(book: RuleBook) -> str:
    lines = [
        "# Game classes and game types (docs/rules-data.md), exported by compliance rules export."
    ]
    lines += _section("game_class", book.game_classes.values())
    lines += _section("game_type", book.game_types.values())
    return "\n".join(lines) + "\n"


def rows_by_file(book: RuleBook, code: str) -> dict[str, list[Any]]:
    """Each section's rows that belong in the file of jurisdiction `code`."""

    def home(row: Any) -> str | None:
        if hasattr(row, "city"):
            return row.city if row.city in book.jurisdictions else "000000"
        inst = getattr(row, "instrument", None)
        if inst is not None and not hasattr(row, "jurisdiction"):
            return book.instruments[inst].jurisdiction if inst in book.instruments else None
        return getattr(row, "jurisdiction", None)

    out: dict[str, list[Any]] = {}
    for section, attr in SECTIONS:
        rows = getattr(book, attr)
        rows = rows.values() if isinstance(rows, dict) else rows
        mine = [r for r in rows if home(r) == code]
        if section == "band":
            mine.sort(key=lambda b: b.seq)
        out[section] = mine
    return out


def dumps_jurisdiction(book: RuleBook, code: str) -> str:
    j = book.jurisdictions[code]
    lines = [
        f"# {j.name_zh} ({j.name_en}), exported by compliance rules export.",
        "",
        "[jurisdiction]",
        *row_lines(j),
    ]
    for section, rows in rows_by_file(book, code).items():
        lines += _section(section, rows)
    return "\n".join(lines) + "\n"


def file_name(book: RuleBook, code: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", book.jurisdictions[code].name_en.lower()).strip("-")
    return f"{code}-{slug or 'jurisdiction'}.toml"


def export_book(book: RuleBook, out: Path) -> list[Path]:
    """Write games.toml and jurisdictions/*.toml under `out`, the layout of data/."""
    folder = out / "jurisdictions"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {code: _inside(folder, file_name(book, code)) for code in sorted(book.jurisdictions)}
    written = [_inside(out, "games.toml")]
    written[0].write_text(dumps_games(book), encoding="utf-8")
    for code, path in paths.items():
        path.write_text(dumps_jurisdiction(book, code), encoding="utf-8")
        written.append(path)
    return written


def _inside(folder: Path, name: str) -> Path:
    """`folder / name`, or RulesError when that file would be anywhere but in `folder`."""
    path = folder / name
    if path.resolve().parent != folder.resolve():
        raise RulesError(f"refused to write {str(path)!r}: it is not a file of {str(folder)!r}")
    return path
