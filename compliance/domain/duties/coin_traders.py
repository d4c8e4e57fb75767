"""银商: check 18's coin-trader half, many small inbound transfers from distinct accounts
followed by a large transfer out, withdrawal or redemption, within a window.

State per receiving account: one bucket per Beijing day of the last `window_days`
(the small transfers' count, sum and senders, at most `senders` of them a day),
never the transfers. An outflow (a `transfer` to another account, a `withdrawal`
or a `redemption`) is judged when it comes, against the small inbound transfers of
its own day and the window before it: a signal when they came from `senders`
distinct accounts or more and the outflow is at least `outbound_share` of their
sum. "Small" is at most `small_units` (an amount is `units`, else `yuan`). The
ledger is read in its order: an account's transfers more than the window out of
order are not joined to an outflow that came before them.

Over workers, a transfer's inbound half is the receiver's: the worker that holds the
receiving account reads it too (`receives`, `inbound`), so each account's inbound and
outflows are judged in ledger order in one place, as in one pass, and nothing is left
open for the driver.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import SAMPLE, Collector
from compliance.domain.duties.resale import SIGNAL_NOTE
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.findings import DutyEvent
from compliance.logs.platform_records import LedgerEvent

OUTFLOWS = frozenset({"transfer", "withdrawal", "redemption"})


def amount(e: LedgerEvent) -> Decimal | None:
    if e.units is not None:
        return Decimal(abs(e.units))
    return e.yuan


@dataclass(slots=True)
class Day:
    count: int = 0
    total: Decimal = Decimal(0)
    senders: set[str] = field(default_factory=set)
    sample: list[DutyEvent] = field(default_factory=list)


class CoinTraders:
    def __init__(self, book: DutyBook, accounts: Accounts, collect: Collector):
        self.book, self.accounts, self.collect = book, accounts, collect
        self.days: dict[tuple[str, str], dict[date, Day]] = {}
        rows = book.rows("coin_traders", "coin_trader")
        self.keep = max((int(d.figure("window_days")) for d in rows), default=0)
        self.cap = max((int(d.figure("senders")) for d in rows), default=0)
        self.small = max((d.figure("small_units") for d in rows), default=Decimal(0))
        self.receives: Callable[[str, str], bool] | None = None  # a worker's receivers

    @property
    def active(self) -> bool:
        return bool(self.keep)

    def see(self, e: LedgerEvent) -> None:
        if not self.keep or e.type not in OUTFLOWS:
            return
        day = local_day(e.at)
        if (
            e.type == "transfer"
            and e.counterpart is not None
            and e.counterpart != e.account
            and (self.receives is None or self.receives(e.platform, e.counterpart))
        ):
            self._inbound(e, day)
        if e.type != "transfer" or (e.counterpart is not None and e.counterpart != e.account):
            self._outflow(e, day)

    def inbound(self, e: LedgerEvent) -> None:
        """Only the inbound half of another worker's account's transfer to one of ours."""
        if self.keep and e.type == "transfer" and e.counterpart not in (None, e.account):
            self._inbound(e, local_day(e.at))

    def part(self) -> None:
        """Judged where the outflow is read: nothing left open."""

    def absorb(self, part: None) -> None:
        """Nothing to take: the outflows were judged in the worker that read them."""

    def _inbound(self, e: LedgerEvent, day: date) -> None:
        assert e.counterpart is not None
        size = amount(e)
        if size is None or size > self.small:
            return
        days = self.days.setdefault((e.platform, e.counterpart), {})
        bucket = days.get(day)
        if bucket is None:
            bucket = days[day] = Day()
            for old in [d for d in days if (day - d).days > self.keep]:
                del days[old]
        bucket.count += 1
        bucket.total += size
        if len(bucket.senders) < self.cap:
            bucket.senders.add(e.account)
        if len(bucket.sample) < SAMPLE:
            bucket.sample.append(
                DutyEvent(
                    id=e.id,
                    at=e.at.isoformat(),
                    type="transfer_in",
                    yuan=e.yuan,
                    units=e.units,
                    account=e.account,
                )
            )

    def _outflow(self, e: LedgerEvent, day: date) -> None:
        days = self.days.get((e.platform, e.account))
        size = amount(e)
        for duty in self.book.in_force("coin_traders", "coin_trader", day):
            self.collect.checked.add(("coin_traders", e.platform))
            if not days or size is None:
                continue
            window = int(duty.figure("window_days"))
            inside = [b for d, b in days.items() if 0 <= (day - d).days <= window]
            small = [s for b in inside for s in b.sample]
            senders = set().union(*(b.senders for b in inside)) if inside else set()
            total = sum((b.total for b in inside), Decimal(0))
            if len(senders) < duty.figure("senders") or not total:
                continue
            if size < duty.figure("outbound_share") * total:
                continue
            self._signal(duty, e, day, size, total, senders, small, sum(b.count for b in inside))

    def _signal(self, duty: Duty, e: LedgerEvent, day, size, total, senders, small, n) -> None:
        account = self.accounts.get((e.platform, e.account))
        b = self.collect.breach(
            duty,
            e.platform,
            f"account:{e.account}",
            month_of(day),
            metric="outflow_share_of_small_inbound",
            boundary=f"{duty.text('senders')} senders or more of transfers up to "
            f"{duty.text('small_units')} within {duty.text('window_days')} days, then an "
            f"outflow of at least {duty.text('outbound_share')} of them",
            cap=duty.figure("outbound_share"),
            account=e.account,
            person=account.person if account else None,
        )
        share = (size / total).quantize(Decimal("0.01"))
        out = DutyEvent(
            id=e.id,
            at=e.at.isoformat(),
            type=f"{e.type}_out",
            yuan=e.yuan,
            units=e.units,
            counterpart=e.counterpart,
        )
        b.see(share, out, "max")
        for s in small[: max(0, SAMPLE - len(b.events))]:
            if s not in b.events:
                b.events.append(s)
                b.seqs.append(b.seq)
        others = b.others()
        for sender in sorted(senders):
            if sender not in others and len(others) < SAMPLE:
                others.append(sender)
        if e.counterpart and e.counterpart not in others:
            others.append(e.counterpart)
        b.detail = (
            f"{SIGNAL_NOTE}: {n} small transfers in from at least {len(senders)} accounts "
            f"({total} in all), then {e.type} of {size} ({share} of them); a trader buying "
            "and selling points, or one collecting from friends for a shared purchase"
        )
