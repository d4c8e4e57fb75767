"""复核与豁免: waivers and review statuses as a repository, each change in the trail."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from compliance.db import bulk, trail
from compliance.db.models import table_of
from compliance.db.reports import fetch
from compliance.db.review_models import ReviewRow, WaivedFindingRow, WaiverRow
from compliance.domain.findings import fingerprint
from compliance.domain.review import Review, Scope, Waiver
from compliance.reporting.facts import ReportQuery, enrich

WAIVERS = table_of(WaiverRow)
REVIEWS = table_of(ReviewRow)
WAIVED = table_of(WaivedFindingRow)


class SqlReviewRepository:
    def __init__(self, conn: Connection):
        self.conn = conn

    # waivers ---------------------------------------------------------------------

    def add_waiver(
        self, scope: Scope, reason: str, actor: str, starts: date, until: date
    ) -> Waiver:
        row = {
            **{k: None for k in ("platform", "room", "owner", "player", "band", "jurisdiction")},
            **scope.parts(),
            "reason": reason,
            "actor": actor,
            "starts": starts,
            "until": until,
            "created_at": datetime.now(UTC),
        }
        with trail.recording(self.conn, [WAIVERS], actor, f"waive: {reason}", {}):
            key = self.conn.execute(insert(WAIVERS).values(**row)).inserted_primary_key
        assert key is not None
        waiver = self.waiver(int(key[0]))
        assert waiver is not None
        return waiver

    def waivers(self) -> list[Waiver]:
        """Every waiver, revoked and expired ones too, oldest first."""
        return [_waiver(r) for r in self.conn.execute(select(WAIVERS).order_by(WAIVERS.c.id))]

    def waiver(self, waiver_id: int) -> Waiver | None:
        row = self.conn.execute(select(WAIVERS).where(WAIVERS.c.id == waiver_id)).first()
        return _waiver(row) if row else None

    def revoke(self, waiver_id: int, actor: str, reason: str) -> None:
        with trail.recording(
            self.conn,
            [WAIVERS],
            actor,
            f"revoke waiver {waiver_id}: {reason}",
            {WAIVERS.name: WAIVERS.c.id == waiver_id},
        ):
            self.conn.execute(
                update(WAIVERS)
                .where(WAIVERS.c.id == waiver_id)
                .values(revoked_at=datetime.now(UTC), revoked_by=actor, revoke_reason=reason)
            )

    def mark_waived(self, run_id: int, marks: Iterable[tuple[str, int]]) -> int:
        rows = [(run_id, fp, w) for fp, w in marks]
        bulk.insert_rows(self.conn, WAIVED, ("run_id", "fingerprint", "waiver_id"), rows)
        return len(rows)

    def waived(self, run_ids: Iterable[int]) -> dict[str, int]:
        """The findings the waivers covered when these runs ended, by fingerprint."""
        stmt = select(WAIVED.c.fingerprint, WAIVED.c.waiver_id).where(
            WAIVED.c.run_id.in_(list(run_ids))
        )
        return {fp: w for fp, w in self.conn.execute(stmt)}

    # reviews ---------------------------------------------------------------------

    def reviews(self) -> dict[str, Review]:
        return {r.fingerprint: _review(r) for r in self.conn.execute(select(REVIEWS))}

    def review(self, fp: str) -> Review | None:
        row = self.conn.execute(select(REVIEWS).where(REVIEWS.c.fingerprint == fp)).first()
        return _review(row) if row else None

    def set_review(
        self, finding: dict[str, Any], band: str, status: str, note: str, actor: str
    ) -> Review:
        fp = fingerprint(finding)
        values = {
            "platform": finding["platform"],
            "subject": finding["subject"],
            "band": band,
            "kind": finding["kind"],
            "tier": finding.get("tier") if finding["kind"] == "threshold" else None,
            "status": status,
            "note": note,
            "actor": actor,
            "at": datetime.now(UTC),
        }
        reason = f"review {fp}: {status}" + (f": {note}" if note else "")
        with trail.recording(
            self.conn, [REVIEWS], actor, reason, {REVIEWS.name: REVIEWS.c.fingerprint == fp}
        ):
            done = self.conn.execute(
                update(REVIEWS).where(REVIEWS.c.fingerprint == fp).values(**values)
            )
            if not done.rowcount:
                self.conn.execute(insert(REVIEWS).values(fingerprint=fp, **values))
        review = self.review(fp)
        assert review is not None
        return review

    def history(self, fp: str) -> list[dict[str, Any]]:
        """The trail's entries of one review, oldest first."""
        stmt = (
            select(trail.CHANGES)
            .where(trail.CHANGES.c.table_name == REVIEWS.name, trail.CHANGES.c.row_key == fp)
            .order_by(trail.CHANGES.c.id)
        )
        return [dict(r) for r in self.conn.execute(stmt).mappings()]

    # the findings of a run -------------------------------------------------------

    def run_findings(self, run_id: int) -> Iterator[dict[str, Any]]:
        """Every finding of a run, with where and when its session was played."""
        source = fetch(self.conn, ReportQuery(run=run_id))
        assert source.ordered is not None
        return (enrich(f) for f in source.ordered())


def _waiver(r) -> Waiver:
    scope = Scope(r.platform, r.room, r.owner, r.player, r.band, r.jurisdiction)
    return Waiver(
        r.id,
        scope,
        r.reason,
        r.actor,
        r.starts,
        r.until,
        r.created_at,
        r.revoked_at,
        r.revoked_by,
        r.revoke_reason,
    )


def _review(r) -> Review:
    return Review(r.fingerprint, r.status, r.tier, r.note, r.actor, r.at, r.subject, r.band)
