"""时段与实名: what each account's play in the sessions says of checks 1, 2 and 5.

A session is a player's play from `started_at` to `ended_at` (a session without an
end is the instant it started: its hours are judged at that instant, its length is
unknown). Times are Beijing time; the rows in force are those of the session's
first local day.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from compliance.domain.duties.accounts import Accounts, Holder
from compliance.domain.duties.calendar import (
    CALENDAR,
    YEARS,
    DayKind,
    age_at,
    at_local,
    day_kind,
    days_of,
    local,
    local_day,
    month_of,
)
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.rows import Duty, DutyBook

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MINUTE = Decimal(60)
Interval = tuple[datetime, datetime]


@dataclass(frozen=True, slots=True)
class Play:
    """一段游戏: one account's part in one session."""

    platform: str
    account: str
    session_id: str
    start: datetime
    end: datetime | None


def clock(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours) % 24, int(minutes))


def minutes(seconds: float) -> Decimal:
    return (Decimal(round(seconds)) / MINUTE).quantize(Decimal("0.01"))


def overlap(a: Interval, b: Interval) -> float:
    return max(0.0, (min(a[1], b[1]) - max(a[0], b[0])).total_seconds())


def contains(spans: list[Interval], at: datetime) -> bool:
    return any(s <= at < e for s, e in spans)


def night_spans(day: date, duty: Duty) -> list[Interval]:
    """The closed hours of a local day: [00:00, 08:00) and [22:00, 24:00)."""
    shut, opens = clock(duty.text("closed_from")), clock(duty.text("closed_to"))
    midnight = at_local(day, time(0))
    return [(midnight, at_local(day, opens)), (at_local(day, shut), midnight + timedelta(days=1))]


