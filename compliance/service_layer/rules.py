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

from compliance import dutydata, ruledata, ruletoml
from compliance.domain.duties.diff import diff_duties, overlay_duties
from compliance.domain.duties.rows import DutyBook
from compliance.domain.rulecheck import Problem, check_book
from compliance.domain.rulediff import Change, diff_books, diff_dates
from compliance.domain.ruleedit import overlay
from compliance.domain.rules import RuleBook
from compliance.domain.trail import Verdict
from compliance.errors import BadValueError, RulesError
from compliance.service_layer.seeding import ensure_duties, stored_rules
from compliance.service_layer.unit_of_work import UnitOfWork

DB = "db"


# reading rules ----------------------------------------------------------------


def read_files(paths: Iterable[Path]) -> RuleBook:
    """Rows of jurisdiction files (and games.toml) alone: a patch, not checked for references.
    A duties.toml among them is left to the duty rows' reader."""
    return _rule_patch(
        [(p, doc) for p, doc in _documents(paths) if not dutydata.is_duties_doc(doc)]
    )


def _documents(paths: Iterable[Path]) -> list[tuple[Path, dict[str, Any]]]:
    """Each file's TOML, read once (standard input cannot be read twice)."""
    return [(p, dutydata.read_duties_toml(p)) for p in paths]


def _rule_patch(docs: Iterable[tuple[Path, dict[str, Any]]]) -> RuleBook:
    book = RuleBook()
    for path, doc in docs:
        if "jurisdiction" in doc:
            ruledata.add_jurisdiction_file(book, doc, path.name)
        elif "game_class" in doc or "game_type" in doc:
            ruledata.add_games(book, doc, path.name)
        else:
            raise RulesError(f"{path}: neither a jurisdiction file, games.toml nor duties.toml")
    return book


def expand(paths: Iterable[Path]) -> list[Path]:
    """Files as given; a folder gives its games.toml and duties.toml, then its
    (jurisdictions/) *.toml."""
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        out += [path / n for n in ("games.toml", dutydata.DUTIES_FILE) if (path / n).exists()]
        inner = path / "jurisdictions" if (path / "jurisdictions").is_dir() else path
        out += [
            p
            for p in sorted(inner.glob("*.toml"))
            if p.name not in ("games.toml", dutydata.DUTIES_FILE)
        ]
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
    uow: UnitOfWork,
    paths: list[Path],
    reason: str,
    actor: str | None = None,
    delete_absent: bool = False,
    dry_run: bool = False,
) -> ImportResult:
    """Validate rule files against the stored book and store their rows, with a trail entry each.

    Refused (RulesError, nothing stored) when a row is malformed or lacks its
    source, or when the files would bring a fault `rules check` finds. Into a
    database without rules the files alone are stored (data/ is not seeded first).
    A duties.toml (the platform's duty rows) is checked as `rules check` checks it and
    its rows stored over the stored duties (seeded from data/ on first use, as every
    reader of them does); rule files and duty rows are stored together or not at all.
    With `delete_absent` the stored duty rows that no duties file names are deleted
    (each deletion a trail entry): the files are then the whole of the duty rows.
    A `dry_run` checks and lists the same changes and stores none of them.
    """
    if not reason.strip():
        raise RulesError("an import needs a reason (--reason)")
    docs = _documents(expand(paths))
    duty_docs = [(p, doc) for p, doc in docs if dutydata.is_duties_doc(doc)]
    if delete_absent and not duty_docs:
        raise BadValueError("--delete-absent deletes duty rows: give a duties.toml")
    rule_docs = [(p, doc) for p, doc in docs if not dutydata.is_duties_doc(doc)]
    duties = _duty_patch(duty_docs)
    if rule_docs:
        changes, save_rules = _rules_import(uow, rule_docs)
    else:
        changes, save_rules = [], None
    counts: dict[str, tuple[int, int]] = {}
    with uow:
        stored = ensure_duties(uow, actor) if duty_docs else DutyBook()
        merged = overlay_duties(stored, duties)
        named = {d.id for d in duties.duties}
        absent = {d.id for d in stored.duties if d.id not in named} if delete_absent else set()
        if absent:
            merged = DutyBook([d for d in merged.duties if d.id not in absent])
        known_duties = set(stored.problems())
        problems = [p for p in merged.problems() if p not in known_duties]
        if problems:
            raise RulesError("refused: " + "; ".join(problems))
        if save_rules is not None:
            counts = uow.rules.save(save_rules, actor, reason)
        if duty_docs:
            counts["duties"] = uow.duties.save(duties, actor, reason)
            uow.duties.delete(absent, actor, reason)
        if not dry_run:
            uow.commit()
    return ImportResult(changes + diff_duties(stored, merged), counts)


def _duty_patch(docs: list[tuple[Path, dict[str, Any]]]) -> DutyBook:
    """The duty rows of every duties file, each file checked, no id named twice."""
    patch = DutyBook([d for p, doc in docs for d in dutydata.duties_of(doc, str(p)).duties])
    seen: set[str] = set()
    for d in patch.duties:
        if d.id in seen:
            raise RulesError(f"duty {d.id}: named in two duties files")
        seen.add(d.id)
    return patch


def _rules_import(
    uow: UnitOfWork, docs: list[tuple[Path, dict[str, Any]]]
) -> tuple[list[Change], RuleBook]:
    """The changes rule files bring to the stored book, and the patch to store; refused
    (RulesError) as `import_files` says."""
    with uow:
        base = uow.rules.load() if uow.rules.has_any() else RuleBook()
    patch = _rule_patch(docs)
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
    return diff_books(base, merged), patch


def export(uow: UnitOfWork, out: Path) -> list[Path]:
    """The stored rule book and duty rows as data/-layout TOML files under `out`
    (games.toml, jurisdictions/*.toml, duties.toml)."""
    written = ruletoml.export_book(stored_rules(uow), out)
    with uow:
        duties = ensure_duties(uow)
    path = out / dutydata.DUTIES_FILE
    path.write_text(dutydata.dumps_duties(duties), encoding="utf-8")
    return [*written, path]


def verify(uow: UnitOfWork) -> Verdict:
    with uow:
        return uow.trail.verify()


def history(uow: UnitOfWork, limit: int | None = None) -> list[dict[str, Any]]:
    with uow:
        return uow.trail.entries(limit)
