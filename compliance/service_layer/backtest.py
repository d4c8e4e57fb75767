"""回测: a change to the rules tried on the stored sessions and windows; nothing stored."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from compliance.domain.classifier import Classifier, ClassifierOptions, PlayerFacts, SessionFacts
from compliance.domain.findings import ThresholdFinding
from compliance.domain.ledger import judge_ledger
from compliance.domain.metrics import PlayerMetrics, SessionMetrics
from compliance.domain.ruleedit import BoundSetting, set_bound
from compliance.domain.rules import RuleBook
from compliance.domain.ruleset import Resolver
from compliance.domain.windows import WindowFinding
from compliance.errors import JurisdictionError
from compliance.service_layer.rules import with_patch
from compliance.service_layer.seeding import stored_rules
from compliance.service_layer.unit_of_work import UnitOfWork


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
    uow: UnitOfWork,
    edit: Callable[[RuleBook], RuleBook],
    options: ClassifierOptions | None = None,
    as_of: date | None = None,
    window_days: int | None = None,
    on_total: Callable[[int | None], None] = lambda n: None,
    on_session: Callable[[], object] = lambda: None,
) -> WhatIf:
    """Re-classify every stored session, and re-judge the windows that end on each
    subject's last stored day (or `as_of`), under the stored and the changed rules; store nothing.
    `on_total` is told how many sessions are stored, `on_session` called as each is judged."""
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
        on_total(uow.runs.count_sessions())
        for session, players in uow.runs.stored_sessions():
            on_session()
            facts = session_facts(session, players, classes, prizes)
            result.sessions += 1
            result.players += len(players)
            before, after = tiers(now, facts, as_of), tiers(then, facts, as_of)
            for p in facts.players:
                if before[p.id] != after[p.id]:
                    result.changes.append(
                        TierChange(
                            facts.platform,
                            session["session_id"],
                            facts.day,
                            p.id,
                            _code(resolver, p.jurisdiction or facts.jurisdiction),
                            before[p.id],
                            after[p.id],
                        )
                    )
        if window_days != 0:
            _rejudge_windows(uow, now, then, result, as_of, window_days)
    return result


def _rejudge_windows(
    uow: UnitOfWork,
    now: Classifier,
    then: Classifier,
    result: WhatIf,
    as_of: date | None,
    window_days: int | None,
) -> None:
    """The window findings an audit ends with (window_judging.judge_windows), both ways."""
    platforms, last = uow.windows.scope()
    end = as_of or last
    if end is None:
        return
    read_from = None if window_days is None else end - timedelta(days=window_days - 1)
    for ledger in uow.windows.ledgers(platforms, as_of, read_from):
        before, after = judge_ledger(now, ledger), judge_ledger(then, ledger)
        judged = after or before
        if judged is None:
            continue
        result.windows += 1
        was, becomes = _tier(before), _tier(after)
        if was != becomes:
            result.window_changes.append(
                WindowChange(
                    ledger.platform,
                    f"{ledger.kind}:{ledger.id}",
                    judged.jurisdiction,
                    date.fromisoformat(judged.window_start or ""),
                    ledger.end,
                    was,
                    becomes,
                )
            )


def _tier(finding: WindowFinding | None) -> str:
    if finding is None:
        return "none"
    return finding.tier if isinstance(finding, ThresholdFinding) else finding.kind


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
    prizes: Set[str] = frozenset(),
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
        venue=session.get("venue") or "online",
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
        table_cap=p.get("table_cap"),
    )
