"""Use cases of the rule tooling: read, check, diff, import, export, verify, back-test.

Each takes a unit of work (compliance.db.rules_uow.RulesUnitOfWork, or a fake);
the CLI parses options and calls one function here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

from compliance import ruledata, ruletoml
from compliance.db.trail import Verdict
from compliance.domain.classifier import Classifier, ClassifierOptions, PlayerFacts, SessionFacts
from compliance.domain.findings import ThresholdFinding
from compliance.domain.metrics import PlayerMetrics, SessionMetrics
from compliance.domain.rulecheck import Problem, check_book
from compliance.domain.rulediff import Change, diff_books, diff_dates
from compliance.domain.ruleedit import BoundSetting, overlay, set_bound
from compliance.domain.rules import RuleBook
from compliance.domain.ruleset import Resolver
from compliance.domain.windows import judge_window
from compliance.errors import JurisdictionError, RulesError

DB = "db"


class RulesUnitOfWork(Protocol):
    def __enter__(self) -> RulesUnitOfWork: ...
    def __exit__(self, *exc) -> None: ...
    def commit(self) -> None: ...
    def load_rules(self) -> RuleBook: ...
    def has_rules(self) -> bool: ...
    def save_rules(
        self, book: RuleBook, actor: str | None = None, reason: str = ""
    ) -> dict[str, tuple[int, int]]: ...
    def verify_rules(self) -> Verdict: ...
    def rule_changes(self, limit: int | None = None) -> list[dict[str, Any]]: ...
    def stored_sessions(self) -> Iterable[tuple[dict[str, Any], list[dict[str, Any]]]]: ...
    def window_scope(self) -> tuple[set[str], date | None]: ...
    def window_figures(self, platforms: set[str], start: date, end: date) -> list: ...


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


def stored_rules(uow: RulesUnitOfWork, actor: str | None = None) -> RuleBook:
    """The database's rule book; a database without rules is seeded from data/ first."""
    with uow:
        if not uow.has_rules():
            uow.save_rules(ruledata.load_book(), actor, "first use: seeded from data/")
            uow.commit()
        return uow.load_rules()


def seed(
    uow: RulesUnitOfWork, reason: str = "seed from data/", actor: str | None = None
) -> dict[str, tuple[int, int]]:
    """Load data/ into the database (idempotent), each change in the trail with who and why."""
    book = ruledata.load_book()
    with uow:
        counts = uow.save_rules(book, actor, reason)
        uow.commit()
    return counts


def with_patch(base: RuleBook, paths: Iterable[Path]) -> RuleBook:
    """`base` with the rows of these files laid over it, references checked."""
    merged = overlay(base, read_files(expand(paths)))
    ruledata.check_references(merged)
    return merged


# checking and comparing -------------------------------------------------------


def check(book: RuleBook) -> list[Problem]:
    return check_book(book)


def diff_sources(
    uow: RulesUnitOfWork, old: str, new: str, jurisdiction: str | None = None
) -> list[Change]:
    """Two versions of the data: `db`, a data/ folder, or files (a file is laid over the other side)."""
    full = {
        s: (stored_rules(uow) if s == DB else ruledata.load_book(Path(s)))
        for s in (old, new)
        if s == DB or _is_full(Path(s))
    }
    if old in full and new in full:
        return diff_books(full[old], full[new], jurisdiction)
    if old in full:
        return diff_books(full[old], with_patch(full[old], [Path(new)]), jurisdiction)
    if new in full:
        return diff_books(with_patch(full[new], [Path(old)]), full[new], jurisdiction)
    return diff_books(read_source(Path(old)), read_source(Path(new)), jurisdiction)


def _is_full(path: Path) -> bool:
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
    uow: RulesUnitOfWork, paths: list[Path], reason: str, actor: str | None = None
) -> ImportResult:
    """Validate rule files against the stored book and store their rows, with a trail entry each.

    Refused (RulesError, nothing stored) when a row is malformed or lacks its
    source, or when the files would bring a fault `rules check` finds. Into a
    database without rules the files alone are stored (data/ is not seeded first).
    """
    if not reason.strip():
        raise RulesError("an import needs a reason (--reason)")
    with uow:
        base = uow.load_rules() if uow.has_rules() else RuleBook()
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
        counts = uow.save_rules(patch, actor, reason)
        uow.commit()
    return ImportResult(diff_books(base, merged), counts)


def export(uow: RulesUnitOfWork, out: Path) -> list[Path]:
    """The stored rule book as data/-layout TOML files under `out`."""
    return ruletoml.export_book(stored_rules(uow), out)


def verify(uow: RulesUnitOfWork) -> Verdict:
    with uow:
        return uow.verify_rules()


def history(uow: RulesUnitOfWork, limit: int | None = None) -> list[dict[str, Any]]:
    with uow:
        return uow.rule_changes(limit)


# back-tests -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TierChange:
    platform: str
    session_id: str
    day: date
    player: str
    jurisdiction: str | None
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class WindowChange:
    """A room owner, platform or player judged over a window whose tier changes."""

    platform: str
    subject: str
    jurisdiction: str | None
    start: date
    end: date
    before: str
    after: str


@dataclass
class WhatIf:
    """回测结果: every player whose tier changes, and counts by jurisdiction and tier;
    the same for the subjects judged over a window (`none`: no window line concerns them)."""

    sessions: int = 0
    players: int = 0
    changes: list[TierChange] = field(default_factory=list)
    windows: int = 0
    window_changes: list[WindowChange] = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter((c.jurisdiction, c.before, c.after) for c in self.changes)

    @property
    def sessions_changed(self) -> int:
        return len({(c.platform, c.session_id) for c in self.changes})


