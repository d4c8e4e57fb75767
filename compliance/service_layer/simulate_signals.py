"""模拟信号: the simulated platform's logins, room cards, transfers and fraud flags, with
the honest look-alikes a naive rule would flag, and checks 4, 17, 18 (coin traders) and
20 injected, each listed as (duty row, subject).

Clean part (every session player): a home device and region, logins over the
period, payments made by the holder (`payer` the account's `real_name`). Look-alikes,
each drawn independently per player: a new phone (8 %), a move to another region
(5 %), a new payer such as a spouse (3 %), each at a random time; agents (3 %) who
buy room cards and open rooms for others but play only in rooms others opened;
friends who transfer once (3 %); popular players who get small gifts from a dozen
friends and pass a share on (1 %); heavy payers who recharge at the cap many times
and give one large gift (3 %); fraud-flagged accounts re-verified or restricted in
time (1 %). Injected, `count` of each: device, payer and region all changed within
20 days; an agent at two of its own tables; a coin trader (ten small transfers in
from ten players, nine tenths of them out, by transfer or, every other one, by a
withdrawal, which is also a cash-out); a fraud flag with no measure.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

REGIONS = ("北京", "上海", "广东", "四川", "湖南", "江西", "云南", "浙江")


def _between(rng: random.Random, first: datetime, last: datetime) -> datetime:
    return first + timedelta(minutes=rng.randrange(int((last - first).total_seconds() // 60) + 1))


def add_clean(w: Any, rng: random.Random, sessions, players, avoid: Iterable[str]) -> set[str]:
    """The clean part and its look-alikes; returns the honest agents."""
    avoid = set(avoid)
    first = min(datetime.fromisoformat(s["started_at"]) for s in sessions)
    last = max(datetime.fromisoformat(s["started_at"]) for s in sessions)
    by_id = {a["id"]: a for a in w.accounts}
    for e in w.events:
        if e["type"] == "recharge" and e["account"] in by_id:
            e["payer"] = f"name-{e['account']}"
    for pid in players:
        by_id[pid]["real_name"] = f"name-{pid}"
        home, device = rng.choice(REGIONS), f"dev-{pid}"
        moved = _maybe(rng, 0.05, first, last)
        phone = _maybe(rng, 0.08, first, last)
        paid_by = _maybe(rng, 0.03, first, last)
        away = rng.choice([r for r in REGIONS if r != home])
        for _ in range(4):
            when = _between(rng, first, last)
            region = away if moved and when >= moved else home
            dev = f"dev-{pid}-new" if phone and when >= phone else device
            w.event(pid, "login", when, device=dev, region=region)
        if paid_by and pid not in avoid:
            _pay(w, pid, paid_by, Decimal(30), payer=f"name-spouse-{pid}")
    agents = {p for p in players if p not in avoid and rng.random() < 0.03}
    for pid in sorted(agents):
        by_id[pid]["kind"] = "agent"
        _pay(w, pid, first, Decimal(100), type="room_card_purchase", units=100)
    for s in sessions:
        ids = [p["id"] for p in s["players"]]
        at = datetime.fromisoformat(s["started_at"])
        if any(p in agents for p in ids):
            opener = next((p for p in ids if p not in agents), None)
            if opener is not None:
                _card(w, opener, at, s["session_id"])
        elif agents and rng.random() < 0.05:
            _card(w, rng.choice(sorted(agents)), at, s["session_id"])  # 代开房 for others
    clean = [p for p in players if p not in avoid]
    for pid in clean:
        roll = rng.random()
        when = _between(rng, first, last)
        if roll < 0.03:
            friend = rng.choice(clean)
            if friend != pid:
                _give(w, pid, friend, when, rng.randint(50, 3000))
        elif roll < 0.04:
            friends = rng.sample(clean, min(len(clean) - 1, 12))
            got = 0
            for n, friend in enumerate(f for f in friends if f != pid):
                units = rng.randint(100, 500)
                got += units
                _give(w, friend, pid, when + timedelta(hours=n), units)
            _give(w, pid, rng.choice(clean), when + timedelta(days=2), got * 3 // 10)
        elif roll < 0.07:
            for n in range(rng.randint(10, 30)):
                _pay(w, pid, when + timedelta(hours=n), Decimal(648))
            _give(w, pid, rng.choice(clean), when + timedelta(days=1), 50_000)
        elif roll < 0.08:
            w.event(pid, "fraud_flag", when)
            answer = rng.choice(("reverification", "restriction"))
            w.event(pid, answer, when + timedelta(days=rng.randint(0, 6)))
    return agents


def inject(w: Any, rng: random.Random, sessions, players, avoid, count: int, log) -> None:
    """`count` cases of each signal, listed in `log.injected` as (duty row, subject)."""
    first = min(datetime.fromisoformat(s["started_at"]) for s in sessions)
    by_id = {a["id"]: a for a in w.accounts}
    free = [p for p in reversed(players) if p not in avoid]
    played: dict[str, list[tuple[datetime, str]]] = {}
    for s in sessions:
        for p in s["players"]:
            played.setdefault(p["id"], []).append(
                (datetime.fromisoformat(s["started_at"]), s["session_id"])
            )
    used: set[str] = set()
    for k in range(count):
        resold = next(p for p in free if p not in used)
        used.add(resold)
        home = next(e["region"] for e in w.events if e["account"] == resold and "region" in e)
        w.event(resold, "login", first, device=f"dev-{resold}", region=home)
        _pay(w, resold, first, Decimal(6))
        base = first + timedelta(days=35 + k)
        w.event(resold, "login", base, device=f"dev-bought-{k}")
        _pay(w, resold, base + timedelta(days=10), Decimal(30), payer=f"name-buyer-{k}")
        w.event(resold, "login", base + timedelta(days=20), region=f"境外-{k}")
        log.injected.append(("account-resale-signal", f"account:{resold}"))
        found = _two_tables(free, used, played)
        if found is not None:  # a log too small to have one injects no check 17
            agent, tables = found
            used.add(agent)
            by_id[agent]["kind"] = "agent"
            for at, sid in tables:
                _card(w, agent, at - timedelta(minutes=1), sid)
            log.injected.append(("agent-own-table-signal", f"account:{agent}"))
        tag = f"x{k:03d}"
        trader, buyer = f"coin-{tag}", f"coin-buyer-{tag}"
        for id in (trader, buyer):
            w.account(id, datetime(1985, 3, 3).date())
        start = first + timedelta(days=20 + k)
        senders = [p for p in free if p not in used][:10]
        got = 0
        for n, sender in enumerate(senders):
            units = rng.randint(200, 1500)
            got += units
            _give(w, sender, trader, start + timedelta(hours=7 * n), units)
        out_at = start + timedelta(days=3)
        if k % 2:
            w.event(trader, "withdrawal", out_at, yuan=str(got * 9 // 100), units=got * 9 // 10)
            log.injected.append(("cashout-withdrawal-2007", f"account:{trader}"))
        else:
            _give(w, trader, buyer, out_at, got * 9 // 10)
        log.injected.append(("coin-trader-signal", f"account:{trader}"))
        flagged = f"flagged-{tag}"
        w.account(flagged, datetime(1990, 6, 6).date())
        w.event(flagged, "fraud_flag", first + timedelta(days=5 + k))
        w.event(flagged, "login", first + timedelta(days=6 + k), device=f"dev-{flagged}")
        log.injected.append(("fraud-reverify-signal", f"account:{flagged}"))
    _winners_cards(w, sessions, by_id, count, log)


def _winners_cards(w: Any, sessions, by_id, count: int, log) -> None:
    """Check 9's room cards: in `count` sessions no card was used for, with two winners
    or more and a loser, and no agent, one card from each winner and none from the rest."""
    carded = {e.get("session_id") for e in w.events if e["type"] == "room_card_use"}
    done = 0
    for s in sessions:
        nets = s.get("_nets", {})
        winners = sorted(p for p, net in nets.items() if net > 0)
        if done >= count or s["session_id"] in carded or not s.get("point_value"):
            continue
        if len(winners) < 2 or len(winners) == len(nets) or len(nets) != len(s["players"]):
            continue
        if any(by_id[p]["kind"] == "agent" for p in nets):
            continue
        at = datetime.fromisoformat(s["started_at"])
        for p in winners:
            _card(w, p, at, s["session_id"])
        room = f"room:{s['room_id']}" if s.get("room_id") else f"session:{s['session_id']}"
        log.injected.append(("fee-cards-winners-2007", room))
        done += 1


def _two_tables(free, used, played) -> tuple[str, list[tuple[datetime, str]]] | None:
    """A player with two sessions within 30 days, and those sessions (None: nobody)."""
    for pid in free:
        if pid in used:
            continue
        times = sorted(played.get(pid, ()))
        for a, b in zip(times, times[1:], strict=False):
            if b[0] - a[0] <= timedelta(days=30) and a[1] != b[1]:
                return pid, [a, b]
    return None


def _maybe(rng: random.Random, share: float, first: datetime, last: datetime):
    return _between(rng, first, last) if rng.random() < share else None


def _pay(w, account: str, at: datetime, yuan: Decimal, type="recharge", payer=None, units=None):
    id = w.event(
        account,
        type,
        at,
        yuan=str(yuan),
        units=units if units is not None else int(yuan * 10),
        currency="room_card" if type == "room_card_purchase" else "diamond",
        payer=payer or f"name-{account}",
    )
    w.event(account, "confirmation", at + timedelta(seconds=1), ref=id)


def _card(w, account: str, at: datetime, session_id: str) -> None:
    w.event(account, "room_card_use", at, units=-1, currency="room_card", session_id=session_id)


def _give(w, sender: str, receiver: str, at: datetime, units: int) -> None:
    w.event(sender, "transfer", at, units=units, currency="diamond", counterpart=receiver)
