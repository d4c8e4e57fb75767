"""涉诈异常账户: check 20, an account the platform flagged as fraud-abnormal that gets no
re-verification or restriction within `days` (反电信网络诈骗法 art. 22).

The ledger's `fraud_flag`, `reverification` and `restriction` events (added to
ledger/1 for this check) are kept per account, at most `MAX_KEPT` of each (they are
rare); a flag is answered by a re-verification or a restriction of the account at or
after it and at most `days` later. A flag whose `days` have not run out by the
audit's day is not yet due.

An account's events all go to one worker, so a worker's part is its flagged accounts'
flags and answers (`part`); the driver takes them in and decides (`finish`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.resale import SIGNAL_NOTE
from compliance.domain.duties.rows import DutyBook
from compliance.logs.platform_records import LedgerEvent

MAX_KEPT = 64
ANSWERS = frozenset({"reverification", "restriction"})


@dataclass(slots=True)
class Flags:
    flags: list[tuple[datetime, str]] = field(default_factory=list)
    answers: list[datetime] = field(default_factory=list)


class FraudFlags:
    def __init__(self, book: DutyBook, accounts: Accounts, collect: Collector):
        self.book, self.accounts, self.collect = book, accounts, collect
        self.state: dict[tuple[str, str], Flags] = {}

    def see(self, e: LedgerEvent) -> None:
        if e.type == "fraud_flag":
            kept = self.state.setdefault((e.platform, e.account), Flags()).flags
            if len(kept) < MAX_KEPT:
                kept.append((e.at, e.id))
        elif e.type in ANSWERS:
            kept_at = self.state.setdefault((e.platform, e.account), Flags()).answers
            if len(kept_at) < MAX_KEPT:
                kept_at.append(e.at)

    def part(self) -> dict[tuple[str, str], Flags]:
        return {key: state for key, state in self.state.items() if state.flags}

    def absorb(self, part: dict[tuple[str, str], Flags]) -> None:
        for key, theirs in part.items():
            mine = self.state.setdefault(key, Flags())
            mine.flags = (mine.flags + theirs.flags)[:MAX_KEPT]
            mine.answers = (mine.answers + theirs.answers)[:MAX_KEPT]

    def finish(self, today: date) -> None:
        for (platform, account_id), state in sorted(self.state.items()):
            for at, id in sorted(state.flags):
                day = local_day(at)
                for duty in self.book.in_force("fraud_reverification", "reverify", day):
                    self.collect.checked.add(("fraud_reverification", platform))
                    grace = timedelta(days=int(duty.figure("days")))
                    if any(at <= a <= at + grace for a in state.answers):
                        continue
                    if local_day(at + grace) >= today:
                        continue  # not yet due on the audit's day
                    account = self.accounts.get((platform, account_id))
                    b = self.collect.breach(
                        duty,
                        platform,
                        f"account:{account_id}",
                        month_of(day),
                        metric="days_without_reverification",
                        boundary=f"re-verified or restricted within {duty.text('days')} days "
                        "of the flag",
                        cap=duty.figure("days"),
                        account=account_id,
                        person=account.person if account else None,
                    )
                    later = [a for a in state.answers if a >= at]
                    waited = (min(later) - at).days if later else (today - day).days
                    b.see(Decimal(waited), event(id, at, "fraud_flag"), "max")
                    b.detail = (
                        f"{SIGNAL_NOTE}: {b.count} fraud flags with no re-verification or "
                        f"restriction within {duty.text('days')} days in the ledger; a measure "
                        "taken outside the ledger looks the same"
                    )
