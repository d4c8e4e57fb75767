"""构成要件: what a criminal line rests on besides its figure, read from the log.

聚众赌博 (刑法 303(1), 2005 interpretation art. 1) and 开设赌场 (303(2), the
2010 online opinion, the 2014 machines opinion) need 以营利为目的 as well as a
figure. Rake, or a room fee that depends on stakes or results (抽头), shows it.
A fixed, ordinary room fee is what the 2005 interpretation art. 9 excludes
(kind `room_fee`); where a rule version drops that row, a fixed fee shows it.
An owner who takes nothing shows no purpose of profit. docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from compliance.domain.rules import Band, Comparison, Exemption
from compliance.domain.ruleset import Ruleset
from compliance.domain.tiers import Tier

PROFIT_OFFENCES = {"gathering": "聚众赌博", "casino": "开设赌场"}
ROOM_FEE_READING = "room-fee-reading"  # the version group of the readings of art. 9
ONLINE = "online"

FIELDS = {
    "window_rake": "rounds[].rake, and owner.room_fee where fee_basis is stakes or results",
    "window_capital": "赌资 of the window's sessions: stakes and winnings × point_value",
    "window_participants": "distinct players[].id of the window's sessions",
    "window_sessions": "the window's stored sessions",
    "window_win_loss": "players' net results × point_value",
}

UNREAD = {
    "gathering": (
        "组织: that the owner gathered the players, not only hosted the room, is not in a "
        "log (read from owner.id)",
    ),
    "casino": (
        "开设赌场's form (建立赌博网站并接受投注, 代理, 利润分成: 2010 online opinion 一) is "
        "not in a log: the owner's rooms are read as the 赌场",
    ),
}


@dataclass(slots=True)
class Purpose:
    """以营利为目的: whether the log shows it, and the sentence saying so."""

    shown: bool
    text: str


@dataclass(slots=True)
class Elements:
    """The elements a window finding rests on and those it could not read."""

    rests_on: list[str] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)


def needs_profit(band: Band) -> bool:
    return band.tier >= Tier.CRIMINAL and band.offence in PROFIT_OFFENCES


def venue_of(venues: Mapping[str, int]) -> str:
    """窗口场所: the venue of most of a window's sessions; a tie goes to `online`, then the
    first name."""
    if not venues:
        return ONLINE
    return min(venues, key=lambda v: (-venues[v], v != ONLINE, v))


def profit_purpose(rake: Decimal, fixed_fee: Decimal, rules: Ruleset) -> Purpose:
    """以营利为目的 from the window's rake and fixed room fees, under the rules in force."""
    if rake > 0:
        return Purpose(
            True, f"以营利为目的: 抽头 {rake} yuan in the window ({FIELDS['window_rake']})"
        )
    if fixed_fee <= 0:
        return Purpose(
            False,
            "以营利为目的 not shown: the owner took no rake and no room fee "
            "(window_rake 0; owner.room_fee 0)",
        )
    fee = f"only fixed room fees of {fixed_fee} yuan (owner.room_fee, fee_basis fixed)"
    art9 = [e for e in rules.exemptions if e.kind == "room_fee"]
    if art9:
        grounds = "; ".join(f"{e.id}: {e.text} ({_applied(rules, e)})" for e in art9)
        return Purpose(False, f"以营利为目的 not shown: {fee}; {grounds}")
    reading = next(
        (i for i in rules.instruments.values() if i.version_group == ROOM_FEE_READING), None
    )
    why = (
        f"{reading.id} (rule version {ROOM_FEE_READING}, confidence {reading.confidence})"
        if reading
        else "no room-fee exemption (2005 interpretation art. 9) in force"
    )
    return Purpose(True, f"以营利为目的: {fee}, read as profit under {why}")


def _applied(rules: Ruleset, e: Exemption) -> str:
    reading = rules.instruments.get(e.instrument)
    under = f", reading {reading.id} confidence {reading.confidence}" if reading else ""
    return f"2005 interpretation {e.article} applied: text confidence {e.confidence}{under}"


def elements_of(
    band: Band,
    hit: list[Comparison],
    values: Mapping[str, Decimal],
    purpose: Purpose | None,
    venue: str,
    venues: Mapping[str, int],
) -> Elements:
    """What a criminal window finding under `band` rests on: each figure met, the purpose,
    the venue where the band tests it; and the elements a log cannot carry."""
    out = Elements()
    for leaf in hit:
        source = FIELDS.get(leaf.metric, leaf.metric)
        out.rests_on.append(
            f"figure: {leaf.describe()} (value {values.get(leaf.metric)}; {source})"
        )
    if purpose is not None:
        out.rests_on.append(purpose.text)
    if band.venues:
        total = sum(venues.values())
        out.rests_on.append(
            f"venue: {venue} ({venues.get(venue, 0)} of {total} sessions; session.venue, "
            f"or the run's --venue where a session names none)"
        )
    out.unread.extend(UNREAD.get(band.offence or "", ()))
    return out
