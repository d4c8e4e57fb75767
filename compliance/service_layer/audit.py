"""审计: the audit use case. It takes a unit of work; its runner another's factory.

The CLI parses options and calls `audit`; tests call it with a fake unit of
work and the serial runner.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from compliance.domain.audited import AuditedSession
from compliance.domain.findings import Finding
from compliance.domain.rules import RuleBook
from compliance.errors import ConfigError, LogError
from compliance.logs.reader import Reject
from compliance.service_layer.aside import DigestsAside
from compliance.service_layer.audit_options import AuditOptions, AuditSummary
from compliance.service_layer.duties import DutyRun, Parallel
from compliance.service_layer.duty_sessions import DutySessions
from compliance.service_layer.judging import Auditor, auditor_for, few_collections
from compliance.service_layer.manifest import input_digests, manifest
from compliance.service_layer.runners import (
    EncodedFinding,
    RejectsStored,
    StoredReject,
    StoredSession,
    runner_for,
)
from compliance.service_layer.seeding import ensure_duties, ensure_rules
from compliance.service_layer.unit_of_work import UnitOfWork
from compliance.service_layer.window_judging import judge_windows, read_limit, window_run
from compliance.streams import is_stream, spool


def make_auditor(book: RuleBook, options: AuditOptions) -> Auditor:
    """The run's auditor under its options; BadValueError for a version or place unknown."""
    auditor = auditor_for(
        book, options.classifier, options.jurisdiction, options.as_of, options.priors
    )
    auditor.latest_day = options.latest_day
    auditor.max_line_bytes = options.max_line_bytes
    auditor.store_names = options.store_names
    auditor.keep_lines = options.keep_lines
    return auditor


def _ignore(_finding) -> None:
    pass


class Interrupted(KeyboardInterrupt):
    """中断: a run stopped by Ctrl-C, with what it had committed by then."""

    def __init__(self, summary: AuditSummary, strict: bool, parallel: bool):
        super().__init__()
        self.summary, self.strict, self.parallel = summary, strict, parallel


def audit(
    uow: UnitOfWork,
    files: list[str],
    options: AuditOptions,
    on_finding: Callable[[Finding | EncodedFinding], None] = _ignore,
    on_session: Callable[
        [AuditedSession | StoredSession | Reject | RejectsStored], None
    ] = lambda s: None,
    on_note: Callable[[str], None] = lambda s: None,
    names: dict[str, str] | None = None,
) -> AuditSummary:
    """Audit log files: judge every session, store results in batches, count.

    With `workers` > 1 the files are split into byte ranges audited on a
    process pool (or on Dask); results come back in file order, so the run
    stores and prints exactly what a serial run would. Where the workers can
    reach the database (`uow.worker_factory()`), each stores its own sessions.
    A stream (`-`, a pipe, a FIFO) cannot be split: for workers it is first
    copied to a temporary file, which `on_note` is told. `names` gives a file that
    stands for another input (a copy) the name to store and show instead of its path.
    With `strict`, the first reject stops the run with LogError and nothing of
    the run is kept. Otherwise the run is committed as it starts, so a run
    that never reaches its end still shows, unfinished; rejects are stored
    in batches of their own, so a log of nothing but rejects runs in bounded
    memory. Ctrl-C raises Interrupted, which says what was stored.
    """
    summary = AuditSummary()
    parallel = options.workers > 1 or bool(options.dask)
    try:
        with _splittable(files, options, on_note) as spooled:
            inputs = [next((p for p, n in spooled.items() if n == f), f) for f in files]
            shown = {**(names or {}), **spooled}
            _audit(uow, inputs, shown, options, summary, on_finding, on_session)
    except Interrupted:
        raise
    except KeyboardInterrupt:
        raise Interrupted(summary, options.strict, parallel) from None
    return summary