class Hours:
    """Checks 1, 2 and 5 over each account's sessions."""

    def __init__(
        self,
        book: DutyBook,
        accounts: Accounts,
        collect: Collector,
        adjusted_closed: bool = False,
    ):
        self.book, self.accounts, self.collect = book, accounts, collect
        self.adjusted_closed = adjusted_closed
        self.daily: defaultdict[tuple[str, str, date], float] = defaultdict(float)
        self.daily_sessions: dict[tuple[str, str, date], str] = {}
        self.guest_seconds: defaultdict[tuple[str, str], float] = defaultdict(float)
        self.guest_first: dict[tuple[str, str], tuple[datetime, str]] = {}

    def play(self, p: Play) -> None:
        account = self.accounts.of(p.platform, p.account)
        for check in ("unverified_play", "minor_hours"):
            self.collect.checked.add((check, p.platform))
        if account is None:
            self.collect.cannot(
                "unverified_play",
                p.platform,
                "accounts",
                "players of the sessions not in the accounts file (their status is unknown)",
            )
            return
        day = local_day(p.start)
        self._verified(p, account, day)
        if account.kind == "guest":
            self._guest(p, account, day)
        if account.birth_date is None:
            self.collect.cannot(
                "minor_hours",
                p.platform,
                "birth_date",
                "sessions of accounts without a birth date (a minor cannot be told)",
            )
            return
        age = age_at(account.birth_date, p.start)
        if age >= 18:
            return
        for duty in self.book.in_force("minor_hours", "night", day):
            self._closed(p, account, age, duty, lambda d, duty=duty: night_spans(d, duty))
        for duty in self.book.in_force("minor_hours", "window", day):
            self._window(p, account, age, duty)
        if p.end is not None and self.book.in_force("minor_hours", "daily_total", day):
            for d in days_of(p.start, p.end):
                span = (at_local(d, time(0)), at_local(d + timedelta(days=1), time(0)))
                key = (p.platform, p.account, d)
                self.daily[key] += overlap((p.start, p.end), span)
                self.daily_sessions.setdefault(key, p.session_id)

    def _verified(self, p: Play, account: Holder, day: date) -> None:
        status, verified_at = account.status, account.verified_at
        for duty in self.book.in_force("unverified_play", "unverified", day):
            if account.kind not in duty.text("accounts").split(","):
                continue
            if status is None:
                self.collect.cannot(
                    "unverified_play",
                    p.platform,
                    "verification",
                    "sessions of accounts whose real-name verification is not given",
                )
                continue
            if status == "verified" and (verified_at is None or verified_at <= p.start):
                continue
            b = self.collect.breach(
                duty,
                p.platform,
                f"account:{p.account}",
                month_of(day),
                metric="sessions",
                boundary="real-name verified before play",
                cap=Decimal(0),
                account=p.account,
                person=account.person,
            )
            b.see(Decimal(1), event(p.session_id, p.start, "session"), "sum")
            b.detail = f"{b.count} sessions while {status}" + (
                f" (verified {verified_at.isoformat()})"
                if verified_at and status == "verified"
                else ""
            )

    def _guest(self, p: Play, account: Holder, day: date) -> None:
        key = (p.platform, p.account)
        if key not in self.guest_first or p.start < self.guest_first[key][0]:
            self.guest_first[key] = (p.start, p.session_id)
        if p.end is not None:
            self.guest_seconds[key] += (p.end - p.start).total_seconds()
        for duty in self.book.in_force("guest_rules", "guest_minutes", day):
            self.collect.checked.add(("guest_rules", p.platform))
            if p.end is None:
                self.collect.cannot(
                    "guest_rules",
                    p.platform,
                    "ended_at",
                    "guest sessions without ended_at (their length is unknown)",
                )
                continue
            total = minutes(self.guest_seconds[key])
            if total > duty.figure("minutes"):
                b = self.collect.breach(
                    duty,
                    p.platform,
                    f"account:{p.account}",
                    month_of(day),
                    metric="guest_minutes",
                    boundary=f"at most {duty.text('minutes')} minutes",
                    cap=duty.figure("minutes"),
                    account=p.account,
                )
                b.see(None, event(p.session_id, p.start, "session"))
                b.value = total

    def _closed(self, p: Play, account: Holder, age: int, duty: Duty, spans_of) -> None:
        end = p.end or p.start
        spans = [s for d in days_of(p.start, end) for s in spans_of(d)]
        if p.end is None or p.end == p.start:
            if not contains(spans, p.start):
                return
            outside = Decimal(0)
        else:
            outside = minutes(sum(overlap((p.start, p.end), s) for s in spans))
            if not outside:
                return
        self._hours_breach(p, account, age, duty, outside, "minutes_in_closed_hours")

    def _window(self, p: Play, account: Holder, age: int, duty: Duty) -> None:
        end = p.end or p.start
        spans: list[Interval] = []
        for d in days_of(p.start, end):
            open_ = self._open(d, duty)
            if open_ is None:
                self.collect.cannot(
                    "minor_hours",
                    p.platform,
                    "calendar",
                    f"minors' sessions on days {CALENDAR} does not cover ({YEARS})",
                )
                return
            if open_:
                spans.append(
                    (
                        at_local(d, clock(duty.text("open_from"))),
                        at_local(d, clock(duty.text("open_to"))),
                    )
                )
        if p.end is None or p.end == p.start:
            if contains(spans, p.start):
                return
            outside = Decimal(0)
        else:
            total = (p.end - p.start).total_seconds()
            outside = minutes(total - sum(overlap((p.start, p.end), s) for s in spans))
            if not outside:
                return
        self._hours_breach(p, account, age, duty, outside, "minutes_outside_window")

    def _open(self, day: date, duty: Duty) -> bool | None:
        """Whether minors may play on a local day: by its weekday, or as a statutory
        holiday; a 调休 working weekend day closed only with `adjusted_closed`."""
        days = duty.text("open_days").split(",")
        weekday = WEEKDAYS[day.weekday()] in days
        kind = day_kind(day)
        if kind is DayKind.UNKNOWN:
            return True if weekday and not self.adjusted_closed else None
        if kind is DayKind.ADJUSTED and self.adjusted_closed:
            return False
        return weekday or ("holiday" in days and kind is DayKind.HOLIDAY)

    def _hours_breach(self, p, account, age, duty, outside, metric) -> None:
        if duty.figures.get("rule") == "window":
            boundary = (
                f"{duty.text('open_from')}–{duty.text('open_to')} on {duty.text('open_days')}"
            )
        else:
            boundary = f"none {duty.text('closed_from')}–{duty.text('closed_to')}"
        b = self.collect.breach(
            duty,
            p.platform,
            f"account:{p.account}",
            month_of(local_day(p.start)),
            metric=metric,
            boundary=boundary,
            cap=Decimal(0),
            account=p.account,
            person=account.person,
        )
        b.see(outside, event(p.session_id, p.start, "session"), "sum")
        at = local(p.start).strftime("%a %Y-%m-%d %H:%M")
        b.detail = (
            f"{b.count} sessions of a minor outside the hours (first: {at}, age {age})"
            if b.count == 1
            else f"{b.count} sessions of a minor outside the hours"
        )

    def finish(self) -> None:
        """The day totals (2019) and the guest devices, judged once every session is in."""
        for (platform, account, d), seconds in sorted(self.daily.items()):
            for duty in self.book.in_force("minor_hours", "daily_total", d):
                kind = day_kind(d)
                used = minutes(seconds)
                low, high = duty.figure("minutes"), duty.figure("holiday_minutes")
                if used <= low:
                    continue
                if kind is DayKind.UNKNOWN and used <= high:
                    self.collect.cannot(
                        "minor_hours",
                        platform,
                        "calendar",
                        f"minors' day totals on days {CALENDAR} does not cover ({YEARS})",
                    )
                    continue
                cap = high if kind is DayKind.HOLIDAY else low
                if used <= cap:
                    continue
                b = self.collect.breach(
                    duty,
                    platform,
                    f"account:{account}",
                    month_of(d),
                    metric="minutes_in_day",
                    boundary=f"at most {cap} minutes a day",
                    cap=cap,
                    account=account,
                    person=self.accounts[(platform, account)].person,
                )
                sid = self.daily_sessions[(platform, account, d)]
                b.see(used, event(sid, at_local(d, time(0)), "day"))
                b.detail = f"{b.count} days over the cap (largest {b.value} minutes)"
        self._devices()

    def _devices(self) -> None:
        by_device: defaultdict[tuple[str, str], list[tuple[datetime, str, str]]] = defaultdict(list)
        for (platform, account), (start, sid) in self.guest_first.items():
            acc = self.accounts[(platform, account)]
            if not acc.devices:
                self.collect.cannot(
                    "guest_rules",
                    platform,
                    "devices",
                    "guest accounts without device ids (a repeat on one device cannot be seen)",
                )
            for device in acc.devices:
                by_device[(platform, device)].append((start, account, sid))
        for (platform, device), firsts in sorted(by_device.items()):
            firsts.sort()
            for (a_at, _, _), (b_at, b_acc, b_sid) in zip(firsts, firsts[1:], strict=False):
                for duty in self.book.in_force("guest_rules", "guest_device", local_day(b_at)):
                    gap = Decimal((b_at - a_at).total_seconds()) / Decimal(86400)
                    if gap >= duty.figure("days"):
                        continue
                    b = self.collect.breach(
                        duty,
                        platform,
                        f"device:{device}",
                        month_of(local_day(b_at)),
                        metric="days_since_last_guest",
                        boundary=f"not again within {duty.text('days')} days",
                        cap=duty.figure("days"),
                        account=b_acc,
                    )
                    b.see(gap.quantize(Decimal("0.01")), event(b_sid, b_at, "session"), "min")
