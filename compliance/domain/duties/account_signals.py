"""账户信号: checks 4, 17, 18 (coin traders) and 20, the signals read from accounts, the
ledger and the sessions' rooms; each finding is a signal, never a violation.

One object for the engine to feed: `session` for each session's room, owner and
players, `see` for each ledger event, `finish` at the end. Over workers, `part` hands
over what the driver decides (resale profiles, fraud flags); coin traders and agents'
tables are judged in the worker that reads their events (their modules say how).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.agent_tables import AgentTables
from compliance.domain.duties.coin_traders import OUTFLOWS, CoinTraders
from compliance.domain.duties.collect import Collector
from compliance.domain.duties.fraud_flags import FraudFlags
from compliance.domain.duties.resale import Resale
from compliance.domain.duties.rows import DutyBook
from compliance.logs.platform_records import LedgerEvent

FLAG_TYPES = frozenset({"fraud_flag", "reverification", "restriction"})
NEEDS_ACCOUNTS = ("account_resale", "agent_tables")
NEEDS_LEDGER = ("account_resale", "agent_tables", "coin_traders", "fraud_reverification")


class AccountSignals:
    def __init__(self, book: DutyBook, accounts: Accounts, collect: Collector):
        self.resale = Resale(book, accounts, collect)
        self.agents = AgentTables(book, accounts, collect)
        self.coins = CoinTraders(book, accounts, collect)
        self.fraud = FraudFlags(book, accounts, collect)
        self.session = self.agents.session  # each session's room, owner and players
        agents, coins, fraud = self.agents.see, self.coins.see, self.fraud.see
        # the engine's handlers by type; it hands `resale.see` the events that carry a
        # device, a region or a payer itself
        self.on: dict[str, Callable[[LedgerEvent, date], None]] = {
            "room_card_use": lambda e, day: agents(e),
            **{kind: (lambda e, day: coins(e)) for kind in OUTFLOWS},
            **{kind: (lambda e, day: fraud(e)) for kind in FLAG_TYPES},
        }

    def see(self, e: LedgerEvent) -> None:
        if e.device is not None or e.region is not None or e.payer is not None:
            self.resale.see(e)
        kind = e.type
        if kind == "room_card_use":
            self.agents.see(e)
        elif kind in OUTFLOWS:
            self.coins.see(e)
        elif kind in FLAG_TYPES:
            self.fraud.see(e)

    def part(self) -> tuple[Any, Any]:
        return self.resale.part(), self.fraud.part()

    def absorb(self, part: tuple[Any, Any]) -> None:
        resale, fraud = part
        self.resale.absorb(resale)
        self.fraud.absorb(fraud)

    def finish(self, today: date) -> None:
        self.resale.finish()
        self.agents.finish()
        self.fraud.finish(today)