@contextmanager
def _splittable(
    files: list[str], options: AuditOptions, on_note: Callable[[str], None]
) -> Iterator[dict[str, str]]:
    """Each input as a runner reads it: a stream spooled to a temporary file where workers
    split the input; the spooled path → the name given."""
    streams = [f for f in files if is_stream(f)]
    if not streams or not (options.workers > 1 or options.dask):
        yield {}
        return
    if options.dask and options.dask != "local":
        raise ConfigError(
            f"--dask {options.dask}: the workers read the input where they run, and "
            f"{streams[0]} is a stream only this process can read: save it to a file they reach"
        )
    with tempfile.TemporaryDirectory(prefix="compliance-spool-") as folder:
        names: dict[str, str] = {}
        for name in streams:
            on_note(
                f"spooling {name} to a temporary file so that the workers can split it (a "
                "stream cannot be read by offsets); it is removed after the run"
            )
            names[spool(name, folder)] = name
        yield names


def _audit(
    uow: UnitOfWork,
    inputs: list[str],
    names: dict[str, str],
    options: AuditOptions,
    summary: AuditSummary,
    on_finding: Callable[[Finding | EncodedFinding], None],
    on_session: Callable[[AuditedSession | StoredSession | Reject | RejectsStored], None],
) -> None:
    if options.latest_day is None:
        options = replace(options, latest_day=datetime.now(UTC).date() + timedelta(days=1))
    with uow, few_collections(), ExitStack() as ending:
        book = ensure_rules(uow)
        with_duties = options.duties is not None and options.duties.given
        if with_duties:
            ensure_duties(uow)  # before the run starts, so a strict run leaves nothing of it
        files = [names.get(path, path) for path in inputs]
        run_id = uow.runs.start(files, options.as_of, _options_record(options))
        batch: list[AuditedSession] = []
        rejects: list[Reject] = []
        parallel_store = (options.workers > 1 or bool(options.dask)) and not options.strict
        store = uow.worker_factory() if parallel_store else None
        if not options.strict:
            uow.commit()
            summary.run_id = run_id
        rules_sha256 = uow.rules.digest()
        with_findings = on_finding is not _ignore
        runner = runner_for(options.workers, options.dask, store)
        ending.callback(runner.close)
        auditor = make_auditor(book, options)
        auditor.names = names
        duties = _duty_run(uow, run_id, names, options) if with_duties else None
        auditor.duty_sessions = duties is not None
        judged = runner.judge(auditor, inputs, summary.players, run_id, with_findings)
        for item in judged:
            if isinstance(item, DutySessions):
                if duties is not None:
                    duties.sessions(item)
                continue
            on_session(item)
            if isinstance(item, RejectsStored):
                summary.rejects += item.count
                summary.stored_rejects += item.count
                continue
            if isinstance(item, Reject):
                if options.strict:
                    raise LogError(item.describe())
                summary.rejects += 1
                if len(summary.reject_list) < 100:
                    summary.reject_list.append(item)
                if isinstance(item, StoredReject):
                    summary.stored_rejects += 1
                    continue
                rejects.append(item)
                if len(rejects) >= options.reject_batch_size:
                    _flush_rejects(uow, run_id, rejects, summary)
                continue
            summary.count(item)
            if on_finding is not _ignore:
                for finding in item.findings:
                    on_finding(finding)
            if isinstance(item, StoredSession):
                summary.stored += 1
                continue
            batch.append(item)
            if len(batch) >= options.batch_size:
                _flush(uow, run_id, batch, rejects, summary)
        _flush(uow, run_id, batch, rejects, summary)
        uow.runs.refresh_statistics()
        summary.repeated = uow.runs.count_repeated(run_id)
        windows = window_run(book, options, summary, run_id, make_auditor(book, options).classifier)
        aside = None
        if store is not None and options.workers > 1:
            uow.commit()  # the statistics just made, read by the processes aside too
            read_from = _read_from(options, summary)
            aside = DigestsAside(
                store, run_id, summary.platforms, read_from, inputs, names, windows
            )
            ending.callback(aside.close)
        players = aside.players_windows if aside is not None else None
        for finding in judge_windows(uow, windows, summary, players):
            summary.count_finding(finding)
            on_finding(finding)
        if duties is not None:
            _duties(duties, summary, on_finding)
        stored = aside.result() if aside is not None else None
        read = aside.inputs() if aside is not None else None
        uow.runs.finish(run_id, summary.sessions, summary.rejects, summary.as_dict())
        uow.runs.store_manifest(
            run_id,
            manifest(
                (read if read is not None else input_digests(inputs, names))
                + _duty_inputs(options),
                rules_sha256,
                {**_options_record(options), **_run_only(options)},
                uow.runs.digests(run_id, summary.platforms, _read_from(options, summary), stored),
            ),
        )
        uow.commit()
        summary.run_id = run_id


