"""模拟游客: guest accounts and their sessions in 2020, under the 2019 guest rules (check 2).

The other simulated sessions start in 2025, when a guest's play is check 1's
(real-name play, 2021 notice). These are dated in March 2020, after the 2019
notice took effect (2019-11-01), so its three guest rules are exercised: at most
60 minutes of play per guest account, no payment in guest mode, and no guest mode
again on one device within 15 days. The clean guests sit on each side's boundary
(exactly 60 minutes; a device used again exactly 15 days later); the injected ones
cross it (62 minutes; again after 14 days; a payment), each listed as (duty row,
subject). Guests have no birth date and no person key: nobody verified who they are.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

import msgspec

from compliance.service_layer.simulate import CHINA, DEFAULT_JURISDICTIONS, simulator_for

GUEST_FILE = "guests.jsonl"
GUEST_GAME = "douniu"
FIRST_DAY = datetime(2020, 3, 2, 14, 0, tzinfo=CHINA)
MINUTES_A_ROUND = 2
_encoder = msgspec.json.Encoder()


class Ledger(Protocol):
    platform: str
    accounts: list[dict[str, Any]]

    def pay(self, account: str, at: datetime, yuan: Decimal, confirm: bool = True) -> str: ...


def _guest(w: Ledger, id: str, device: str | None = None) -> None:
    w.accounts.append(
        {
            "format": "accounts/1",
            "platform": w.platform,
            "id": id,
            "kind": "guest",
            "verification": {"status": "unverified"},
            "devices": [device or f"dev-{id}"],
        }
    )


class _Tables:
    """Two-seat 斗牛 tables of guests, `rounds` rounds of two minutes each."""

    def __init__(self, platform: str, seed: int):
        self.platform, self.seed = platform, seed
        self.rng = random.Random(f"guests-{seed}")
        self.lines: list[bytes] = []

    def play(self, players: list[str], days: int, rounds: int) -> None:
        made = simulator_for(GUEST_GAME)(self.rng, players, rounds, 1, 0.0)
        started = FIRST_DAY + timedelta(days=days)
        session = {
            "format": "stakelog/1",
            "session_id": f"{self.platform}-{self.seed}-guest-{len(self.lines) + 1:03d}",
            "platform": self.platform,
            "room_id": "room-guest",
            "game": GUEST_GAME,
            "variant": made.variant,
            "started_at": started.isoformat(),
            "ended_at": (
                started + timedelta(minutes=len(made.rounds) * MINUTES_A_ROUND)
            ).isoformat(),
            "point_value": "1",
            "jurisdiction": DEFAULT_JURISDICTIONS[0],
            "venue": "online",
            "owner": {"id": "owner-guest", "room_fee": 0},
            "players": [{"id": p, "name": f"游客{p[-2:]}"} for p in players],
            "rounds": made.rounds,
        }
        self.lines.append(_encoder.encode(session) + b"\n")


def add_guests(
    w: Ledger, folder: Path, seed: int, inject: bool, injected: list[tuple[str, str]]
) -> int:
    """Guest accounts into the writer, their sessions into `folder`/guests.jsonl; with
    `inject`, one breach of each guest rule, appended to `injected`. The number of
    sessions written."""
    tables = _Tables(w.platform, seed)
    for id in ("guest-01", "guest-02", "guest-04"):
        _guest(w, id)
    _guest(w, "guest-03", device="dev-guest-01")
    tables.play(["guest-01", "guest-02"], 0, 15)
    tables.play(["guest-01", "guest-02"], 1, 15)  # 60 minutes each: holds
    tables.play(["guest-03", "guest-04"], 15, 10)  # guest-01's device, 15 days on: holds
    if inject:
        for id in ("guest-long-1", "guest-long-2", "guest-again-2", "guest-pay-1", "guest-pay-2"):
            _guest(w, id)
        _guest(w, "guest-again-1", device="dev-guest-02")
        tables.play(["guest-long-1", "guest-long-2"], 2, 15)
        tables.play(["guest-long-1", "guest-long-2"], 3, 16)  # 62 minutes each
        injected += [
            ("guest-hour-2019", "account:guest-long-1"),
            ("guest-hour-2019", "account:guest-long-2"),
        ]
        tables.play(["guest-again-1", "guest-again-2"], 14, 10)  # guest-02's device, 14 days
        injected.append(("guest-device-2019", "device:dev-guest-02"))
        tables.play(["guest-pay-1", "guest-pay-2"], 4, 10)
        w.pay("guest-pay-1", FIRST_DAY + timedelta(days=4, minutes=5), Decimal(6))
        injected.append(("guest-payment-2019", "account:guest-pay-1"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / GUEST_FILE).write_bytes(b"".join(tables.lines))
    return len(tables.lines)
