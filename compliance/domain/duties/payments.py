"""充值: what each payment says of checks 6 (minors' caps), 15 (the single-recharge cap and
the confirmations) and 2 (no payment in guest mode).

A payment is a ledger event that takes money: a recharge, a room-card purchase or
a paid draw, with `yuan` above 0. The month is the Beijing calendar month; a
person's month sums the payments of all their accounts on the platform (the
person key), or of one account with `per_account`.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from compliance.domain.duties.accounts import Accounts, Holder
from compliance.domain.duties.calendar import month_of
from compliance.domain.duties.collect import Breach, Collector
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
MONTH_FORM: tuple[str, dict[str, Any]] = (PER_MONTH, {})
_Rows = tuple[str, list[Duty], list[Duty], list[Duty], list[Duty], dict[Any, Any], int, int]


def _whole(age: Decimal) -> int | Decimal:
    """An age figure as an int where it is whole (compared with an int age, faster)."""
    return int(age) if age == age.to_integral_value() else age


AgeRules = tuple[
    list[tuple[Duty, str]], list[tuple[Duty, Decimal, str]], list[tuple[Duty, Decimal, str]], Any
]


def _of_age(rules: MinorRules, age: int) -> AgeRules:
    """每岁适用: the minors' rows of a day that apply at `age` (a nil row below its age, a
    capped row from its age_from to under its age_to), and the per-payment detail at it."""
    nil, each, month = rules
    return (
        [(duty, boundary) for duty, below, boundary in nil if age < below],
        [(duty, cap, boundary) for duty, low, high, cap, boundary in each if low <= age < high],
        [(duty, cap, boundary) for duty, low, high, cap, boundary in month if low <= age < high],
        (PER_PAYMENT, {"age": age}),
    )


def is_payment(e: LedgerEvent) -> bool:
    return e.type in PAYMENTS and e.yuan is not None and e.yuan > 0


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
        self.months: dict[tuple[Any, ...], Decimal] = {}  # a month's minor payments
        self.pending: dict[tuple[str, str], tuple[Duty, str, LedgerEvent, int]] = {}
        self.confirmed: set[tuple[str, str]] = set()
        self._days: dict[date, _Rows] = {}
        self._ids = accounts.by_platform
        self._judged: set[str] = set()  # platforms marked checked for minor_payments
        self._confirming: set[str] = set()  # and for recharge_cap's confirmations
        self._uncapped: dict[str, int] = {}  # recharges on a platform with no cap, counted
        self.on = {
            "recharge": self._payment,
            "room_card_purchase": self._payment,
            "draw": self._payment,
            "confirmation": self._confirm,
        }

    def see(self, e: LedgerEvent, day: date) -> None:
        """One event; `day` its Beijing day."""
        if e.type == "confirmation":
            self._confirm(e, day)
        elif e.type in PAYMENTS:
            self._payment(e, day)

    def _confirm(self, e: LedgerEvent, day: date) -> None:
        if e.ref is not None and self.pending.pop((e.platform, e.ref), None) is None:
            self.confirmed.add((e.platform, e.ref))

    def _day(self, day: date) -> _Rows:
        """每日条目: what the payments' checks read of a day, looked up once per day."""
        book = self.book
        found = self._days[day] = (
            month_of(day),
            book.in_force("recharge_cap", "confirmation", day),
            book.in_force("recharge_cap", "cap", day),
            book.in_force("guest_rules", "guest_payment", day),
            book.in_force("payer_name", "payer_match", day),
            self._rules(day),
            day.year,
            day.month * 100 + day.day,
        )
        return found

    def _payment(self, e: LedgerEvent, day: date) -> None:
        yuan = e.yuan
        if yuan is None or not yuan > ZERO:
            return
        rows = self._days.get(day) or self._day(day)
        month, confirm, capped, guest, payer, minors, year, month_day = rows
        platform, collect = e.platform, self.collect
        if confirm:
            if platform not in self._confirming:
                self._confirming.add(platform)
                collect.checked.add(("recharge_cap", platform))
            key = (platform, e.id)
            confirmed = self.confirmed
            for duty in confirm:
                if key in confirmed:
                    confirmed.discard(key)
                else:
                    self.pending[key] = (duty, month, e, collect.seq)
        if capped and e.type == "recharge":
            caps = self.caps
            if caps is None or not caps.get(platform):
                uncapped = self._uncapped
                uncapped[platform] = uncapped.get(platform, 0) + len(capped)
            else:
                self._cap(e, capped, month)
        ids = self._ids.get(platform)
        account = None if ids is None else ids.get(e.account)
        if platform not in self._judged:
            self._judged.add(platform)
            collect.checked.add(("minor_payments", platform))
        if account is None:
            collect.cannot(
                "minor_payments",
                platform,
                "accounts",
                "payments by accounts not in the accounts file (age unknown)",
            )
            return
        if payer and e.payer is not None:
            self._payer(e, account, payer, month)
        if guest and account.kind == "guest":
            for duty in guest:
                collect.checked.add(("guest_rules", platform))
                b = collect.breach(
                    duty,
                    platform,
                    f"account:{e.account}",
                    month,
                    metric="guest_payments_yuan",
                    boundary="no payment in guest mode",
                    cap=ZERO,
                    account=e.account,
                )
                b.take(yuan, e, "sum")
        birth = account.birth_date
        if birth is None:
            collect.cannot(
                "minor_payments",
                platform,
                "birth_date",
                "payments by accounts without a birth date (a minor cannot be told)",
            )
            return
        age = year - birth.year - (month_day < birth.month * 100 + birth.day)  # age_on
        if age < 18:
            rules = minors.get(age)
            if rules is None:
                rules = minors[age] = _of_age(minors[None], age)
            self._minor(e, account, month, rules)

    def _rules(self, day: date) -> dict[int | None, Any]:
        """The minors' payment rows in force on a day, their figures read once (under None;
        under an age, those that apply at that age, `_of_age`)."""
        book = self.book
        nil = [
            (d, _whole(d.figure("age")), f"no payment under {d.text('age')}")
            for d in book.in_force("minor_payments", "nil_below", day)
        ]
        each, month = (
            self._capped(day, "per_payment", "a payment"),
            self._capped(day, "per_month", "a month"),
        )
        return {None: (nil, each, month)}

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

    def _minor(self, e: LedgerEvent, account: Holder, month: str, rules: AgeRules) -> None:
        """A minor's payment against the rows that apply at the payer's age (`_of_age`)."""
        nil, each, monthly, form = rules
        person = account.person
        platform, yuan = e.platform, e.yuan
        assert yuan is not None
        by_person = person and not self.per_account
        # a person's month keyed by the person's key itself, an account's by its id (apart)
        key = (platform, month, person) if by_person else (platform, month, None, e.account)
        months = self.months
        total = months[key] = months.get(key, ZERO) + yuan
        if not (nil or each or monthly):
            return
        whose = f"person:{person}" if by_person else f"account:{e.account}"
        found = self.collect.found
        for duty, boundary in nil:
            b = found(duty, platform, whose, month) or self._breach(
                duty, e, whose, month, person, "payments_yuan", boundary, ZERO
            )
            b.take(yuan, e, "sum")
        for duty, cap, boundary in each:
            if yuan > cap:
                b = found(duty, platform, whose, month) or self._breach(
                    duty, e, whose, month, person, "payment_yuan", boundary, cap
                )
                b.take(yuan, e)
                if b.form is not form:
                    b.form = form
        for duty, cap, boundary in monthly:
            # a month's total only grows (every payment is above 0): once over, it stays
            if total <= cap:
                continue
            b = found(duty, platform, whose, month) or self._breach(
                duty, e, whose, month, person, "month_yuan", boundary, cap
            )
            b.take(None, e)
            b.value = total
            b.form = MONTH_FORM

    def _breach(
        self,
        duty: Duty,
        e: LedgerEvent,
        whose: str,
        month: str,
        person: str | None,
        metric: str,
        boundary: str,
        cap: Decimal,
    ) -> Breach:
        """A minor's breach of a row, made the first time its subject and month breach it
        (`found` just told it is not there)."""
        return self.collect.new(
            duty, e.platform, whose, month, metric, boundary, cap, e.account, person
        )

    def _payer(self, e: LedgerEvent, account: Holder, rows: list[Duty], month: str) -> None:
        """Check 3: a payment whose payer's name digest differs from the account's."""
        for duty in rows:
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
                    month,
                    metric="payments_by_others_yuan",
                    boundary="the payer is the account holder",
                    cap=None,
                    account=e.account,
                    person=account.person,
                )
                b.take(e.yuan, e, "sum")
                b.form = (PAYER, {})

    def _confirmation(self, e: LedgerEvent, rows: list[Duty], month: str) -> None:
        platform = e.platform
        if platform not in self._confirming:
            self._confirming.add(platform)
            self.collect.checked.add(("recharge_cap", platform))
        key = (platform, e.id)
        seq = self.collect.seq
        for duty in rows:
            if key in self.confirmed:
                self.confirmed.discard(key)
            else:
                self.pending[key] = (duty, month, e, seq)

    def _cap(self, e: LedgerEvent, rows: list[Duty], month: str) -> None:
        caps = None if self.caps is None else self.caps.get(e.platform)
        for duty in rows:
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
                    month,
                    metric="recharge_yuan",
                    boundary=f"at most {cap.yuan} yuan a recharge",
                    cap=cap.yuan,
                    account=e.account,
                )
                b.take(e.yuan, e)

    def _counted(self) -> None:
        """The recharges counted on platforms with no cap, into the collector."""
        for platform, n in self._uncapped.items():
            self.collect.cannot(
                "recharge_cap",
                platform,
                "platform-config recharge_cap",
                "recharges on a platform whose single-recharge cap is not given",
                n,
            )
        self._uncapped.clear()

    def part(self) -> tuple[dict, set]:
        """What a worker leaves open: payments not yet confirmed, confirmations not yet
        matched (their payment may be another worker's)."""
        self._counted()
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
        self._counted()
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
