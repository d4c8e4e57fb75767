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

from compliance.domain.duties.accounts import Accounts, Holder
from compliance.domain.duties.calendar import age_on, month_of
from compliance.domain.duties.collect import Collector
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.logs.platform_records import LedgerEvent, RechargeCap

PAYMENTS = frozenset({"recharge", "room_card_purchase", "draw"})
PER_PAYMENT = "{count} payments over the cap (largest {value} yuan, age {age})"
PER_MONTH = "the month's payments while a minor come to {value} yuan"
PAYER = "{count} payments by a payer other than the account holder"
UNCONFIRMED = "{count} payments with no confirmation event"
ZERO = Decimal(0)
Limit = tuple[Duty, int | Decimal, int | Decimal, Decimal, str]
MinorRules = tuple[list[tuple[Duty, int | Decimal, str]], list[Limit], list[Limit]]


def _whole(age: Decimal) -> int | Decimal:
    """An age figure as an int where it is whole (compared with an int age, faster)."""
    return int(age) if age == age.to_integral_value() else age


def is_payment(e: LedgerEvent) -> bool:
    return e.type in PAYMENTS and e.yuan is not None and e.yuan > 0


@dataclass
class Month:
    """One person's (or account's) minor payments in one month: their sum, no list."""

    total: Decimal = Decimal(0)
    breached: set[str] = field(default_factory=set)


class Payments:
    types = PAYMENTS | {"confirmation"}

    def __init__(
        self,
        book: DutyBook,
        accounts: Accounts,
        caps: dict[str, list[RechargeCap]] | None,
        collect: Collector,
        per_account: bool = False,
    ):
        self.book, self.accounts, self.caps, self.collect = book, accounts, caps, collect
        self.per_account = per_account
        self.months: dict[tuple[str, str, str], Month] = {}
        self.pending: dict[tuple[str, str], tuple[Duty, str, LedgerEvent, int]] = {}
        self.confirmed: set[tuple[str, str]] = set()
        self._by_day: dict[date, MinorRules] = {}

    def see(self, e: LedgerEvent, day: date) -> None:
        """One event; `day` its Beijing day."""
        if e.type == "confirmation":
            if e.ref is not None and self.pending.pop((e.platform, e.ref), None) is None:
                self.confirmed.add((e.platform, e.ref))
            return
        if not is_payment(e):
            return
        self._confirmation(e, day)
        if e.type == "recharge":
            self._cap(e, day)
        account = self.accounts.of(e.platform, e.account)
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
                b.take(e.yuan, e, "sum")
        if account.birth_date is None:
            self.collect.cannot(
                "minor_payments",
                e.platform,
                "birth_date",
                "payments by accounts without a birth date (a minor cannot be told)",
            )
            return
        self._minor(e, account, day)

    def _rules(self, day: date) -> MinorRules:
        """The minors' payment rows in force on a day, their figures read once."""
        found = self._by_day.get(day)
        if found is not None:
            return found
        book = self.book
        nil = [
            (d, _whole(d.figure("age")), f"no payment under {d.text('age')}")
            for d in book.in_force("minor_payments", "nil_below", day)
        ]
        each, month = (
            self._capped(day, "per_payment", "a payment"),
            self._capped(day, "per_month", "a month"),
        )
        found = self._by_day[day] = (nil, each, month)
        return found

    def _capped(self, day: date, rule: str, per: str):
        """The rows of `rule` in force: each with its ages, its yuan and its boundary."""
        return [
            (
                d,
                _whole(d.figure("age_from")),
                _whole(d.figure("age_to")),
                d.figure("yuan"),
                f"at most {d.text('yuan')} yuan {per} at "
                f"{d.text('age_from')} to under {d.text('age_to')}",
            )
            for d in self.book.in_force("minor_payments", rule, day)
        ]

    def _minor(self, e: LedgerEvent, account: Holder, day) -> None:
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
        platform, yuan = e.platform, e.yuan
        state = self.months.get((platform, whose, month))
        if state is None:
            state = self.months[(platform, whose, month)] = Month()
        state.total += yuan
        collect = self.collect
        nil, each, monthly = self._rules(day)
        for duty, below, boundary in nil:
            if age < below:
                b = collect.found(duty, platform, whose, month) or collect.breach(
                    duty,
                    platform,
                    whose,
                    month,
                    metric="payments_yuan",
                    boundary=boundary,
                    cap=ZERO,
                    account=e.account,
                    person=account.person,
                )
                b.take(yuan, e, "sum")
        for duty, low, high, cap, boundary in each:
            if low <= age < high and yuan > cap:
                b = collect.found(duty, platform, whose, month) or collect.breach(
                    duty,
                    platform,
                    whose,
                    month,
                    metric="payment_yuan",
                    boundary=boundary,
                    cap=cap,
                    account=e.account,
                    person=account.person,
                )
                b.take(yuan, e)
                b.form = (PER_PAYMENT, {"age": age})
        for duty, low, high, cap, boundary in monthly:
            if not low <= age < high:
                continue
            if state.total <= cap and duty.id not in state.breached:
                continue
            b = collect.found(duty, platform, whose, month) or collect.breach(
                duty,
                platform,
                whose,
                month,
                metric="month_yuan",
                boundary=boundary,
                cap=cap,
                account=e.account,
                person=account.person,
            )
            state.breached.add(duty.id)
            b.take(None, e)
            b.value = state.total
            b.form = (PER_MONTH, {})

    def _payer(self, e: LedgerEvent, account: Holder, day) -> None:
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
                b.take(e.yuan, e, "sum")
                b.form = (PAYER, {})

    def _confirmation(self, e: LedgerEvent, day) -> None:
        for duty in self.book.in_force("recharge_cap", "confirmation", day):
            self.collect.checked.add(("recharge_cap", e.platform))
            key = (e.platform, e.id)
            if key in self.confirmed:
                self.confirmed.discard(key)
            else:
                self.pending[key] = (duty, month_of(day), e, self.collect.seq)

    def _cap(self, e: LedgerEvent, day) -> None:
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
                b.take(e.yuan, e)

    def part(self) -> tuple[dict, set]:
        """What a worker leaves open: payments not yet confirmed, confirmations not yet
        matched (their payment may be another worker's)."""
        return self.pending, self.confirmed

    def absorb(self, part: tuple[dict, set]) -> None:
        pending, confirmed = part
        for key, held in pending.items():
            mine = self.pending.get(key)
            if mine is None or mine[3] < held[3]:
                self.pending[key] = held
        self.confirmed |= confirmed

    def finish(self) -> None:
        """Payments left without a confirmation are breaches, per platform and month."""
        for key in self.confirmed & self.pending.keys():
            del self.pending[key]
        for (platform, _), (duty, month, e, seq) in sorted(self.pending.items()):
            self.collect.seq = seq
            b = self.collect.breach(
                duty,
                platform,
                f"platform:{platform}",
                month,
                metric="unconfirmed_payments",
                boundary="a confirmation at every payment",
                cap=Decimal(0),
            )
            b.take(Decimal(1), e, "sum")
            b.form = (UNCONFIRMED, {})
        self.pending.clear()
