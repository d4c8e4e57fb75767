"""代理自开房: check 17, an agent (代理 / 推广员) playing in a room opened with the agent's
own room card.

The sessions pass first: of a session whose players include an account of kind
`agent`, only its id, room, owner, start and those agents are kept (not the session,
not the other players). Then the ledger: a `room_card_use` by one of those agents
naming that session makes it the agent's own table. A signal when an agent sits at
`sessions` such tables within `window_days`; per agent only the last few such
sessions are kept (the ledger is read in its order: a card use more than the window
out of the account's order is judged against what is still held).

Over workers, every worker is given the sessions' agents (`sessions`, read by the
driver); an agent's card uses all go to one worker, which judges them in ledger order
as one pass would, leaving nothing open for the driver.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.calendar import local_day, month_of
from compliance.domain.duties.collect import SAMPLE, Collector
from compliance.domain.duties.resale import SIGNAL_NOTE
from compliance.domain.duties.rows import Duty, DutyBook
from compliance.domain.findings import DutyEvent
from compliance.logs.platform_records import LedgerEvent


@dataclass(frozen=True, slots=True)
class AgentSession:
    """A session an agent played in: what check 17 keeps of it."""

    room: str | None
    owner: str | None
    start: datetime
    agents: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OwnTable:
    session_id: str
    room: str | None
    owner: str | None
    start: datetime
    card_event: str
    card_at: datetime


@dataclass(slots=True)
class AgentState:
    recent: list[OwnTable] = field(default_factory=list)  # the last `sessions` own tables


class AgentTables:
    def __init__(self, book: DutyBook, accounts: Accounts, collect: Collector):
        self.book, self.collect = book, collect
        self.persons = {
            (platform, id): a.person
            for platform, ids in accounts.by_platform.items()
            for id, a in ids.items()
            if a.kind == "agent"
        }
        self.agents = {key for key in self.persons}  # noqa: C416 (as a set grows, one at a time)
        self.by_platform: dict[str, set[str]] = {}
        for platform, id in self.agents:
            self.by_platform.setdefault(platform, set()).add(id)
        self.sessions: dict[tuple[str, str], AgentSession] = {}
        self.state: dict[tuple[str, str], AgentState] = {}

    def session(
        self,
        platform: str,
        session_id: str,
        room: str | None,
        owner: str | None,
        players: tuple[str, ...],
        start: datetime,
    ) -> None:
        known = self.by_platform.get(platform)
        if not known or known.isdisjoint(players):
            return
        agents = tuple(p for p in players if p in known)
        if agents:
            self.sessions[(platform, session_id)] = AgentSession(room, owner, start, agents)

    def see(self, e: LedgerEvent) -> None:
        if e.type != "room_card_use" or (e.platform, e.account) not in self.agents:
            return
        for duty in self.book.in_force("agent_tables", "own_table", local_day(e.at)):
            self.collect.checked.add(("agent_tables", e.platform))
            if e.session_id is None:
                continue
            played = self.sessions.get((e.platform, e.session_id))
            if played is None or e.account not in played.agents:
                continue  # a room opened for others: the agent's trade, not a seat
            table = OwnTable(e.session_id, played.room, played.owner, played.start, e.id, e.at)
            self._count(duty, e.platform, e.account, table)

    def _count(self, duty: Duty, platform: str, agent: str, table: OwnTable) -> None:
        needed = int(duty.figure("sessions"))
        window = timedelta(days=int(duty.figure("window_days")))
        state = self.state.setdefault((platform, agent), AgentState())
        if any(t.session_id == table.session_id for t in state.recent):
            return
        near = sorted(
            [t for t in state.recent if abs(table.start - t.start) <= window] + [table],
            key=lambda t: t.start,
        )
        state.recent = near[-2 * needed :]
        kept = next(
            (
                near[i : i + needed]
                for i in range(len(near) - needed + 1)
                if table in near[i : i + needed]
                and near[i + needed - 1].start - near[i].start <= window
            ),
            None,
        )
        if kept is None:
            return
        b = self.collect.breach(
            duty,
            platform,
            f"account:{agent}",
            month_of(local_day(table.start)),
            metric="own_table_sessions",
            boundary=f"{needed} sessions at the agent's own tables within "
            f"{duty.text('window_days')} days",
            cap=Decimal(needed - 1),
            account=agent,
            person=self.persons.get((platform, agent)),
        )
        for t in kept if b.count == 0 else [table]:
            b.see(Decimal(len(kept)), _session_event(t), "max")
            if len(b.events) < SAMPLE:
                b.events.append(
                    DutyEvent(
                        id=t.card_event, at=t.card_at.isoformat(), type="room_card_use", room=t.room
                    )
                )
                b.seqs.append(b.seq)
            rooms, owners = b.room_list(), b.others()
            if t.room is not None and t.room not in rooms and len(rooms) < SAMPLE:
                rooms.append(t.room)
            if t.owner is not None and t.owner not in owners and len(owners) < SAMPLE:
                owners.append(t.owner)
        b.detail = (
            f"{SIGNAL_NOTE}: agent {agent} played in {b.count} sessions of rooms opened with "
            "the agent's own room cards; an agent filling a seat for friends looks the same"
        )

    def finish(self) -> None:
        for platform, _ in self.agents:
            if self.book.rows("agent_tables", "own_table"):
                self.collect.checked.add(("agent_tables", platform))


def _session_event(t: OwnTable) -> DutyEvent:
    return DutyEvent(
        id=t.session_id, at=t.start.isoformat(), type="session", room=t.room, account=t.owner
    )
