"""账号出售出租: check 4, an account whose person key stays while its device, payer and
login region all change within a window (反电信网络诈骗法 art. 31).

State per account: for each of the three, the values seen and when each was first
seen (at most `MAX_VALUES` a dimension), never the events. The account's first value
of each is its own; the registered devices of the accounts file are its own too. A
signal when a new device, a new payer and a new region all first appear within
`window_days` of one another, the earliest of them at least `settled_days` after the
account's own values were first seen (a new account's first weeks are not a change).

An account's events all go to one worker (domain/duties/partition.py), so a worker's
part is its accounts' profiles, of which only those that changed all three can be a
signal (`part`); the driver takes them in (`absorb`) and decides (`finish`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from compliance.domain.duties.accounts import Accounts, Holder
from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.logs.platform_records import LedgerEvent

MAX_VALUES = 16
DIMENSIONS = ("device", "payer", "region")
SIGNAL_NOTE = "信号 a signal, not a violation"


@dataclass(frozen=True, slots=True)
class Seen:
    at: datetime
    id: str
    type: str


@dataclass(slots=True)
class Profile:
    """一个账户的设备、付款人与地区: each value first seen (when and in which event)."""

    values: dict[str, dict[str, Seen]] = field(default_factory=dict)

    def see(self, dimension: str, value: str, e: LedgerEvent) -> None:
        known = self.values.setdefault(dimension, {})
        first = known.get(value)
        if first is None:
            if len(known) < MAX_VALUES:
                known[value] = Seen(e.at, e.id, e.type)
        elif e.at < first.at:
            known[value] = Seen(e.at, e.id, e.type)

    def keep(self, dimension: str, value: str, seen: Seen) -> None:
        """Another part's first sight of a value, kept as `see` would have."""
        known = self.values.setdefault(dimension, {})
        first = known.get(value)
        if (first is None and len(known) < MAX_VALUES) or (
            first is not None and seen.at < first.at
        ):
            known[value] = seen


class Resale:
    def __init__(self, book: DutyBook, accounts: Accounts, collect: Collector):
        self.book, self.accounts, self.collect = book, accounts, collect
        self.profiles: dict[tuple[str, str], Profile] = {}
        self.platforms: set[str] = set()  # of profiles handed over by workers that held none

    def see(self, e: LedgerEvent) -> None:
        key = (e.platform, e.account)
        profile = self.profiles.get(key)
        if profile is None:
            profile = self.profiles[key] = Profile()
        if e.device is not None:
            profile.see("device", e.device, e)
        if e.payer is not None:
            profile.see("payer", e.payer, e)
        if e.region is not None:
            profile.see("region", e.region, e)

    def part(self) -> tuple[dict[tuple[str, str], Profile], set[str]]:
        """The profiles that may be a signal (all three changed), and every profile's
        platform (each is checked)."""
        platforms = self.platforms | {platform for platform, _ in self.profiles}
        return {k: p for k, p in self.profiles.items() if _changed(p)}, platforms

    def absorb(self, part: tuple[dict[tuple[str, str], Profile], set[str]]) -> None:
        profiles, platforms = part
        for key, theirs in profiles.items():
            mine = self.profiles.get(key)
            if mine is None:
                self.profiles[key] = theirs
                continue
            for dimension, values in theirs.values.items():
                for value, seen in values.items():
                    mine.keep(dimension, value, seen)
        self.platforms |= platforms

    def finish(self) -> None:
        rows = self.book.rows("account_resale", "resale")
        if rows:
            for platform in sorted(self.platforms):
                self.collect.checked.add(("account_resale", platform))
        for (platform, account_id), profile in sorted(self.profiles.items()):
            if rows:
                self.collect.checked.add(("account_resale", platform))
            if not _changed(profile):
                continue  # something stayed: no resale to see
            account = self.accounts.get((platform, account_id))
            for duty in rows:
                change = _change(profile, account, duty)
                if change is None or not duty.in_force(local_day(change[0].at)):
                    continue
                if account is None or account.person is None:
                    self.collect.cannot(
                        "account_resale",
                        platform,
                        "accounts person",
                        "device, payer and region changed on an account without a person key",
                    )
                    continue
                self._signal(duty, platform, account_id, account, change)

    def _signal(
        self, duty: Duty, platform: str, account_id: str, account: Holder, change: list[Seen]
    ) -> None:
        span = max(s.at for s in change) - min(s.at for s in change)
        b = self.collect.breach(
            duty,
            platform,
            f"account:{account_id}",
            month_of(local_day(min(s.at for s in change))),
            metric="days_device_payer_region_changed_within",
            boundary=f"device, payer and region all new within {duty.text('window_days')} days",
            cap=duty.figure("window_days"),
            account=account_id,
            person=account.person,
        )
        for seen, dimension in zip(change, DIMENSIONS, strict=True):
            b.see(
                Decimal(span.days),
                event(seen.id, seen.at, f"new_{dimension}:{seen.type}"),
                "max",
            )
        b.detail = (
            f"{SIGNAL_NOTE}: the person key stayed while a new device, payer and login region "
            f"all appeared within {span.days} days; resale, rental, or one person's move, new "
            "phone and new card at once"
        )


def _changed(profile: Profile) -> bool:
    return all(len(profile.values.get(d, ())) >= 2 for d in DIMENSIONS)


def _change(profile: Profile, account: Holder | None, duty: Duty) -> list[Seen] | None:
    """A new device, payer and region first seen within the window, after the settled
    days; the earliest such triple, as three `Seen`, else None."""
    window = timedelta(days=int(duty.figure("window_days")))
    settled = timedelta(days=int(duty.figure("settled_days")))
    registered = set(account.devices) if account is not None else set()
    own_since: list[datetime] = []
    news: list[list[Seen]] = []
    for dimension in DIMENSIONS:
        seen = profile.values[dimension]
        first = min(seen.values(), key=lambda s: s.at)
        own = {v for v, s in seen.items() if s is first}
        if dimension == "device":
            own |= registered
        own_since.append(first.at)
        fresh = sorted((s for v, s in seen.items() if v not in own), key=lambda s: s.at)
        if not fresh:
            return None
        news.append(fresh)
    settled_from = max(own_since)
    for anchor in sorted((s for fresh in news for s in fresh), key=lambda s: s.at):
        if anchor.at - settled_from < settled:
            continue
        picked = []
        for fresh in news:
            hit = next(
                (s for s in fresh if anchor.at <= s.at and s.at - anchor.at <= window),
                None,
            )
            if hit is None:
                break
            picked.append(hit)
        else:
            return picked
    return None
