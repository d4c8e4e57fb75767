"""与输赢相关的佣金: check 9, a fee or rake tied to the outcome (公通字〔2007〕3号 三).

Read per session from its rounds, against each player's result: the rake of a seat
(斗牛, withheld from what it was paid) against the seat's gross result, or a round's
rake against what the round's winners won. A session's rake is
- fixed, and holds, when every seat (or every round) pays the same;
- a share of the winnings when it varies and one percentage p fits every seat or round
  (|rake − winnings × p / 100| < 1, so floor, ceiling and rounding all fit) and nothing is
  taken where nothing was won;
- taken from winners only when every seat that paid had won and a seat that did not win
  paid nothing.
A rake that varies in neither way is indeterminate: its basis is not in the log. The
owner's declared `fee_basis` is read too: `results` is outcome-linked in words;
`stakes` a signal (a fee on the pot, named by the research note, is not plainly "与输赢
相关"). State is one session's running figures; findings gather per room and month.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import Collector, event
from compliance.domain.duties.rows import DutyBook
from compliance.domain.duties.sitting import Sitting
from compliance.domain.findings import DutyEvent

CHECK = "outcome_fees"
FIXED = "a fee fixed before play, the same whatever the result"


@dataclass
class RakeFigures:
    """一场的抽水: one session's rake, seat by seat (or round by round), in running figures."""

    seat_level: bool = False  # fees per seat (斗牛): who paid is known, not only how much
    units: int = 0
    low: int | None = None
    high: int | None = None
    total: int = 0
    share_low: Fraction | None = None  # the percentages p that fit every unit so far
    share_high: Fraction | None = None
    share_broken: bool = False  # a unit that won nothing paid: no share of winnings fits
    paid_without_winning: bool = False
    free_without_winning: bool = False
    first: DutyEvent | None = None
    events: list[DutyEvent] = field(default_factory=list)

    def see(self, fee: int, won: int | Fraction, ev: DutyEvent) -> None:
        """One seat or round: `fee` the rake it paid, `won` what it (its winners) won."""
        self.units += 1
        self.low = fee if self.low is None else min(self.low, fee)
        self.high = fee if self.high is None else max(self.high, fee)
        self.total += fee
        if fee > 0 and self.first is None:
            self.first = ev
        if won > 0:
            lo, hi = Fraction(100 * (fee - 1), won), Fraction(100 * (fee + 1), won)
            self.share_low = lo if self.share_low is None else max(self.share_low, lo)
            self.share_high = hi if self.share_high is None else min(self.share_high, hi)
        elif fee > 0:
            self.share_broken = self.paid_without_winning = True
        else:
            self.free_without_winning = True

    @property
    def charged(self) -> bool:
        return bool(self.high)

    @property
    def varies(self) -> bool:
        return self.low != self.high

    def share(self) -> Decimal | None:
        """The percentage of the winnings the rake is, or None where none fits."""
        if not (self.charged and self.varies) or self.share_broken:
            return None
        if self.share_low is None or self.share_high is None:
            return None
        lo, hi = max(self.share_low, Fraction(0)), self.share_high
        if lo >= hi:
            return None
        return (Decimal(lo.numerator) / lo.denominator + Decimal(hi.numerator) / hi.denominator) / 2

    def from_winners_only(self) -> bool:
        """Only seats that won paid (a round's rake does not say who paid it)."""
        return (
            self.seat_level
            and self.charged
            and not self.paid_without_winning
            and self.free_without_winning
        )


def rake_of(s: Sitting) -> RakeFigures | None:
    """The session's rake figures, or None where no round writes a rake."""
    rounds = s.rounds or []
    seat_level = any(r.seat_rake for r in rounds)
    if not seat_level and not any(r.rake is not None for r in rounds):
        return None
    figures = RakeFigures(seat_level=seat_level)
    for index, r in enumerate(rounds, 1):
        where = f"{s.session_id}#{index}"
        if seat_level:
            for seat in r.seats:
                fee = seat.rake or 0
                figures.see(fee, seat.claimed + fee, event(where, s.started_at, "rake", None, fee))
        else:
            fee = r.rake or 0
            won = sum(v for v in r.results().values() if v > 0)
            figures.see(fee, won, event(where, s.started_at, "rake", None, fee))
    return figures


class OutcomeFees:
    def __init__(self, book: DutyBook, collect: Collector):
        self.book, self.collect = book, collect
        self.active = bool(book.rows(CHECK))  # a rule database seeded before check 9 has none

    def see(self, s: Sitting) -> None:
        if s.rounds is None or not self.active:
            return  # a session that does not decode: the audit rejects it, naming why
        day = local_day(s.started_at)
        rake = rake_of(s)
        if s.owner is None and rake is None:
            self.collect.cannot(
                CHECK,
                s.platform,
                "session fee data (owner.room_fee, a round's rake)",
                "sessions whose log names no owner's fee and no rake: what was charged is unknown",
            )
            return
        self.collect.checked.add((CHECK, s.platform))
        charged = s.room_fee > 0 or (rake is not None and rake.charged)
        if s.owner is not None and charged and s.fee_basis in ("results", "stakes"):
            self._declared(s, day)
        if rake is None or not rake.charged:
            return
        share = rake.share()
        if share is not None:
            self._breach(
                s,
                day,
                "rake_share",
                "rake_percent_of_winnings",
                share.quantize(Decimal("0.01")),
                rake.first,
                f"rake about {share:.1f} % of the winnings",
            )
        elif rake.from_winners_only():
            self._breach(
                s,
                day,
                "rake_winners",
                "rake_from_winners_only",
                Decimal(rake.total),
                rake.first,
                "rake taken only from seats that won",
            )
        elif rake.units < 2:
            self.collect.cannot(
                CHECK,
                s.platform,
                "more rounds",
                "a rake in a single round: a fixed fee and a share of the winnings look alike",
            )
        elif rake.varies:
            self.collect.cannot(
                CHECK,
                s.platform,
                "the rake's basis",
                "a rake that varies, neither fixed nor a share of the winnings nor from winners only",
            )

    def _declared(self, s: Sitting, day: date) -> None:
        rule = "declared_results" if s.fee_basis == "results" else "declared_stakes"
        ev = event(s.session_id, s.started_at, "room_fee", None, s.room_fee)
        self._breach(
            s,
            day,
            rule,
            "fee_basis",
            Decimal(s.room_fee),
            ev,
            f"the room's fee is on {s.fee_basis}",
        )

    def _breach(
        self,
        s: Sitting,
        day: date,
        rule: str,
        metric: str,
        value: Decimal,
        ev: DutyEvent | None,
        what: str,
    ) -> None:
        for duty in self.book.in_force(CHECK, rule, day):
            b = self.collect.breach(
                duty,
                s.platform,
                s.room,
                month_of(day),
                metric=metric,
                boundary=FIXED,
                cap=None,
                account=s.owner,
            )
            b.see(value, ev)
            b.detail = f"{what} ({b.count} {'session' if b.count == 1 else 'sessions'})"
