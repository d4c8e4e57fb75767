"""单元格: text from logs made inert where it goes: spreadsheets, Markdown tables, terminals.

One CSV writer serves `audit --format csv` and `report --format csv`: it quotes
every field holding a delimiter, a quote, CR or LF (the csv module leaves a lone
CR bare under `lineterminator="\\n"`, and a spreadsheet starts a row there) and
neutralises text that a spreadsheet would run as a formula (OWASP: a leading `'`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_QUOTE_IF = re.compile(r'[,"\r\n]')
# C0 (but space), DEL, C1, and the bidi embeddings, overrides and isolates
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula; numbers stay numbers."""
    text = isinstance(value, str)
    if text and value.lstrip(" ").startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_value(value: Any) -> Any:
    """A finding's value as both CSVs write it: `true`/`false` as JSON writes them, whole
    numbers without `.0`, lists joined by `; `."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return "; ".join(map(str, value))
    if isinstance(value, dict):
        return str(value)
    return value


def csv_field(value: Any) -> str:
    """One field as the csv module's QUOTE_MINIMAL writes it, CR counted as a line end."""
    text = "" if value is None else str(value)
    if _QUOTE_IF.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


class CsvWriter:
    """CSV 写出: rows of `columns`, each cell made safe, one `\\n` per row."""

    def __init__(self, out: IO[str], columns: Sequence[str]):
        self.out = out
        self.columns = tuple(columns)
        self.out.write(self.line(self.columns))

    def line(self, values: Iterable[Any]) -> str:
        return ",".join(csv_field(safe_cell(v)) for v in values) + "\n"

    def writerow(self, row: Mapping[str, Any]) -> None:
        self.out.write(self.line(row.get(k) for k in self.columns))


def printable(text: str, keep_newlines: bool = False) -> str:
    """可显示: control characters and bidi overrides as `\\x1b`-style escapes, for a terminal;
    everything else (CJK included) as it is."""
    pattern = _CONTROL_BUT_NEWLINE if keep_newlines else _CONTROL
    return pattern.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def display_width(text: str) -> int:
    """终端宽度: columns a terminal gives `text`, East Asian wide and full-width characters
    two each, combining marks none."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def pad(text: str, width: int, align: str = "<") -> str:
    """`text` padded with spaces to `width` terminal columns (never cut)."""
    gap = " " * max(0, width - display_width(text))
    return gap + text if align == ">" else text + gap


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns, broken at spaces, or inside a word
    (CJK has none) that alone is wider."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if display_width(candidate) <= width:
            line = candidate
            continue
        if display_width(word) <= width:
            lines.append(line)
            line = word
            continue
        line = f"{line} " if line and display_width(line) < width else line
        for ch in word:
            if display_width(line + ch) > width:
                lines.append(line.rstrip())
                line = ""
            line += ch
    if line or not lines:
        lines.append(line)
    return lines
