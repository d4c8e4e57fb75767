"""服务中断: check 16, a platform's days without a session, from the sessions' Beijing days.

State is the set of days with a session, per platform (a few thousand at most).
"""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

from compliance.domain.duties.calendar import at_local, local_day, month_of
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.rows import DutyBook


class ServiceDays:
    def __init__(self, book: DutyBook, collect: Collector):
        self.book, self.collect = book, collect
        self.days: dict[str, set[date]] = {}

    def see(self, platform: str, at: datetime) -> None:
        self.days.setdefault(platform, set()).add(local_day(at))

    def finish(self) -> None:
        for platform, days in sorted(self.days.items()):
            ordered = sorted(days)
            for before, after in zip(ordered, ordered[1:], strict=False):
                idle = (after - before).days - 1
                for duty in self.book.in_force("service_gaps", "gap", after):
                    self.collect.checked.add(("service_gaps", platform))
                    if idle < duty.figure("days"):
                        continue
                    b = self.collect.breach(
                        duty,
                        platform,
                        f"platform:{platform}",
                        month_of(after),
                        metric="days_without_service",
                        boundary=f"an interruption of {duty.text('days')} days is termination",
                        cap=duty.figure("days"),
                    )
                    b.see(
                        Decimal(idle), event(f"{before}..{after}", at_local(after, time(0)), "gap")
                    )
                    b.detail = f"no session from {before} to {after} ({idle} days)"
