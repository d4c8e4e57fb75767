"""义务变更: what an import of duty rows adds and changes, field by field, as the rule
diff says it of bands (`rules import` prints both)."""

from __future__ import annotations

from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.rulediff import Change, words

TABLE = "duties"
TEXT_FIELDS = ("check", "instrument", "article", "confidence", "severity")


def _figure_text(value: object) -> str:
    """A figure as written in the file: a string in quotes, so "60" and 60 differ."""
    return f'"{value}"' if isinstance(value, str) else str(value)


def duty_fields(d: Duty) -> dict[str, str]:
    """Every field of a row as text; each figure a field of its own (`figures.minutes`)."""
    out = {name: getattr(d, name) for name in TEXT_FIELDS}
    out |= {"valid_from": words(d.valid_from), "valid_to": words(d.valid_to)}
    out |= {f"figures.{k}": _figure_text(v) for k, v in sorted(d.figures.items())}
    return out | {"source": d.source, "note": d.note}


def overlay_duties(base: DutyBook, patch: DutyBook) -> DutyBook:
    """`base` with the rows of `patch` in place of those with the same id, new ones after."""
    fresh = {d.id: d for d in patch.duties}
    kept = [fresh.pop(d.id, d) for d in base.duties]
    return DutyBook(kept + list(fresh.values()))


def diff_duties(old: DutyBook, new: DutyBook) -> list[Change]:
    """Rows added, removed and changed from `old` to `new`, by id."""
    before = {d.id: duty_fields(d) for d in old.duties}
    after = {d.id: duty_fields(d) for d in new.duties}
    changes = []
    for key in sorted(before.keys() | after.keys()):
        a, b = before.get(key, {}), after.get(key, {})
        if not a:
            shown = tuple((n, "", b[n]) for n in ("check", "severity"))
            changes.append(Change("added", TABLE, key, shown))
        elif not b:
            changes.append(Change("removed", TABLE, key))
        elif a != b:
            fields = tuple(
                (n, a.get(n, ""), b.get(n, ""))
                for n in dict.fromkeys([*a, *b])
                if a.get(n, "") != b.get(n, "")
            )
            changes.append(Change("changed", TABLE, key, fields))
    return changes
