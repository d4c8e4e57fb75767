"""记录留存: check 21, how far back each record kind reaches against the periods the
instruments set (180 days, 90 days, six months; the 2023 draft's two years as an
advisory). A kind's period runs back from the day its `oldest` was taken (`on`, or
the audit's day); a platform that began keeping the kind later (`since`) need only
hold it from then.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from compliance.domain.duties.collect import Collector
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.periods import months_back
from compliance.logs.platform_records import Features, Retention


def required_from(duty: Duty, on: date) -> date:
    if duty.figures.get("rule") == "months":
        return months_back(on, int(duty.figure("months")))
    return on - timedelta(days=int(duty.figure("days")))


def judge_retention(
    book: DutyBook,
    platform: str,
    held: dict[str, Retention],
    features: Features | None,
    draws_seen: bool,
    today: date,
    collect: Collector,
) -> None:
    """One platform's record kinds against every retention row in force on their day."""
    collect.checked.add(("retention", platform))
    for duty in book.rows("retention"):
        kind = duty.text("record")
        record = held.get(kind)
        on = record.on if record is not None and record.on else today
        if not duty.in_force(on):
            continue
        needed = duty.figures.get("only_if")
        if needed == "transfers" and (features is None or not features.transfers):
            if features is None:
                collect.cannot(
                    "retention",
                    platform,
                    "platform-config features",
                    "whether transfers are a feature (and their log must be kept) is not given",
                )
            continue
        if needed == "draws" and not (draws_seen or (features is not None and features.draws)):
            continue
        if record is None:
            collect.cannot(
                "retention",
                platform,
                f"platform-config retention {kind}",
                f"the oldest {kind} record held is not given",
            )
            continue
        start = required_from(duty, on)
        if record.since is not None and record.since > start:
            start = record.since
        if record.oldest is not None and record.oldest <= start:
            continue
        held_days = (on - record.oldest).days if record.oldest else 0
        period = (
            f"{duty.text('months')} months"
            if duty.figures.get("rule") == "months"
            else f"{duty.text('days')} days"
        )
        b = collect.breach(
            duty,
            platform,
            f"records:{kind}",
            on.isoformat(),
            metric="days_held",
            boundary=f"{kind} kept at least {period} (from {start})",
            cap=Decimal((on - start).days),
        )
        b.see(Decimal(held_days), None)
        b.detail = (
            f"oldest {kind} record {record.oldest}, {held_days} days before {on}"
            if record.oldest
            else f"no {kind} record held on {on}"
        )