def edit_with(paths: list[Path], settings: list[str]) -> Callable[[RuleBook], RuleBook]:
    """The change a back-test tries: files laid over the stored book, then bounds moved."""
    parsed = [BoundSetting.parse(s) for s in settings]

    def edit(book: RuleBook) -> RuleBook:
        changed = with_patch(book, paths) if paths else book
        for s in parsed:
            changed = set_bound(changed, s)
        return changed

    return edit


def whatif(
    uow: RulesUnitOfWork,
    edit: Callable[[RuleBook], RuleBook],
    options: ClassifierOptions | None = None,
    as_of: date | None = None,
    window_days: int = 180,
) -> WhatIf:
    """Re-classify every stored session, and re-judge the windows that end on the last
    stored day (or `as_of`), under the stored and the changed rules; store nothing."""
    options = options or ClassifierOptions()
    book = stored_rules(uow)
    changed = edit(book)
    classes = {code: g.game_class for code, g in book.game_types.items()}
    prizes = {e.id for e in book.exemptions if e.kind == "organiser_prize"}
    resolver = Resolver(book, options.versions)
    now = Classifier(resolver, options)
    then = Classifier(Resolver(changed, options.versions), options)
    result = WhatIf()
    with uow:
        for session, players in uow.stored_sessions():
            facts = session_facts(session, players, classes, prizes)
            result.sessions += 1
            result.players += len(players)
            before, after = tiers(now, facts, as_of), tiers(then, facts, as_of)
            for p in facts.players:
                if before[p.id] != after[p.id]:
                    result.changes.append(
                        TierChange(
                            facts.platform,
                            facts.session_id,
                            facts.day,
                            p.id,
                            _code(resolver, p.jurisdiction or facts.jurisdiction),
                            before[p.id],
                            after[p.id],
                        )
                    )
        if window_days > 0:
            _rejudge_windows(uow, now, then, result, as_of, window_days)
    return result


def _rejudge_windows(
    uow, now: Classifier, then: Classifier, result: WhatIf, as_of: date | None, window_days: int
) -> None:
    """The window findings an audit ends with (services.judge_windows), both ways."""
    platforms, last = uow.window_scope()
    end = as_of or last
    if end is None:
        return
    start = end - timedelta(days=window_days - 1)
    for figures in uow.window_figures(platforms, start, end):
        before, after = judge_window(now, figures), judge_window(then, figures)
        if before is None and after is None:
            continue
        result.windows += 1
        was, becomes = (before.tier if before else "none"), (after.tier if after else "none")
        if was != becomes:
            result.window_changes.append(
                WindowChange(
                    figures.platform,
                    figures.subject,
                    (after or before).jurisdiction,
                    start,
                    end,
                    was,
                    becomes,
                )
            )


def _code(resolver: Resolver, name: str | None) -> str | None:
    try:
        return resolver.lookup(name).code if name else None
    except JurisdictionError:
        return name


def tiers(classifier: Classifier, facts: SessionFacts, as_of: date | None) -> dict[str, str]:
    out = {p.id: "indeterminate" for p in facts.players}
    for f in classifier.classify(facts, as_of):
        if isinstance(f, ThresholdFinding) and f.player is not None:
            out[f.player] = f.tier
    return out


def session_facts(
    session: dict[str, Any],
    players: list[dict[str, Any]],
    classes: dict[str, str],
    prizes: set[str] = frozenset(),
) -> SessionFacts:
    """A stored session rebuilt as the classifier sees it (sessions + player_metrics rows).

    The log itself is not re-read: an organiser-funded prize is known from the
    stored findings that applied an organiser_prize exemption.
    """
    measured = [_player_metrics(p) for p in players]
    figures = None
    if session["point_value"] is not None and all(m is not None for m in measured):
        figures = SessionMetrics(
            headcount=session["headcount"],
            scene_capital=session["scene_capital"] or Decimal(0),
            per_capita_capital=session["per_capita_capital"] or Decimal(0),
            table_win_loss=sum((m.net for m in measured if m and m.net > 0), Decimal(0)),
            rake=session["rake"] or Decimal(0),
            rounds=session["rounds"],
        )
    return SessionFacts(
        platform=session["platform"],
        session_id=session["session_id"],
        game=session["game"],
        game_class=classes.get(session["game"]),
        day=session["day"],
        jurisdiction=session["jurisdiction"],
        players=tuple(
            PlayerFacts(
                id=p["player_id"],
                jurisdiction=p["jurisdiction"],
                kin_group=p["kin_group"],
                metrics=m,
            )
            for p, m in zip(players, measured, strict=True)
        ),
        metrics=figures,
        rake=1 if session["rake"] else 0,
        organiser_prize=bool(prizes & set(session.get("exempted_by") or ())),
        venue=session.get("venue") or "unknown",
    )


def _player_metrics(p: dict[str, Any]) -> PlayerMetrics | None:
    if p["single_stake"] is None:
        return None
    return PlayerMetrics(
        player_id=p["player_id"],
        single_stake=p["single_stake"],
        round_win_loss=p["round_win_loss"],
        session_win_loss=p["session_win_loss"],
        net=p["net"],
        total_staked=p["total_staked"],
        capital=p["capital"],
        rounds=p["rounds"],
        banker_rounds=p["banker_rounds"],
    )
