"""对冲输赢: check 18's mirrored gains over the run's sessions (compliance/domain/mirrored.py
does the search), as duty findings of severity `signal`, one per group of accounts.

The sessions are read twice (`read` is called once per pass): memory holds three integers
for every pair of accounts that mirrored at least once, then, for the pairs that mirrored
often enough, their shared sessions counted and their mirrored sessions (at most 1,000 a
pair). An account is named `platform` + NUL + id inside the search, so that two
platforms' accounts never pair.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime
from decimal import Decimal
from itertools import groupby

from compliance.domain.duties.collect import SAMPLE, Collector
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.findings import DutyEvent
from compliance.domain.mirrored import (
    MirroredPair,
    MirrorParameters,
    Table,
    first_pass,
    groups,
    second_pass,
)

CHECK = "mirrored_gains"
SEP = "\x00"
SHOWN = 5  # pairs spelled out in a finding's detail

ResultRow = tuple[str, str, str | None, str, datetime, str, Decimal | None]
"""(platform, session id, room, game, start, player, net in yuan) in session order."""


def parameters(duty: Duty) -> MirrorParameters:
    return MirrorParameters(
        min_players=int(duty.figure("min_players")),
        tolerance=float(duty.figure("tolerance")),
        min_sessions=int(duty.figure("min_sessions")),
        min_share=float(duty.figure("min_share")),
        min_rooms=int(duty.figure("min_rooms")),
        min_direction=float(duty.figure("min_direction")),
        min_cents=int(duty.figure("min_yuan") * 100),
    )


def tables(rows: Iterable[ResultRow], skip_games: set[str]) -> Iterator[Table]:
    """The run's sessions as tables of nets in cents; team games and nets not known are
    left out (a player without a net leaves the session out: its sum would mislead)."""
    for (platform, session_id), seats in groupby(rows, key=lambda r: (r[0], r[1])):
        seated = list(seats)
        room, game, start = seated[0][2], seated[0][3], seated[0][4]
        if game in skip_games or any(r[6] is None for r in seated):
            continue
        nets = tuple((f"{platform}{SEP}{r[5]}", int(Decimal(r[6] or 0) * 100)) for r in seated)
        yield Table(session_id, f"{platform}{SEP}{room or session_id}", nets, start.isoformat())


def judge_mirrored(
    book: DutyBook,
    today: date,
    read: Callable[[], Iterable[ResultRow]],
    collect: Collector,
    platforms: Iterable[str],
) -> None:
    """Check 18's mirrored gains on the sessions `read` gives, each call a fresh pass."""
    for duty in book.in_force(CHECK, "mirrored", today):
        p = parameters(duty)
        skip = {g for g in str(duty.figures.get("skip_games", "")).split(",") if g}
        candidates = first_pass(tables(read(), skip), p)
        pairs = list(second_pass(tables(read(), skip), candidates, p))
        for platform in platforms:
            collect.checked.add((CHECK, platform))
        for group in groups(pairs):
            inside = [x for x in pairs if x.a in group]
            _group_finding(duty, p, sorted(group), inside, collect)


def _group_finding(
    duty: Duty, p: MirrorParameters, group: list[str], pairs: list[MirroredPair], collect
) -> None:
    platform = group[0].split(SEP, 1)[0]
    names = [g.split(SEP, 1)[1] for g in group]
    gained: dict[str, int] = {}
    for x in pairs:
        winner = x.gainer
        gained[winner] = gained.get(winner, 0) + abs(x.flow_cents)
    top = max(sorted(gained), key=lambda k: gained[k])
    sessions = sorted((s for x in pairs for s in x.sessions), key=lambda s: s.at)
    b = collect.breach(
        duty,
        platform,
        "accounts:" + "+".join(names),
        sessions[-1].at[:7] if sessions else "",
        metric="mirrored_yuan",
        boundary=(
            f"results mirrored (within {p.tolerance:.0%}) in {p.min_share:.0%} of "
            f"{p.min_sessions}+ shared sessions, {p.min_rooms}+ rooms, "
            f"{p.min_direction:.0%} one way, {p.min_cents // 100:,} yuan or more"
        ),
        cap=Decimal(p.min_cents) / 100,
        account=_name(top),
    )
    b.count = sum(x.mirrored for x in pairs)
    b.value = Decimal(sum(gained.values())) / 100
    b.events = [
        DutyEvent(
            id=s.session_id,
            at=s.at,
            type=f"mirrored_session room:{_name(s.room)}",
            yuan=Decimal(abs(s.gain_cents)) / 100,
        )
        for s in sessions[:SAMPLE]
    ]
    b.detail = "signal, not a violation (对冲输赢, points may be settled off the platform): " + (
        "; ".join(_pair_text(x) for x in sorted(pairs, key=lambda x: -abs(x.flow_cents))[:SHOWN])
    )


def _pair_text(x: MirroredPair) -> str:
    loser = x.a if x.gainer == x.b else x.b
    rooms = ", ".join(_name(r) for r in x.room_names)
    return (
        f"{_name(x.gainer)} gained {abs(x.flow_cents) / 100:,.2f} yuan that {_name(loser)} lost "
        f"in {x.mirrored} of {x.shared} shared sessions over {x.rooms} rooms ({rooms}), "
        f"{x.direction:.0%} one way"
    )


def _name(key: str) -> str:
    return key.split(SEP, 1)[-1]
