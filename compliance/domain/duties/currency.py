"""积分与虚拟货币: checks 7, 8, 11, 12 and 14 on the ledger's events, one event at a time.

What moves points or currency out of the game (a withdrawal, a redemption for
goods), between users (a transfer), into it without money (a grant), or by
chance for money (a paid draw); and a minor's part in trades and draws. Each
breach is gathered per account and month; nothing is held per event.
"""

from __future__ import annotations

import operator
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from itertools import compress, repeat
from typing import Any

from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.calendar import age_on, month_of
from compliance.domain.duties.collect import Breach, Collector
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.logs.platform_records import Features, LedgerEvent

POINTS = "points"
PRICE_PLACES = Decimal("0.0001")
PRICES_HELD = 4096
EVENTS_OF = "{count} {type} events{currency}"
PRICE_DRIFT = "{count} recharges at another unit price (first {first})"
_YUAN = operator.attrgetter("yuan")
_UNITS = operator.attrgetter("units")
_CURRENCY = operator.attrgetter("currency")
_PLATFORM = operator.attrgetter("platform")


def _amount(e: LedgerEvent) -> Decimal | None:
    if e.yuan is not None:
        return e.yuan
    return Decimal(abs(e.units)) if e.units is not None else None


class Currency:
    types = frozenset({"withdrawal", "redemption", "transfer", "grant", "recharge", "draw"})

    def __init__(
        self,
        book: DutyBook,
        accounts: Accounts,
        features: dict[str, Features] | None,
        collect: Collector,
    ):
        self.book, self.accounts, self.features, self.collect = book, accounts, features, collect
        self.draws: dict[str, tuple[Duty, str, int]] = {}  # platform → odds row, month, place
        self.prices: dict[tuple[str, str], Decimal] = {}  # (platform, currency) → first price
        self.first_prices: dict[tuple[str, str], Decimal] | None = None  # given by the driver
        self._prices: dict[tuple[Decimal, int], Decimal] = {}  # (yuan, units) → price, bounded
        self._price_days: dict[date, tuple[list[Duty], str]] = {}  # rows in force, month
        self._pricing: set[str] = set()  # platforms marked checked for unit_price
        self._subjects: dict[str | None, str] = {}  # currency → `currency:…`
        self.on = {
            "withdrawal": self._outflow,
            "redemption": self._outflow,
            "transfer": self._transfers,
            "grant": self._grant,
            "draw": self._draws,
        }
        self.on_block = {"recharge": self._recharges}

    def see(self, e: LedgerEvent, day: date) -> None:
        """One event; `day` its Beijing day."""
        if e.type in ("withdrawal", "redemption"):
            self._outflow(e, day)
        elif e.type == "transfer":
            self._transfer(e, day)
        elif e.type == "grant":
            self._flag("unbought_currency", "grant", e, day, "granted", "only for fiat money")
            self._reward(e, day)
        elif e.type == "recharge":
            self._price(e, day)
        if e.type == "draw":
            self._draw(e, day)
        if e.type in ("transfer", "draw"):
            self._minor(e, day)

    def _transfers(self, e: LedgerEvent, day: date) -> None:
        self._transfer(e, day)
        self._minor(e, day)

    def _grant(self, e: LedgerEvent, day: date) -> None:
        self._flag("unbought_currency", "grant", e, day, "granted", "only for fiat money")
        self._reward(e, day)

    def _draws(self, e: LedgerEvent, day: date) -> None:
        self._draw(e, day)
        self._minor(e, day)

    def _flag(self, check: str, rule: str, e: LedgerEvent, day, metric: str, boundary: str):
        for duty in self.book.in_force(check, rule, day):
            self.collect.checked.add((check, e.platform))
            self._breach(duty, e, day, metric, boundary)

    def _breach(self, duty: Duty, e: LedgerEvent, day, metric: str, boundary: str) -> None:
        subject, month = f"account:{e.account}", month_of(day)
        b = self.collect.found(duty, e.platform, subject, month)
        if b is None:
            account = self.accounts.of(e.platform, e.account)
            b = self.collect.breach(
                duty,
                e.platform,
                subject,
                month,
                metric=metric,
                boundary=boundary,
                cap=Decimal(0),
                account=e.account,
                person=account.person if account else None,
            )
        b.take(_amount(e), e, "sum")
        b.form = (EVENTS_OF, {"type": e.type, "currency": f" ({e.currency})" if e.currency else ""})

    def _outflow(self, e: LedgerEvent, day) -> None:
        for duty in self.book.in_force("cash_out", "outflow", day):
            self.collect.checked.add(("cash_out", e.platform))
            if e.type not in duty.text("types").split(","):
                continue
            wanted = duty.figures.get("currency")
            if wanted == POINTS and e.currency != POINTS:
                continue
            if wanted == "*" and e.currency == POINTS:
                continue  # points are the 2007 row's
            self._breach(duty, e, day, f"{e.type}_amount", "no exchange for cash or goods")

    def _transfer(self, e: LedgerEvent, day) -> None:
        if e.counterpart is None or e.counterpart == e.account:
            return
        if e.currency == POINTS:
            for duty in self.book.in_force("transfers", "points_transfer", day):
                self.collect.checked.add(("transfers", e.platform))
                self._breach(duty, e, day, "points_transferred", "no point transfers between users")
            return
        for duty in self.book.in_force("transfers", "currency_transfer", day):
            self.collect.checked.add(("transfers", e.platform))
            feature = None if self.features is None else self.features.get(e.platform)
            if feature is None:
                self.collect.cannot(
                    "transfers",
                    e.platform,
                    "platform-config features",
                    "currency transfers where it is not given whether transfers are a feature",
                )
            elif not feature.transfers:
                self._breach(duty, e, day, "currency_transferred", "transfers are no feature")

    def _reward(self, e: LedgerEvent, day) -> None:
        """Check 22: a grant given for logging in or for recharging (the draft's inducements)."""
        for duty in self.book.in_force("draft_advisories", "reward", day):
            self.collect.checked.add(("draft_advisories", e.platform))
            if e.reason in duty.text("reasons").split(","):
                self._breach(duty, e, day, f"{e.reason}_rewards", "no login or recharge rewards")

    def _price(self, e: LedgerEvent, day) -> None:
        """Check 13: a recharge whose yuan per unit differs from the currency's first."""
        if e.yuan is None or not e.units or e.currency is None:
            return
        rows = self._price_days.get(day)
        if rows is None:
            rows = self._price_days[day] = (
                self.book.in_force("unit_price", "price_drift", day),
                month_of(day),
            )
        duties, month = rows
        if not duties:
            return
        if e.platform not in self._pricing:
            self._pricing.add(e.platform)
            self.collect.checked.add(("unit_price", e.platform))
        price = self._prices.get((e.yuan, e.units))
        if price is None:
            if len(self._prices) >= PRICES_HELD:
                self._prices.clear()
            price = self._prices[(e.yuan, e.units)] = (e.yuan / e.units).quantize(PRICE_PLACES)
        key = (e.platform, e.currency)
        if self.first_prices is not None and key in self.first_prices:
            first = self.first_prices[key]
        else:
            first = self.prices.setdefault(key, price)
        if price != first:
            self._drift(e, price, first, duties, month)

    def _drift(self, e: LedgerEvent, price: Decimal, first: Decimal, duties, month: str) -> None:
        """A recharge off its currency's first price (whose first price a process never
        changes once set, so a breach's detail is made when it is)."""
        collect = self.collect
        subject = self._subjects.get(e.currency)
        if subject is None:
            subject = self._subjects[e.currency] = f"currency:{e.currency}"
        for duty in duties:
            b = collect.found(duty, e.platform, subject, month) or _drift(
                collect, duty, e.platform, subject, month, first
            )
            b.take(price, e, "max")

    def _recharges(
        self, seqs: Sequence[int], events: Sequence[LedgerEvent], days: Sequence[date]
    ) -> None:
        """Check 13 over a block's recharges at once (`_price` for each, in ledger order):
        where each has a price and rows in force, the prices are looked up together and
        only a recharge off its currency's first price is handled alone."""
        yuans, units = list(map(_YUAN, events)), list(map(_UNITS, events))
        currencies = list(map(_CURRENCY, events))
        table, dates = self._price_days, set(days)
        for day in dates - table.keys():
            table[day] = (self.book.in_force("unit_price", "price_drift", day), month_of(day))
        if (
            not all(map(operator.is_not, yuans, repeat(None)))  # no `in`: Decimal == None is slow
            or None in currencies
            or None in units
            or 0 in units
            or not all(table[day][0] for day in dates)
        ):
            collect = self.collect
            for seq, e, day in zip(seqs, events, days, strict=True):
                collect.seq = seq
                self._price(e, day)
            return
        platforms = list(map(_PLATFORM, events))
        for platform in set(platforms) - self._pricing:
            self._pricing.add(platform)
            self.collect.checked.add(("unit_price", platform))
        cache = self._prices
        keys = list(zip(yuans, units, strict=True))
        prices: list[Any] = list(map(cache.get, keys))
        for i in compress(range(len(keys)), map(operator.is_, prices, repeat(None))):
            price = cache.get(keys[i])
            if price is None:
                if len(cache) >= PRICES_HELD:
                    cache.clear()
                price = cache[keys[i]] = (yuans[i] / units[i]).quantize(PRICE_PLACES)
            prices[i] = price
        pairs = list(zip(platforms, currencies, strict=True))
        given, firsts = self.first_prices, {}
        for pair in set(pairs):
            if given is not None and pair in given:
                firsts[pair] = given[pair]
            else:
                firsts[pair] = self.prices.setdefault(pair, prices[pairs.index(pair)])
        off = list(map(operator.ne, prices, map(firsts.__getitem__, pairs)))
        if True in off:
            drifted = list(compress(range(len(off)), off))
            if not self._drifts(drifted, seqs, events, days, prices, pairs, firsts):
                collect = self.collect
                for i in drifted:
                    collect.seq = seqs[i]
                    duties, month = table[days[i]]
                    self._drift(events[i], prices[i], firsts[pairs[i]], duties, month)

    def _drifts(self, drifted, seqs, events, days, prices, pairs, firsts) -> bool:
        """A block's recharges off their first price, each breach's at once in ledger order
        (`Breach.take_max`); False, nothing done, where a month's days differ in rows."""
        table = self._price_days
        dates = list(map(days.__getitem__, drifted))
        rows: dict[str, list[Duty]] = {}
        months: dict[date, str] = {}
        for day in set(dates):
            duties, month = table[day]
            months[day] = month
            held = rows.setdefault(month, duties)
            if held is not duties and held != duties:
                return False
        groups: defaultdict[tuple[tuple[str, str], str], list[int]] = defaultdict(list)
        keys = zip(map(pairs.__getitem__, drifted), map(months.__getitem__, dates), strict=True)
        for key, i in zip(keys, drifted, strict=True):
            groups[key].append(i)
        collect = self.collect
        for key, chosen in groups.items():
            (platform, currency), month = key
            subject = self._subjects.get(currency)
            if subject is None:
                subject = self._subjects[currency] = f"currency:{currency}"
            first = firsts[key[0]]
            picked_seqs = [seqs[i] for i in chosen]
            picked = [events[i] for i in chosen]
            values = [prices[i] for i in chosen]
            for duty in rows[month]:
                collect.seq = picked_seqs[0]
                b = collect.found(duty, platform, subject, month) or _drift(
                    collect, duty, platform, subject, month, first
                )
                b.take_max(values, picked, picked_seqs)
        collect.seq = seqs[drifted[-1]]
        return True

    def _draw(self, e: LedgerEvent, day) -> None:
        paid = (e.yuan is not None and e.yuan > 0) or (e.units is not None and e.units > 0)
        if paid:
            self._flag("paid_draws", "paid_draw", e, day, "paid_draws", "no random draw for money")
        for duty in self.book.in_force("paid_draws", "odds_published", day):
            self.draws.setdefault(e.platform, (duty, month_of(day), self.collect.seq))

    def _minor(self, e: LedgerEvent, day) -> None:
        account = self.accounts.of(e.platform, e.account)
        if account is None or account.birth_date is None:
            return
        if age_on(account.birth_date, day) >= 18:
            return
        for duty in self.book.in_force("minor_trades", "minor_event", day):
            self.collect.checked.add(("minor_trades", e.platform))
            if e.type in duty.text("types").split(","):
                self._breach(duty, e, day, f"minor_{e.type}s", "no trades or draws for minors")

    def part(self) -> dict[str, tuple[Duty, str, int]]:
        return self.draws

    def absorb(self, draws: dict[str, tuple[Duty, str, int]]) -> None:
        """Another worker's first draw of each platform: the earlier in the ledger holds."""
        for platform, held in draws.items():
            mine = self.draws.get(platform)
            if mine is None or held[2] < mine[2]:
                self.draws[platform] = held

    def first_price(self, e: LedgerEvent, day: date) -> Decimal | None:
        """A recharge's unit price where it would be its currency's first (check 13)."""
        if e.yuan is None or not e.units or e.currency is None:
            return None
        if not self.book.in_force("unit_price", "price_drift", day):
            return None
        return (e.yuan / e.units).quantize(PRICE_PLACES)

    def finish(self, published: set[str]) -> None:
        """Draws on a platform that publishes no probability breach the 2016 row."""
        for platform, (duty, month, _) in sorted(self.draws.items()):
            self.collect.checked.add(("paid_draws", platform))
            if platform in published:
                continue
            b = self.collect.breach(
                duty,
                platform,
                f"platform:{platform}",
                month,
                metric="draw_odds_published",
                boundary="every drawable item's probability published",
                cap=None,
            )
            b.see(None, None)
            b.detail = "draws in the ledger, no published probability in the configuration"


def _drift(
    collect: Collector, duty: Duty, platform: str, subject: str, month: str, first: Decimal
) -> Breach:
    """Check 13's breach of a currency's month, made the first time its price drifts."""
    b = collect.breach(
        duty,
        platform,
        subject,
        month,
        metric="yuan_per_unit",
        boundary=f"the first price seen, {first} yuan a unit",
        cap=first,
    )
    b.form = (PRICE_DRIFT, {"first": first})
    return b