def _duty_inputs(options: AuditOptions) -> list[dict[str, Any]]:
    """The platform records a run read beside its logs, with their digests."""
    d = options.duties
    paths = [p for p in (d.accounts, d.ledger, d.config) if p] if d is not None else []
    return input_digests(paths, {})


def _read_from(options: AuditOptions, summary: AuditSummary) -> date | None:
    last = options.as_of or summary.last_day
    return read_limit(last, options.window_days) if last else None


def _duty_run(
    uow: UnitOfWork, run_id: int, names: dict[str, str], options: AuditOptions
) -> DutyRun:
    """The platform's duties of the run, started before its sessions are judged, so that
    they see the sessions in the audit's own pass. A record's day is judged up to
    `as_of`, else the day before `latest_day` (today)."""
    assert options.duties is not None and options.latest_day is not None
    today = options.as_of or options.latest_day - timedelta(days=1)
    return DutyRun(
        uow,
        run_id,
        names,
        options.duties,
        today,
        options.max_line_bytes,
        options.strict,
        Parallel(options.workers, options.dask, uow.worker_factory()),
    )


def _duties(
    duties: DutyRun,
    summary: AuditSummary,
    on_finding: Callable[[Finding | EncodedFinding], None],
) -> None:
    """The duties finished over the run's sessions and the records given; their
    rejects join the run's."""

    def found(finding) -> None:
        summary.count_finding(finding)
        on_finding(finding)

    result = duties.finish(found)
    summary.duties = result
    summary.rejects += result.rejects
    summary.stored_rejects += result.rejects
    room = max(0, 100 - len(summary.reject_list))
    summary.reject_list.extend(result.reject_list[:room])


def _flush(uow: UnitOfWork, run_id: int, batch: list, rejects: list, summary: AuditSummary) -> None:
    uow.runs.store_sessions(run_id, batch)
    uow.runs.store_rejects(run_id, rejects)
    uow.commit()
    summary.run_id = run_id
    summary.stored += len(batch)
    summary.stored_rejects += len(rejects)
    batch.clear()
    rejects.clear()


def _flush_rejects(uow: UnitOfWork, run_id: int, rejects: list, summary: AuditSummary) -> None:
    uow.runs.store_rejects(run_id, rejects)
    uow.commit()
    summary.run_id = run_id
    summary.stored_rejects += len(rejects)
    rejects.clear()


def _run_only(options: AuditOptions) -> dict[str, Any]:
    """The options that change how a run goes, not what it finds; and the priors' digest."""
    priors = sorted(
        (platform, player, [d.isoformat() for d in days])
        for (platform, player), days in options.priors.items()
    )
    return {
        "workers": options.workers,
        "dask": options.dask,
        "batch_size": options.batch_size,
        "priors_sha256": hashlib.sha256(json.dumps(priors).encode()).hexdigest(),
    }


def _options_record(options: AuditOptions) -> dict[str, Any]:
    return {
        "jurisdiction": options.jurisdiction,
        "as_of": options.as_of.isoformat() if options.as_of else None,
        "strict": options.strict,
        "win_loss_scope": options.classifier.win_loss_scope,
        "versions": options.classifier.versions,
        "venue": options.classifier.venue,
        "window_days": options.window_days,
        "cumulative_years": options.cumulative_years,
        "latest_day": options.latest_day.isoformat() if options.latest_day else None,
        "max_line_bytes": options.max_line_bytes,
        **({} if options.store_names else {"store_names": False}),
        **({"keep_lines": True} if options.keep_lines else {}),
    } | ({"duties": options.duties.record()} if options.duties and options.duties.given else {})
