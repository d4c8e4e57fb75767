"""充值: what each payment says of checks 6 (minors' caps), 15 (the single-recharge cap and
the confirmations) and 2 (no payment in guest mode).

A payment is a ledger event that takes money: a recharge, a room-card purchase or
a paid draw, with `yuan` above 0. The month is the Beijing calendar month; a
person's month sums the payments of all their accounts on the platform (the
person key), or of one account with `per_account`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from compliance.domain.duties.calendar import age_on, month_of
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.findings import DutyEvent
from compliance.logs.platform_records import Account, LedgerEvent, RechargeCap

PAYMENTS = frozenset({"recharge", "room_card_purchase", "draw"})


def _event(e: LedgerEvent) -> DutyEvent:
    return event(e.id, e.at, e.type, e.yuan, e.units)


def is_payment(e: LedgerEvent) -> bool:
    return e.type in PAYMENTS and e.yuan is not None and e.yuan > 0


@dataclass
class Month:
    """One person's (or account's) minor payments in one month: their sum, no list."""

    total: Decimal = Decimal(0)
    breached: set[str] = field(default_factory=set)


class Payments:
    def __init__(
        self,
        book: DutyBook,
        accounts: dict[tuple[str, str], Account],
        caps: dict[str, list[RechargeCap]] | None,
        collect: Collector,
        per_account: bool = False,
    ):
        self.book, self.accounts, self.caps, self.collect = book, accounts, caps, collect
        self.per_account = per_account
        self.months: dict[tuple[str, str, str], Month] = {}
        self.pending: dict[tuple[str, str], tuple[Duty, str, LedgerEvent]] = {}
        self.confirmed: set[tuple[str, str]] = set()

    def see(self, e: LedgerEvent, day: date) -> None:
        """One event; `day` its Beijing day."""
        if e.type == "confirmation":
            if e.ref is not None and self.pending.pop((e.platform, e.ref), None) is None:
                self.confirmed.add((e.platform, e.ref))
            return
        if not is_payment(e):
            return
        self._confirmation(e, day)
        self._cap(e, day)
        account = self.accounts.get((e.platform, e.account))
        self.collect.checked.add(("minor_payments", e.platform))
        if account is None:
            self.collect.cannot(
                "minor_payments",
                e.platform,
                "accounts",
                "payments by accounts not in the accounts file (age unknown)",
            )
            return
        self._payer(e, account, day)
        if account.kind == "guest":
            for duty in self.book.in_force("guest_rules", "guest_payment", day):
                self.collect.checked.add(("guest_rules", e.platform))
                b = self.collect.breach(
                    duty,
                    e.platform,
                    f"account:{e.account}",
                    month_of(day),
                    metric="guest_payments_yuan",
                    boundary="no payment in guest mode",
                    cap=Decimal(0),
                    account=e.account,
                )
                b.see(e.yuan, _event(e), "sum")
        if account.birth_date is None:
            self.collect.cannot(
                "minor_payments",
                e.platform,
                "birth_date",
                "payments by accounts without a birth date (a minor cannot be told)",
            )
            return
        self._minor(e, account, day)

    def _minor(self, e: LedgerEvent, account: Account, day) -> None:
        assert account.birth_date is not None and e.yuan is not None
        age = age_on(account.birth_date, day)
        if age >= 18:
            return
        whose = (
            f"person:{account.person}"
            if account.person and not self.per_account
            else f"account:{e.account}"
        )
        month = month_of(day)
        state = self.months.setdefault((e.platform, whose, month), Month())
        state.total += e.yuan
        common = {"account": e.account, "person": account.person}
        for duty in self.book.in_force("minor_payments", "nil_below", day):
            if age < duty.figure("age"):
                b = self.collect.breach(
                    duty,
                    e.platform,
                    whose,
                    month,
                    metric="payments_yuan",
                    boundary=f"no payment under {duty.text('age')}",
                    cap=Decimal(0),
                    **common,
                )
                b.see(e.yuan, _event(e), "sum")
        for duty in self.book.in_force("minor_payments", "per_payment", day):
            if duty.figure("age_from") <= age < duty.figure("age_to") and e.yuan > duty.figure(
                "yuan"
            ):
                b = self.collect.breach(
                    duty,
                    e.platform,
                    whose,
                    month,
                    metric="payment_yuan",
                    boundary=f"at most {duty.text('yuan')} yuan a payment at "
                    f"{duty.text('age_from')} to under {duty.text('age_to')}",
                    cap=duty.figure("yuan"),
                    **common,
                )
                b.see(e.yuan, _event(e))
                b.detail = f"{b.count} payments over the cap (largest {b.value} yuan, age {age})"
        for duty in self.book.in_force("minor_payments", "per_month", day):
            if not duty.figure("age_from") <= age < duty.figure("age_to"):
                continue
            if state.total <= duty.figure("yuan") and duty.id not in state.breached:
                continue
            b = self.collect.breach(
                duty,
                e.platform,
                whose,
                month,
                metric="month_yuan",
                boundary=f"at most {duty.text('yuan')} yuan a month at "
                f"{duty.text('age_from')} to under {duty.text('age_to')}",
                cap=duty.figure("yuan"),
                **common,
            )
            state.breached.add(duty.id)
            b.see(None, _event(e))
            b.value = state.total
            b.detail = f"the month's payments while a minor come to {state.total} yuan"

    def _payer(self, e: LedgerEvent, account: Account, day) -> None:
        """Check 3: a payment whose payer's name digest differs from the account's."""
        if e.payer is None:
            return
        for duty in self.book.in_force("payer_name", "payer_match", day):
            self.collect.checked.add(("payer_name", e.platform))
            if account.real_name is None:
                self.collect.cannot(
                    "payer_name",
                    e.platform,
                    "real_name",
                    "payments with a payer by accounts without a real-name digest",
                )
            elif e.payer != account.real_name:
                b = self.collect.breach(
                    duty,
                    e.platform,
                    f"account:{e.account}",
                    month_of(day),
                    metric="payments_by_others_yuan",
                    boundary="the payer is the account holder",
                    cap=None,
                    account=e.account,
                    person=account.person,
                )
                b.see(e.yuan, _event(e), "sum")
                b.detail = f"{b.count} payments by a payer other than the account holder"

    def _confirmation(self, e: LedgerEvent, day) -> None:
        for duty in self.book.in_force("recharge_cap", "confirmation", day):
            self.collect.checked.add(("recharge_cap", e.platform))
            key = (e.platform, e.id)
            if key in self.confirmed:
                self.confirmed.discard(key)
            else:
                self.pending[key] = (duty, month_of(day), e)

    def _cap(self, e: LedgerEvent, day) -> None:
        if e.type != "recharge":
            return
        for duty in self.book.in_force("recharge_cap", "cap", day):
            caps = None if self.caps is None else self.caps.get(e.platform)
            if not caps:
                self.collect.cannot(
                    "recharge_cap",
                    e.platform,
                    "platform-config recharge_cap",
                    "recharges on a platform whose single-recharge cap is not given",
                )
                continue
            cap = next((c for c in caps if c.game and c.game == e.mode), None) or next(
                (c for c in caps if c.game is None), None
            )
            if cap is None:
                continue
            assert e.yuan is not None
            if e.yuan > cap.yuan:
                b = self.collect.breach(
                    duty,
                    e.platform,
                    f"account:{e.account}",
                    month_of(day),
                    metric="recharge_yuan",
                    boundary=f"at most {cap.yuan} yuan a recharge",
                    cap=cap.yuan,
                    account=e.account,
                )
                b.see(e.yuan, _event(e))

    def finish(self) -> None:
        """Payments left without a confirmation are breaches, per platform and month."""
        for (platform, _), (duty, month, e) in sorted(self.pending.items()):
            b = self.collect.breach(
                duty,
                platform,
                f"platform:{platform}",
                month,
                metric="unconfirmed_payments",
                boundary="a confirmation at every payment",
                cap=Decimal(0),
            )
            b.see(Decimal(1), _event(e), "sum")
            b.detail = f"{b.count} payments with no confirmation event"
        self.pending.clear()
