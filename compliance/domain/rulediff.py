"""规则比较: what changed between two rule books, row by row and field by field.

Two versions of the data (a folder, a file, the database) are compared by row
key; two dates are compared as the rows in force on each (an instrument that
comes into force brings its bands in as "added"). Field values are shown in
words, conditions as comparisons (≥ 以上, ≤ 以下, < 不满, > 超过).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Any

from compliance.domain.rulecheck import in_force
from compliance.domain.rules import Clause, Comparison, Condition, RuleBook
from compliance.domain.ruleset import Resolver

COMPOSITE_KEYS = {"wages": ("city", "year"), "multipliers": ("jurisdiction", "game_class")}
IGNORED = {"seq"}


@dataclass(frozen=True, slots=True)
class Change:
    """一处变更: a row added, removed or changed, with the fields that differ."""

    kind: str
    table: str
    key: str
    fields: tuple[tuple[str, str, str], ...] = ()
    inherited_from: str | None = None  # the jurisdiction above whose row this is

    def lines(self) -> list[str]:
        sign = {"added": "+", "removed": "-", "changed": "~"}[self.kind]
        via = f"  (inherited from {self.inherited_from})" if self.inherited_from else ""
        out = [f"{sign} {self.table} {self.key}{via}"]
        if self.kind == "added":
            out += [f"    {name}: {after or '—'}" for name, _, after in self.fields]
        else:
            out += [
                f"    {name}: {before or '—'} → {after or '—'}"
                for name, before, after in self.fields
            ]
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "table": self.table,
            "key": self.key,
            "inherited_from": self.inherited_from,
            "fields": [{"field": n, "before": b, "after": a} for n, b, a in self.fields],
        }


def condition_words(clause: Clause | None) -> str:
    """A condition as one line: `single_stake ≥ 20 and ≤ 50 or session_win_loss ≥ 2000`."""
    if clause is None:
        return "always (no condition)"
    if isinstance(clause, Comparison):
        return clause.describe()
    return f" {'and' if clause.mode == 'all' else 'or'} ".join(
        f"({condition_words(p)})" if _compound(p) else condition_words(p) for p in clause.parts
    )


def _compound(clause: Clause) -> bool:
    if isinstance(clause, Condition):
        return True
    return sum(getattr(clause, k) is not None for k in ("min", "above", "max", "below")) > 1


def words(value: Any) -> str:
    """One field value as text, the same whatever store it came from."""
    if value is None:
        return ""
    if isinstance(value, Enum):
        return value.name.lower()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (Comparison, Condition)):
        return condition_words(value)
    if isinstance(value, frozenset):
        return ", ".join(sorted(words(v) for v in value))
    if isinstance(value, (tuple, list)):
        return ", ".join(words(v) for v in value)
    return str(value)


def row_key(table: str, row: Any) -> str:
    if table in COMPOSITE_KEYS:
        return " ".join(str(getattr(row, f)) for f in COMPOSITE_KEYS[table])
    for name in ("id", "code"):
        if hasattr(row, name):
            return str(getattr(row, name))
    return repr(row)


def rows_of(book: RuleBook) -> dict[str, dict[str, dict[str, str]]]:
    """Every row of the book as {table: {key: {field: text}}}."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for f in dataclasses.fields(book):
        value = getattr(book, f.name)
        items = value.values() if isinstance(value, dict) else value
        out[f.name] = {
            row_key(f.name, row): {
                g.name: condition_words(row.condition)
                if g.name == "condition"
                else words(getattr(row, g.name))
                for g in dataclasses.fields(row)
                if g.name not in IGNORED
            }
            for row in items
        }
    return out


def _jurisdiction_of(book: RuleBook, table: str, row: dict[str, str]) -> str | None:
    if table == "jurisdictions":
        return row.get("code")
    if "jurisdiction" in row:
        return row["jurisdiction"]
    if "instrument" in row and row["instrument"] in book.instruments:
        return book.instruments[row["instrument"]].jurisdiction
    return row.get("city")


def inherited(book: RuleBook, code: str) -> tuple[str, ...]:
    """The jurisdiction and those above it whose rows apply there (湖南 → 000000)."""
    if code not in book.jurisdictions:
        return (code,)
    return tuple(j.code for j in Resolver(book).chain(book.jurisdictions[code]))


def diff_books(old: RuleBook, new: RuleBook, jurisdiction: str | None = None) -> list[Change]:
    """Rows added, removed and changed from `old` to `new`; of one jurisdiction, its own rows
    and those it inherits (the province's, the nation's), each marked with where it is from."""
    before, after = rows_of(old), rows_of(new)
    chain: tuple[str, ...] = ()
    if jurisdiction is not None:
        chain = tuple(dict.fromkeys([*inherited(old, jurisdiction), *inherited(new, jurisdiction)]))
    changes: list[Change] = []
    for table in before:
        a, b = before[table], after.get(table, {})
        for key in sorted(a.keys() | b.keys()):
            ra, rb = a.get(key), b.get(key)
            via = None
            if jurisdiction is not None:
                # a key missing from one side is in the other
                book, row = (new, rb) if rb is not None else (old, a[key])
                owner = _jurisdiction_of(book, table, row)
                if owner not in chain or (table == "jurisdictions" and owner != jurisdiction):
                    continue
                via = owner if owner != jurisdiction else None
            if ra is None:
                changes.append(Change("added", table, key, _fields({}, b[key]), via))
            elif rb is None:
                changes.append(Change("removed", table, key, inherited_from=via))
            elif ra != rb:
                changes.append(Change("changed", table, key, _fields(ra, rb), via))
    return changes


def _fields(a: dict[str, str], b: dict[str, str]) -> tuple[tuple[str, str, str], ...]:
    if not a:
        return tuple((n, "", v) for n, v in b.items() if n in ("tier", "condition", "title"))
    return tuple((n, a.get(n, ""), b.get(n, "")) for n in b if a.get(n, "") != b.get(n, ""))


def book_on(book: RuleBook, day: date) -> RuleBook:
    """The part of the book in force on `day`: default versions, their bands and penalties."""
    live = in_force(book, day)
    return dataclasses.replace(
        book,
        instruments={k: v for k, v in book.instruments.items() if k in live},
        bands=[b for b in book.bands if b.instrument in live],
        penalties=[p for p in book.penalties if p.instrument in live],
        exemptions=[e for e in book.exemptions if e.instrument in live],
        aggravations=[a for a in book.aggravations if a.instrument in live and a.in_force(day)],
    )


def diff_dates(
    book: RuleBook, first: date, second: date, jurisdiction: str | None = None
) -> list[Change]:
    """What comes into and goes out of force between two dates."""
    return diff_books(book_on(book, first), book_on(book, second), jurisdiction)


def summarise(changes: Iterable[Change]) -> str:
    counts = {"added": 0, "removed": 0, "changed": 0}
    for c in changes:
        counts[c.kind] += 1
    return ", ".join(f"{n} {k}" for k, n in counts.items())
