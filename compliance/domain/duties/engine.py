"""义务审计: the duty checks fed the run's sessions, the accounts, the ledger and the
configuration, streamed; what comes out is `DutyFinding`s.

Accounts and configuration are held (one small record per account and mode); the
sessions and the ledger pass once, and the checks keep state per account, person,
day or month, never the events themselves. A check whose input was not given is
`indeterminate` for each platform seen, naming what is missing, never held.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from compliance.domain.duties import account_signals
from compliance.domain.duties.account_signals import AccountSignals
from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.collect import Collector
from compliance.domain.duties.currency import Currency
from compliance.domain.duties.dispatch import Dispatch
from compliance.domain.duties.draw_odds import DrawFrequencies
from compliance.domain.duties.fees import OutcomeFees
from compliance.domain.duties.hours import Hours, Play
from compliance.domain.duties.mirrored_gains import ResultRow, judge_mirrored
from compliance.domain.duties.payments import Payments
from compliance.domain.duties.points import Points
from compliance.domain.duties.retention import judge_retention
from compliance.domain.duties.room_cards import RoomCards
from compliance.domain.duties.round_points import RoundPoints
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.duties.service import ServiceDays
from compliance.domain.duties.sitting import Sitting
from compliance.domain.findings import DutyFinding
from compliance.logs.platform_records import (
    Account,
    ConfigRecord,
    DrawOdds,
    Features,
    LedgerEvent,
    ModeConfig,
    RechargeCap,
    Retention,
)

__all__ = ["DutyAudit", "DutyOptions", "Play", "Sitting"]


class _Fed:
    """A ledger check fed `see(event)` alone (the signals, the draw frequencies), with the
    `part`/`absorb` by which its state is merged over workers."""

    def __init__(self, check: Any, types: tuple[str, ...] | None = None):
        self.check = check
        self._see = check.see
        if types is not None:
            self.types = types

    def see(self, e: LedgerEvent, day: date) -> None:
        self._see(e)

    def part(self) -> Any:
        return self.check.part()

    def absorb(self, state: Any) -> None:
        self.check.absorb(state)


NEEDS_ACCOUNTS = (
    "unverified_play",
    "guest_rules",
    "payer_name",
    "minor_hours",
    "minor_payments",
    "minor_trades",
    *account_signals.NEEDS_ACCOUNTS,
)
NEEDS_LEDGER = (
    "payer_name",
    "minor_payments",
    "minor_trades",
    "cash_out",
    "transfers",
    "unbought_currency",
    "unit_price",
    "paid_draws",
    "draw_frequencies",
    "recharge_cap",
    "point_caps",
    *account_signals.NEEDS_LEDGER,
)
NEEDS_CONFIG = ("point_caps", "retention", "draft_advisories")


@dataclass(frozen=True)
class DutyOptions:
    today: date
    per_account: bool = False  # 月 summed per account, not per person (research note §8 q6)
    adjusted_closed: bool = False  # 调休 working weekend days closed to minors (practice)


class PlatformConfig:
    """平台配置: a configuration file's records, by platform."""

    def __init__(self, records: Iterable[ConfigRecord]):
        self.modes: dict[tuple[str, str], ModeConfig] = {}
        self.caps: dict[str, list[RechargeCap]] = {}
        self.features: dict[str, Features] = {}
        self.retention: dict[str, dict[str, Retention]] = {}
        self.draws: set[str] = set()
        self.odds: dict[tuple[str, str], dict[str, Decimal]] = {}
        self.platforms: set[str] = set()
        for r in records:
            self.platforms.add(r.platform)
            if isinstance(r, ModeConfig):
                self.modes[(r.platform, r.mode)] = r
            elif isinstance(r, RechargeCap):
                self.caps.setdefault(r.platform, []).append(r)
            elif isinstance(r, Features):
                self.features[r.platform] = r
            elif isinstance(r, Retention):
                self.retention.setdefault(r.platform, {})[r.record] = r
            elif isinstance(r, DrawOdds):
                self.draws.add(r.platform)
                self.odds.setdefault((r.platform, r.pool), {})[r.item] = r.probability


@dataclass
class LedgerPart:
    """A worker's part: its breaches and undecided cases, each ledger check's open state
    (`part()`), the platforms and draws it saw."""

    collect: Collector
    states: list[Any]
    platforms: set[str]
    draws_seen: set[str]


