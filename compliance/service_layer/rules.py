"""规则: use cases of the rule tooling: read, check, diff, import, export, verify.

Each takes the unit of work (compliance.service_layer.unit_of_work); the CLI
parses options and calls one function here. The back-test is in backtest.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from compliance import ruledata, ruletoml
from compliance.db.trail import Verdict
from compliance.domain.rulecheck import Problem, check_book
from compliance.domain.rulediff import Change, diff_books, diff_dates
from compliance.domain.ruleedit import overlay
from compliance.domain.rules import RuleBook
from compliance.errors import RulesError
from compliance.service_layer.seeding import stored_rules
from compliance.service_layer.unit_of_work import UnitOfWork

DB = "db"


# reading rules ----------------------------------------------------------------


def read_files(paths: Iterable[Path]) -> RuleBook:
    """Rows of jurisdiction files (and games.toml) alone: a patch, not checked for references."""
    book = RuleBook()
    for path in paths:
        doc = ruledata.read_toml(path)
        if "jurisdiction" in doc:
            ruledata.add_jurisdiction_file(book, doc, path.name)
        elif "game_class" in doc or "game_type" in doc:
            ruledata.add_games(book, doc, path.name)
        else:
            raise RulesError(f"{path}: neither a jurisdiction file nor games.toml")
    return book


def expand(paths: Iterable[Path]) -> list[Path]:
    """Files as given; a folder gives its games.toml, then its (jurisdictions/) *.toml."""
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        if (path / "games.toml").exists():
            out.append(path / "games.toml")
        inner = path / "jurisdictions" if (path / "jurisdictions").is_dir() else path
        out += [p for p in sorted(inner.glob("*.toml")) if p.name != "games.toml"]
    return out


def read_source(path: Path) -> RuleBook:
    """A whole book from a data/-like folder; a lone file gives just its rows."""
    if path.is_dir() and (path / "jurisdictions").is_dir():
        return ruledata.load_book(path)
    return read_files(expand([path]))


def with_patch(base: RuleBook, paths: Iterable[Path]) -> RuleBook:
    """`base` with the rows of these files laid over it, references checked."""
    merged = overlay(base, read_files(expand(paths)))
    ruledata.check_references(merged)
    return merged


# checking and comparing -------------------------------------------------------


def check(book: RuleBook) -> list[Problem]:
    return check_book(book)


def diff_sources(
    uows: Callable[[], UnitOfWork], old: str, new: str, jurisdiction: str | None = None
) -> list[Change]:
    """Two versions of the data: `db`, a data/ folder, or files (a file is laid over the other side).

    The database is opened only when a side is `db`, and only once every other side exists.
    """
    for side in (old, new):
        if side != DB and not Path(side).exists():
            raise RulesError(
                f"{side}: no such file or folder (a version is db, a data/ folder or a file)"
            )
    full = {
        s: (stored_rules(uows()) if s == DB else ruledata.load_book(Path(s)))
        for s in (old, new)
        if s == DB or is_full(Path(s))
    }
    if old in full and new in full:
        return diff_books(full[old], full[new], jurisdiction)
    if old in full:
        return diff_books(full[old], with_patch(full[old], [Path(new)]), jurisdiction)
    if new in full:
        return diff_books(with_patch(full[new], [Path(old)]), full[new], jurisdiction)
    return diff_books(read_source(Path(old)), read_source(Path(new)), jurisdiction)


def is_full(path: Path) -> bool:
    return path.is_dir() and (path / "jurisdictions").is_dir()


def diff_days(
    book: RuleBook, first: date, second: date, jurisdiction: str | None = None
) -> list[Change]:
    return diff_dates(book, first, second, jurisdiction)


# import, export, trail --------------------------------------------------------


@dataclass
class ImportResult:
    changes: list[Change]
    counts: dict[str, tuple[int, int]]


def import_files(
    uow: UnitOfWork, paths: list[Path], reason: str, actor: str | None = None
) -> ImportResult:
    """Validate rule files against the stored book and store their rows, with a trail entry each.

    Refused (RulesError, nothing stored) when a row is malformed or lacks its
    source, or when the files would bring a fault `rules check` finds. Into a
    database without rules the files alone are stored (data/ is not seeded first).
    """
    if not reason.strip():
        raise RulesError("an import needs a reason (--reason)")
    with uow:
        base = uow.rules.load() if uow.rules.has_any() else RuleBook()
    files = expand(paths)
    patch = read_files(files)
    merged = overlay(base, patch)
    try:
        ruledata.check_references(merged)
    except RulesError as exc:
        if not base.bands:
            raise RulesError(
                f"{exc} (the database has no rules yet: import a whole data/ "
                "folder, or run `compliance db seed` first)"
            ) from None
        raise
    known = set(check_book(base))
    fresh = [p for p in check_book(merged) if p not in known]
    if fresh:
        raise RulesError("refused: " + "; ".join(p.describe() for p in fresh))
    with uow:
        counts = uow.rules.save(patch, actor, reason)
        uow.commit()
    return ImportResult(diff_books(base, merged), counts)


def export(uow: UnitOfWork, out: Path) -> list[Path]:
    """The stored rule book as data/-layout TOML files under `out`."""
    return ruletoml.export_book(stored_rules(uow), out)


def verify(uow: UnitOfWork) -> Verdict:
    with uow:
        return uow.trail.verify()


def history(uow: UnitOfWork, limit: int | None = None) -> list[dict[str, Any]]:
    with uow:
        return uow.trail.entries(limit)
