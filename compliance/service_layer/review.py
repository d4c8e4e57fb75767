"""复核与豁免: use cases of waivers and review statuses, and the waivers a run's end applies.

Waivers and reviews are keyed on the finding identity of the output contract
(`findings.identity`, shown as its `fingerprint`); each change is an entry of
the one change trail that `trail verify` recomputes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from compliance.domain.findings import band_of, fingerprint
from compliance.domain.review import STATUSES, Review, Scope, Waiver, covering
from compliance.errors import BadValueError
from compliance.service_layer.unit_of_work import UnitOfWork

BATCH = 1000
MIN_PREFIX = 6


def waive(
    uow: UnitOfWork, scope: Scope, reason: str, actor: str, starts: date, until: date
) -> Waiver:
    """豁免: store a waiver; refused without a scope, a reason, or with its days reversed."""
    if not scope.parts():
        raise BadValueError(
            "a waiver needs a scope: --platform, --room, --owner, --player, "
            "--band or --jurisdiction"
        )
    if not reason.strip():
        raise BadValueError("a waiver needs a reason (--reason)")
    if until < starts:
        raise BadValueError(f"--until {until} is before --from {starts}")
    with uow:
        waiver = uow.review.add_waiver(scope, reason.strip(), actor, starts, until)
        uow.commit()
    return waiver


def waivers(uow: UnitOfWork) -> list[Waiver]:
    with uow:
        return uow.review.waivers()


def waiver(uow: UnitOfWork, waiver_id: int) -> Waiver:
    with uow:
        found = uow.review.waiver(waiver_id)
    if found is None:
        raise BadValueError(f"no waiver {waiver_id} is stored")
    return found


def revoke(uow: UnitOfWork, waiver_id: int, actor: str, reason: str) -> Waiver:
    if not reason.strip():
        raise BadValueError("a revocation needs a reason (--reason)")
    with uow:
        found = uow.review.waiver(waiver_id)
        if found is None:
            raise BadValueError(f"no waiver {waiver_id} is stored")
        if found.revoked:
            raise BadValueError(f"waiver {waiver_id} was revoked on {found.revoked_at:%Y-%m-%d}")
        uow.review.revoke(waiver_id, actor, reason.strip())
        uow.commit()
        revoked = uow.review.waiver(waiver_id)
    assert revoked is not None
    return revoked


@dataclass
class Waived:
    """What the waivers covered at a run's end."""

    count: int = 0
    by_waiver: Counter = field(default_factory=Counter)


def apply_waivers(
    uow: UnitOfWork, run_id: int, on_unwaived: Callable[[dict[str, Any]], None]
) -> Waived | None:
    """Mark the run's findings that a waiver covers (on each finding's own date), and
    hand every other finding to `on_unwaived`; None, reading nothing, where no waiver
    could cover anything."""
    with uow:
        live = [w for w in uow.review.waivers() if not w.revoked]
        if not live:
            return None
        waived = Waived()
        marks: list[tuple[str, int]] = []
        for row in uow.review.run_findings(run_id):
            w = covering(live, row)
            if w is None:
                on_unwaived(row)
                continue
            waived.count += 1
            waived.by_waiver[w.id] += 1
            marks.append((fingerprint(row), w.id))
            if len(marks) >= BATCH:
                uow.review.mark_waived(run_id, marks)
                marks = []
        uow.review.mark_waived(run_id, marks)
        uow.commit()
    return waived


# review statuses ------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A finding picked by its fingerprint, in the run it was found in."""

    finding: dict[str, Any]
    fingerprint: str
    run_id: int


def find(uow: UnitOfWork, prefix: str, run_id: int | None = None) -> Found:
    """The finding of a run (the latest by default) whose fingerprint starts so."""
    prefix = prefix.strip().lower()
    if len(prefix) < MIN_PREFIX:
        raise BadValueError(f"a fingerprint needs at least {MIN_PREFIX} of its characters")
    with uow:
        run = run_id if run_id is not None else uow.reports.latest_run()
        hits: dict[str, dict[str, Any]] = {}
        for row in uow.review.run_findings(run):
            fp = fingerprint(row)
            if fp.startswith(prefix):
                hits.setdefault(fp, row)
    if not hits:
        raise BadValueError(f"no finding of run {run} has a fingerprint starting {prefix}")
    if len(hits) > 1:
        raise BadValueError(f"{prefix} starts {len(hits)} fingerprints of run {run}: give more")
    fp, row = next(iter(hits.items()))
    return Found(row, fp, run)


def set_status(uow: UnitOfWork, found: Found, status: str, note: str, actor: str) -> Review:
    """复核: give a finding identity a status, with a note; dismissing needs a note."""
    if status not in STATUSES:
        raise BadValueError(f"{status!r} is not a status: {', '.join(STATUSES)}")
    if status != "open" and status != "confirmed" and not note.strip():
        raise BadValueError(f"a finding {status} needs a note (--note) saying why")
    with uow:
        review = uow.review.set_review(
            found.finding, band_of(found.finding), status, note.strip(), actor
        )
        uow.commit()
    return review


def reviews(uow: UnitOfWork, status: str | None = None) -> list[Review]:
    with uow:
        items = sorted(uow.review.reviews().values(), key=lambda r: r.at, reverse=True)
    return [r for r in items if status is None or r.status == status]


def history(uow: UnitOfWork, prefix: str) -> tuple[Review, list[dict[str, Any]]]:
    """A review's status now and every change of it, oldest first."""
    with uow:
        matches = [r for fp, r in uow.review.reviews().items() if fp.startswith(prefix.lower())]
        if len(matches) != 1:
            raise BadValueError(
                f"no review of a fingerprint starting {prefix}"
                if not matches
                else f"{prefix} starts {len(matches)} reviewed fingerprints: give more"
            )
        return matches[0], uow.review.history(matches[0].fingerprint)
