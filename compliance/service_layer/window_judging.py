"""窗口判定: a run's window findings, judged from its stored sessions kind by kind of subject.

A run with workers judges the first share of its players' windows in a forked process
(aside.py) while the driver judges the owners', the platforms' and the other players':
the run's serial tail, split in two. The findings are stored and given in the one order
a serial run makes them, owners first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from functools import partial

from compliance.domain.classifier import Classifier
from compliance.domain.findings import ThresholdFinding
from compliance.domain.ledger import judge_ledger
from compliance.domain.rules import RuleBook
from compliance.domain.windows import WindowFinding, window_starts
from compliance.service_layer.audit_options import AuditOptions, AuditSummary
from compliance.service_layer.unit_of_work import UnitOfWork

WINDOW_BATCH = 1000
KINDS_HERE = ("owner", "platform")
KINDS_ASIDE = ("player",)
SHARE_ASIDE, SHARE_HERE = (0, 2), (1, 2)  # of the players' chunks (db/windows.py `ledgers`)


@dataclass(frozen=True)
class WindowRun:
    """What a run's window judging reads: its platforms, each subject's window ending on
    its latest session of the run (or `as_of`), read from `read_from`."""

    run_id: int
    platforms: frozenset[str]
    read_from: date | None
    windows: frozenset[str | None]
    options: AuditOptions
    classifier: Classifier


def window_run(
    book: RuleBook,
    options: AuditOptions,
    summary: AuditSummary,
    run_id: int,
    classifier: Classifier,
) -> WindowRun | None:
    """The run's window judging, or None where it has none (nothing stored, or no window)."""
    last = options.as_of or summary.last_day
    if last is None or not summary.platforms or options.window_days == 0:
        return None
    windows = frozenset(band.window for band in book.bands)
    read_from = read_limit(last, options.window_days)
    return WindowRun(run_id, frozenset(summary.platforms), read_from, windows, options, classifier)


def judged_windows(
    uow: UnitOfWork, run: WindowRun, kinds: tuple[str, ...], share: tuple[int, int] = (0, 1)
) -> Iterator[WindowFinding]:
    """The window findings of the run's subjects of these kinds (that `share` of them), in
    the order they are read, each with the sessions behind a threshold's sums; none stored."""
    options = run.options
    starts = partial(window_starts, set(run.windows), years=options.cumulative_years)
    for ledger in uow.windows.ledgers(
        set(run.platforms), options.as_of, run.read_from, run.run_id, starts, kinds, share
    ):
        if ledger.kind != "platform":
            ledger.priors = options.priors.get((ledger.platform, ledger.id), ())
        finding = judge_ledger(run.classifier, ledger, options.cumulative_years)
        if finding is None:
            continue
        if isinstance(finding, ThresholdFinding) and finding.rule is not None:
            used = ledger.figures(date.fromisoformat(finding.window_start or ""))
            finding.sessions = uow.windows.sessions_behind(used)
        yield finding


def judge_windows(
    uow: UnitOfWork,
    run: WindowRun | None,
    summary: AuditSummary,
    aside: Callable[[], list[WindowFinding] | None] | None = None,
) -> Iterator[WindowFinding]:
    """Window findings from the stored sessions, for the run's room owners, platforms and
    players, each band over its own window back from the subject's latest session of the
    run (or `as_of`): those the run did not meet keep the findings of the runs that did.
    `aside` gives the first share of the players' findings, judged elsewhere meanwhile
    (None: judge them here). Stored
    WINDOW_BATCH at a time as they are made, then given, so that memory does not grow
    with the subjects."""
    if run is None:
        return
    findings: list[WindowFinding] = []
    for finding in _in_order(uow, run, aside):
        findings.append(finding)
        if len(findings) >= WINDOW_BATCH:
            yield from _stored_windows(uow, run.run_id, findings, summary)
            findings = []
    yield from _stored_windows(uow, run.run_id, findings, summary)


def _in_order(
    uow: UnitOfWork, run: WindowRun, aside: Callable[[], list[WindowFinding] | None] | None
) -> Iterable[WindowFinding]:
    if aside is None:
        yield from judged_windows(uow, run, KINDS_HERE + KINDS_ASIDE)
        return
    yield from judged_windows(uow, run, KINDS_HERE)
    later = list(judged_windows(uow, run, KINDS_ASIDE, SHARE_HERE))
    earlier = aside()
    yield from judged_windows(uow, run, KINDS_ASIDE, SHARE_ASIDE) if earlier is None else earlier
    yield from later


def _stored_windows(
    uow: UnitOfWork, run_id: int, findings: list[WindowFinding], summary: AuditSummary
) -> list[WindowFinding]:
    uow.windows.store_findings(run_id, findings)
    summary.windows += len(findings)
    return findings


def read_limit(last: date, window_days: int | None) -> date | None:
    """The first day windows read: `window_days` back from the run's last day, or None."""
    return None if window_days is None else last - timedelta(days=window_days - 1)
