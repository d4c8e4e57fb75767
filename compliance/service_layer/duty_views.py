"""义务条目视图: the duty rows read, checked and shown (`rules check`, `rules show platform`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from compliance.domain.duties.calendar import CALENDAR, YEARS
from compliance.domain.duties.rows import CHECKS, DutyBook
from compliance.dutydata import DUTIES_FILE, duties_path, load_duties
from compliance.service_layer.rules import DB
from compliance.service_layer.seeding import ensure_duties
from compliance.service_layer.unit_of_work import UnitOfWorkFactory

PLATFORM = ("platform", "平台", "duties")
"""What `rules show` takes to show the platform's duties instead of a jurisdiction's."""


def is_duties_file(path: Path) -> bool:
    return path.name == DUTIES_FILE


def read_duties(source: str, uows: UnitOfWorkFactory, paths: Sequence[Path] = ()) -> DutyBook:
    """The duty rows: a duties.toml among `paths`, or a data/ folder's, else the store's
    (seeded on first use) for `db`, else the folder `source` names (or the shipped one)."""
    for path in paths:
        if is_duties_file(path):
            return load_duties(path)
        if path.is_dir() and (path / DUTIES_FILE).exists():
            return load_duties(path / DUTIES_FILE)
    if source == DB:
        with uows() as uow:
            return ensure_duties(uow)
    folder = Path(source)
    if folder.is_dir() and (folder / DUTIES_FILE).exists():
        return load_duties(folder / DUTIES_FILE)
    return load_duties(duties_path())


@dataclass(frozen=True)
class DutyCheck:
    rows: int
    checks: int
    problems: list[str]

    def summary(self) -> str:
        n = len(self.problems)
        return (
            f"checked {self.rows} duty rows of {self.checks} checks: "
            f"{n or 'no'} problem{'s' if n != 1 else ''}"
        )


def check_duties(book: DutyBook) -> DutyCheck:
    return DutyCheck(len(book.duties), len({d.check for d in book.duties}), book.problems())


def show_duties(book: DutyBook, as_of: date | None = None) -> dict[str, Any]:
    """平台义务: the rows in force on `as_of` (default today), by check."""
    day = as_of or date.today()
    rows = [d for d in book.duties if d.in_force(day)]
    return {
        "as_of": day.isoformat(),
        "calendar": f"{CALENDAR}, years {YEARS}",
        "checks": [
            {
                "check": code,
                "number": number,
                "label": label,
                "duties": [
                    {
                        "id": d.id,
                        "severity": d.severity,
                        "instrument": d.instrument,
                        "article": d.article,
                        "confidence": d.confidence,
                        "valid_from": d.valid_from.isoformat() if d.valid_from else None,
                        "valid_to": d.valid_to.isoformat() if d.valid_to else None,
                        "figures": {k: str(v) for k, v in d.figures.items()},
                        "note": d.note,
                    }
                    for d in rows
                    if d.check == code
                ],
            }
            for code, (number, label) in CHECKS.items()
        ],
    }


def duties_text(shown: dict[str, Any]) -> str:
    lines = [f"platform duties in force on {shown['as_of']} (holidays: {shown['calendar']})"]
    for check in shown["checks"]:
        lines.append(f"  {check['number']}. {check['label']}  [{check['check']}]")
        if not check["duties"]:
            lines.append("    no row in force")
        for d in check["duties"]:
            figures = ", ".join(f"{k} {v}" for k, v in d["figures"].items())
            span = f"{d['valid_from'] or '…'} to {d['valid_to'] or '…'}"
            lines += [
                f"    {d['id']} ({d['severity']}): {figures}",
                f"      {d['instrument']} {d['article']} · confidence {d['confidence']} · {span}",
            ]
    return "\n".join(lines)