class DutyAudit:
    """The checks, fed plays and ledger events; each ledger check has `see(event, day)` and
    is handed only the event types it names in `types` (every type where it names none)."""

    def __init__(
        self,
        book: DutyBook,
        options: DutyOptions,
        accounts: Iterable[Account] | Accounts | None,
        config: Iterable[ConfigRecord] | None,
        ledger_given: bool,
    ):
        self.book, self.options = book, options
        self.collect = Collector()
        self.accounts_given = accounts is not None
        self.ledger_given = ledger_given
        self.accounts = accounts if isinstance(accounts, Accounts) else Accounts(accounts or ())
        self.config = PlatformConfig(config) if config is not None else None
        self.platforms: set[str] = self.accounts.platforms()
        if self.config is not None:
            self.platforms |= self.config.platforms
        self.draws_seen: set[str] = set()
        self.hours = Hours(book, self.accounts, self.collect, options.adjusted_closed)
        caps = self.config.caps if self.config is not None else None
        self.payments = Payments(book, self.accounts, caps, self.collect, options.per_account)
        self.points = Points(book, self.config.modes if self.config else None, self.collect)
        features = self.config.features if self.config is not None else None
        self.currency = Currency(book, self.accounts, features, self.collect)
        self.service = ServiceDays(book, self.collect)
        self.signals = AccountSignals(book, self.accounts, self.collect)
        self.fees = OutcomeFees(book, self.collect)
        self.room_cards = RoomCards(book, self.collect)
        self.round_points = RoundPoints(
            book, self.config.modes if self.config else None, self.collect
        )
        odds = self.config.odds if self.config is not None else None
        self.frequencies = DrawFrequencies(book, odds, self.collect)
        self.ledger_checks: list[Any] = [
            self.payments,
            self.points,
            self.currency,
        ]
        self._resale: Callable[[LedgerEvent], None] | None = None
        if any(book.rows(check) for check in account_signals.NEEDS_LEDGER):
            self.ledger_checks.append(self.signals)
            self._resale = self.signals.resale.see
        if self.room_cards.active:
            self.ledger_checks.append(self.room_cards)
        if book.rows("draw_frequencies"):
            self.ledger_checks.append(_Fed(self.frequencies, ("draw",)))
        self._dispatch: Dispatch | None = None

    def _handlers(self) -> Dispatch:
        """事件分派: each event type's checks, looked up once per event type, not asked of
        each event (domain/duties/dispatch.py)."""
        if self._dispatch is None:
            self._dispatch = Dispatch(self.ledger_checks, self.collect, self._resale)
        return self._dispatch

    @property
    def partitionable(self) -> bool:
        """Whether the ledger can be checked in parts: every ledger check hands over what
        it leaves open (`part`) and takes another's (`absorb`)."""
        return all(hasattr(c, "part") and hasattr(c, "absorb") for c in self.ledger_checks)

    def part(self) -> LedgerPart:
        """分区结果: what a worker found in its share of the ledger, and what it left open."""
        states = [c.part() for c in self.ledger_checks]
        return LedgerPart(self.collect, states, self.platforms, self.draws_seen)

    def absorb(self, part: LedgerPart) -> None:
        """A worker's part, merged in before `finish`."""
        self.collect.absorb(part.collect)
        for check, state in zip(self.ledger_checks, part.states, strict=True):
            check.absorb(state)
        self.platforms |= part.platforms
        self.draws_seen |= part.draws_seen

    def play(self, p: Play) -> None:
        self.platforms.add(p.platform)
        self.service.see(p.platform, p.start)
        if self.accounts_given:
            self.hours.play(p)

    def session(
        self,
        platform: str,
        session_id: str,
        room: str | None,
        owner: str | None,
        players: Iterable[str],
        start: datetime,
    ) -> None:
        """A session's room, owner and players (once a session, for check 17)."""
        self.signals.session(platform, session_id, room, owner, tuple(players), start)

    def sitting(self, s: Sitting) -> None:
        """A session's rounds: its fees (check 9) and its points against the caps (10)."""
        self.platforms.add(s.platform)
        self.fees.see(s)
        self.round_points.see(s)

    def event(self, e: LedgerEvent, seq: int = 0) -> None:
        """One ledger event; `seq` its place in the ledger (its line), which orders the
        events a breach samples when workers' parts are merged."""
        self.events(seq, (e,))

    def events(self, first: int, events: Sequence[LedgerEvent]) -> None:
        """Ledger events of consecutive places from `first` (a block of lines, as
        `event_blocks` reads them)."""
        self.block(range(first, first + len(events)), events)

    def numbered(self, events: Iterable[tuple[int, LedgerEvent]]) -> None:
        """Ledger events with their places, in ledger order (a worker's own of a block)."""
        pairs = list(events)
        if pairs:
            seqs, got = zip(*pairs, strict=True)
            self.block(seqs, got)

    def block(self, seqs: Sequence[int], events: Sequence[LedgerEvent]) -> None:
        """Ledger events and their places, in ledger order, to the checks."""
        self._handlers().hand(seqs, events, self.platforms, self.draws_seen)

    def inbound(self, e: LedgerEvent, seq: int = 0) -> None:
        """A transfer of another worker's account to one of this worker's: only its
        inbound half, for check 18's coin traders (the receiver's state)."""
        self.collect.seq = seq
        self.signals.coins.inbound(e)

    def mirrored_gains(self, read: Callable[[], Iterable[ResultRow]]) -> None:
        """Check 18's mirrored gains over the run's sessions, read twice."""
        judge_mirrored(self.book, self.options.today, read, self.collect, sorted(self.service.days))

    def room_card_fees(self, read: Callable[[], Iterable[ResultRow]]) -> None:
        """Check 9's room cards against the run's sessions' results, read once."""
        self.room_cards.judge(read)

    def finish(self) -> list[DutyFinding]:
        self.hours.finish()
        self.payments.finish()
        self.points.finish()
        self.round_points.finish()
        self.points.configured(self.options.today)
        self.currency.finish(self.config.draws if self.config is not None else set())
        self.service.finish()
        self.signals.finish(self.options.today)
        self.frequencies.finish(self.options.today)
        if self.config is not None:
            for platform in sorted(self.platforms):
                if not any(p == platform for p, _ in self.config.modes):
                    self.collect.cannot(
                        "point_caps",
                        platform,
                        "platform-config mode",
                        "the configuration lists no game mode, so no caps to check",
                    )
                self._limit_published(platform)
                draws = platform in self.draws_seen or platform in self.config.draws
                judge_retention(
                    self.book,
                    platform,
                    self.config.retention.get(platform, {}),
                    self.config.features.get(platform),
                    draws,
                    self.options.today,
                    self.collect,
                )
        self._absent()
        return list(self.collect.findings(self.first_rows()))

    def _limit_published(self, platform: str) -> None:
        """Check 22: the draft's published recharge limit, read as a configured cap."""
        assert self.config is not None
        for duty in self.book.in_force("draft_advisories", "limit_published", self.options.today):
            self.collect.checked.add(("draft_advisories", platform))
            if self.config.caps.get(platform):
                continue
            b = self.collect.breach(
                duty,
                platform,
                f"platform:{platform}",
                self.options.today.isoformat(),
                metric="recharge_limit_published",
                boundary="a user recharge limit set and published",
                cap=None,
            )
            b.see(None, None)
            b.detail = "no recharge_cap in the configuration"

    def _absent(self) -> None:
        absent = [
            (NEEDS_ACCOUNTS, self.accounts_given, "accounts", "no accounts file was given"),
            (NEEDS_LEDGER, self.ledger_given, "ledger", "no ledger file was given"),
            (
                NEEDS_CONFIG,
                self.config is not None,
                "platform-config",
                "no platform configuration file was given",
            ),
        ]
        for checks, given, missing, reason in absent:
            if given:
                continue
            for platform in sorted(self.platforms):
                for check in checks:
                    self.collect.cannot(check, platform, missing, reason)

    def first_rows(self) -> dict[str, Duty]:
        """A check's first row, which names its instrument in an indeterminate finding."""
        out: dict[str, Duty] = {}
        for d in self.book.duties:
            out.setdefault(d.check, d)
        return out

    def statuses(self) -> dict[str, str]:
        return self.collect.statuses()
