"""规则修改: a rule book changed by a patch of rows or by one bound, never in place.

`overlay` applies rows the way an import stores them: a row replaces the row
with the same key, new rows are added, rows the patch does not name stay.
`set_bound` moves one bound of one band: `BAND.METRIC.BOUND=VALUE`, e.g.
`hn-2015-general-stake.single_stake.max=100`; `none` removes the bound.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Any

from compliance.domain.rulediff import row_key
from compliance.domain.rules import (
    BOUND_KEYS,
    Clause,
    Comparison,
    Condition,
    RuleBook,
    finite_number,
)
from compliance.errors import BadValueError, RulesError, did_you_mean

RIVAL = {"min": "above", "above": "min", "max": "below", "below": "max"}
SETTING = re.compile(
    r"^(?P<band>[^=]+)\.(?P<metric>[a-z_]+)\.(?P<bound>min|max|above|below)"
    r"=(?P<value>.+)$"
)


def overlay(base: RuleBook, patch: RuleBook) -> RuleBook:
    """`base` with the rows of `patch` added or replacing theirs by key."""
    out: dict[str, Any] = {}  # each field's rows, of that field's own type
    for f in dataclasses.fields(base):
        mine, theirs = getattr(base, f.name), getattr(patch, f.name)
        if isinstance(mine, dict):
            out[f.name] = {**mine, **theirs}
            continue
        rows = {row_key(f.name, r): r for r in mine}
        rows.update({row_key(f.name, r): r for r in theirs})
        out[f.name] = list(rows.values())
    return RuleBook(**out)


@dataclasses.dataclass(frozen=True, slots=True)
class BoundSetting:
    """One changed bound, as given on the command line."""

    band: str
    metric: str
    bound: str
    value: Decimal | None

    @classmethod
    def parse(cls, text: str) -> BoundSetting:
        """BadValueError, naming the part at fault, for what is not BAND.METRIC.BOUND=VALUE."""
        m = SETTING.match(text.strip())
        if not m:
            bound = text.partition("=")[0].rpartition(".")[2].strip()
            raise BadValueError(
                f"bad setting {text!r}: expected BAND.METRIC.BOUND=VALUE, BOUND one "
                "of min, max, above, below (e.g. hn-2015-general-stake.single_stake.max=100)"
                + (
                    f"; unknown bound {bound!r}{did_you_mean(bound, BOUND_KEYS)}"
                    if "=" in text and bound
                    else ""
                )
            )
        raw = m["value"].strip()
        try:
            value = None if raw.lower() == "none" else finite_number(raw, f"bad setting {text!r}")
        except RulesError as exc:
            raise BadValueError(str(exc)) from None
        return cls(m["band"], m["metric"], m["bound"], value)

    def describe(self) -> str:
        return f"{self.band}.{self.metric}.{self.bound}={self.value if self.value is not None else 'none'}"


def set_bound(book: RuleBook, setting: BoundSetting) -> RuleBook:
    """A copy of the book with the bound moved on every comparison of that metric in that band."""
    found = False
    bands = []
    for band in book.bands:
        if band.id == setting.band:
            found = True
            condition, hits = _moved(band.condition, setting)
            if not hits:
                raise BadValueError(
                    f"band {band.id} has no comparison on {setting.metric}"
                    + did_you_mean(setting.metric, _metrics(band.condition))
                )
            band = dataclasses.replace(band, condition=condition)
        bands.append(band)
    if not found:
        raise BadValueError(
            f"unknown band {setting.band!r}"
            + did_you_mean(setting.band, [b.id for b in book.bands])
        )
    return dataclasses.replace(book, bands=bands)


def _moved(clause: Clause | None, s: BoundSetting) -> tuple[Clause | None, int]:
    if clause is None:
        return None, 0
    return _moved_clause(clause, s)


def _moved_clause(clause: Clause, s: BoundSetting) -> tuple[Clause, int]:
    if isinstance(clause, Condition):
        parts: list[Clause] = []
        hits = 0
        for part in clause.parts:
            moved, n = _moved_clause(part, s)
            parts.append(moved)
            hits += n
        return Condition(clause.mode, tuple(parts)), hits
    if clause.metric != s.metric:
        return clause, 0
    bounds = {k: getattr(clause, k) for k in BOUND_KEYS}
    bounds[s.bound] = s.value
    if s.value is not None:
        bounds[RIVAL[s.bound]] = None
    if all(v is None for v in bounds.values()):
        raise BadValueError(f"{s.describe()} leaves a comparison on {s.metric} without a bound")
    return Comparison(clause.metric, **bounds), 1


def _metrics(clause: Clause | None) -> list[str]:
    if clause is None:
        return []
    if isinstance(clause, Condition):
        return [m for part in clause.parts for m in _metrics(part)]
    return [clause.metric]
