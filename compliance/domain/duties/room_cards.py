"""房卡佣金: check 9 on the ledger's room cards, the cards used for a session counted as
its room's fee and held against each player's result in that session (公通字〔2007〕3号 三).

The ledger passes first: a `room_card_use` naming a session adds its cards (|units|) to
that session's payer, with the event (state per session a card was used for, merged
over workers). Then the run's sessions, each player's net in yuan (the stored results,
read once): a session's cards are
- a fixed fee, and hold, when every seat paid the same, or one seated player alone paid
  (the room's opener: 房主付), or only accounts not seated paid (an agent's 代开房);
- taken from winners, a breach, when at least two seats paid, every seat that paid won,
  and a seat that did not win paid nothing; `card_share` where the payers paid different
  numbers of cards and one percentage p of their winnings fits them all
  (|cards − net × p / 100| < 1), `card_winners` otherwise;
- of no basis the log shows where they vary otherwise (indeterminate).
A card use naming a session not among the run's sessions, or none, is indeterminate,
never clean: what the session's players won is not known.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from itertools import groupby

from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import SAMPLE, Collector
from compliance.domain.duties.fees import CHECK, RakeFigures
from compliance.domain.duties.mirrored_gains import ResultRow
from compliance.domain.duties.rows import DutyBook
from compliance.domain.findings import DutyEvent
from compliance.logs.platform_records import LedgerEvent

FIXED = "room cards fixed before play, the same whatever the result"
RULES = ("card_share", "card_winners")


@dataclass(slots=True)
class CardUses:
    """一场的房卡: the cards used for one session, per payer, and the first uses (with
    their places in the ledger, so that workers' parts merge in ledger order)."""

    cards: dict[str, int] = field(default_factory=dict)
    events: list[tuple[int, DutyEvent]] = field(default_factory=list)

    def merge(self, other: CardUses) -> None:
        for account, n in other.cards.items():
            self.cards[account] = self.cards.get(account, 0) + n
        self.events = sorted(self.events + other.events, key=lambda pair: pair[0])[:SAMPLE]


class RoomCards:
    """Check 9's room cards: fed `room_card_use` events, then judged on the sessions."""

    types = ("room_card_use",)

    def __init__(self, book: DutyBook, collect: Collector):
        self.book, self.collect = book, collect
        self.active = any(book.rows(CHECK, rule) for rule in RULES)
        self.uses: dict[tuple[str, str], CardUses] = {}

    def see(self, e: LedgerEvent, day: date) -> None:
        if not self.active:
            return
        if e.session_id is None or e.units is None:
            self.collect.cannot(
                CHECK,
                e.platform,
                "room_card_use session_id and units",
                "room cards used without naming the session or the number of cards",
            )
            return
        uses = self.uses.setdefault((e.platform, e.session_id), CardUses())
        uses.cards[e.account] = uses.cards.get(e.account, 0) + abs(e.units)
        if len(uses.events) < SAMPLE:
            ev = DutyEvent(id=e.id, at=e.at.isoformat(), type=e.type, units=e.units)
            uses.events.append((self.collect.seq, ev))

    def part(self) -> dict[tuple[str, str], CardUses]:
        return self.uses

    def absorb(self, part: dict[tuple[str, str], CardUses]) -> None:
        for key, uses in part.items():
            mine = self.uses.get(key)
            if mine is None:
                self.uses[key] = uses
            else:
                mine.merge(uses)

    def judge(self, read: Callable[[], Iterable[ResultRow]]) -> None:
        """The sessions' results, in session order; each session cards were used for is
        judged, and those never met are indeterminate."""
        if not self.uses:
            return
        for (platform, session_id), seats in groupby(read(), key=lambda r: (r[0], r[1])):
            uses = self.uses.pop((platform, session_id), None)
            if uses is not None:
                self._session(platform, session_id, list(seats), uses)
        absent: dict[str, int] = {}
        for platform, _ in self.uses:
            absent[platform] = absent.get(platform, 0) + 1
        for platform, n in sorted(absent.items()):
            self.collect.cannot(
                CHECK,
                platform,
                "session logs of the sessions room_card_use names",
                "room cards used for sessions not in the run's session logs: who won is unknown",
                n,
            )
        self.uses.clear()

    def _session(
        self, platform: str, session_id: str, seats: list[ResultRow], uses: CardUses
    ) -> None:
        if any(r[6] is None for r in seats):
            self.collect.cannot(
                CHECK,
                platform,
                "point_value of the sessions room cards were used for",
                "room cards used for sessions without a point value: the results are unknown",
            )
            return
        self.collect.checked.add((CHECK, platform))
        paid = [(uses.cards.get(r[5], 0), Fraction(r[6] or 0)) for r in seats]
        payers = [fee for fee, _ in paid if fee > 0]
        if len(payers) < 2:
            return  # one seat (the opener) or none paid: a fee for the room, not the result
        figures = RakeFigures(seat_level=True)
        for fee, won in paid:
            figures.see(fee, won, uses.events[0][1])
        room, start = seats[0][2], seats[0][4]
        subject = f"room:{room}" if room else f"session:{session_id}"
        if not figures.varies:
            return
        share = figures.share() if len(set(payers)) > 1 else None
        if figures.from_winners_only():
            rule = "card_share" if share is not None else "card_winners"
            self._breach(platform, subject, start, rule, uses, sum(payers), share)
        else:
            self.collect.cannot(
                CHECK,
                platform,
                "the room cards' basis",
                "room cards that vary by seat, neither fixed nor from winners only",
            )

    def _breach(
        self,
        platform: str,
        subject: str,
        start: datetime,
        rule: str,
        uses: CardUses,
        cards: int,
        share: Decimal | None,
    ) -> None:
        day = local_day(start)
        for duty in self.book.in_force(CHECK, rule, day):
            if share is not None:
                metric, value = "cards_percent_of_winnings", share.quantize(Decimal("0.01"))
            else:
                metric, value = "cards_from_winners_only", Decimal(cards)
            b = self.collect.breach(
                duty, platform, subject, month_of(day), metric=metric, boundary=FIXED, cap=None
            )
            b.see(value, None)
            for seq, ev in uses.events:
                if len(b.events) < SAMPLE:
                    b.events.append(ev)
                    b.seqs.append(seq)
            others = b.others()
            for account in sorted(uses.cards):
                if account not in others and len(others) < SAMPLE:
                    others.append(account)
            what = "in proportion to their winnings" if share is not None else ""
            b.detail = (
                f"room cards taken only from seats that won {what}".rstrip()
                + f" ({b.count} {'session' if b.count == 1 else 'sessions'})"
            )
