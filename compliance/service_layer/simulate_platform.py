"""模拟平台记录: accounts, a ledger and a configuration beside simulated sessions, with
breaches of the platform's duties injected and listed, so a test can prove each is found.

The clean part is built to hold every duty: adult, verified accounts; recharges
under the cap, each confirmed; settlements inside the modes' caps; records kept
long enough. The injected part uses accounts of its own (or turns a player of the
sessions into a minor, or unverified), and each injection names the duty row and
subject the audit must report. The simulated sessions start after 2021-08-31, when
guest play is check 1's; with `guests`, guest accounts and sessions of their own
dated 2020 exercise the 2019 guest rules (check 2: simulate_guests.py).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec

from compliance.domain.duties.calendar import SHANGHAI
from compliance.games.rake import RAKE_PERCENTS
from compliance.logs.round_money import round_money
from compliance.service_layer import simulate_signals
from compliance.service_layer.simulate import FEE_SHARE
from compliance.service_layer.simulate_guests import FIRST_DAY, add_guests
from compliance.service_layer.simulate_mirrors import inject_draws, mirrored_injections
from compliance.streams import open_log

_encoder = msgspec.json.Encoder()
FILES = ("accounts.jsonl", "ledger.jsonl", "config.jsonl")
ROUND_CAP = 1_000_000
RECHARGE_CAP = Decimal(648)


@dataclass
class PlatformLog:
    """What was written, and every injected breach as (duty row, subject)."""

    accounts: int = 0
    events: int = 0
    injected: list[tuple[str, str]] = field(default_factory=list)
    guest_sessions: int = 0  # written to guests.jsonl (0: no guests asked for)


@dataclass
class _Writer:
    platform: str
    accounts: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    config: list[dict[str, Any]] = field(default_factory=list)
    n: int = 0

    def account(self, id: str, birth: date, status: str = "verified", **more) -> dict:
        row = {
            "format": "accounts/1",
            "platform": self.platform,
            "id": id,
            "kind": "player",
            "person": f"person-{id}",
            "verification": {"status": status}
            | (
                {"at": "2021-01-01T00:00:00+08:00", "ref": f"nppa-{id}"}
                if status == "verified"
                else {}
            ),
            "birth_date": birth.isoformat(),
            "devices": [f"dev-{id}"],
        } | more
        self.accounts.append(row)
        return row

    def event(self, account: str, type: str, at: datetime, **more) -> str:
        self.n += 1
        id = f"ev{self.n:07d}"
        row = {"format": "ledger/1", "platform": self.platform, "id": id, "account": account}
        self.events.append(row | {"type": type, "at": at.isoformat()} | more)
        return id

    def pay(self, account: str, at: datetime, yuan: Decimal, confirm: bool = True) -> str:
        id = self.event(
            account, "recharge", at, yuan=str(yuan), units=int(yuan * 10), currency="diamond"
        )
        if confirm:
            self.event(account, "confirmation", at + timedelta(seconds=1), ref=id)
        return id

    def setting(self, kind: str, **more) -> None:
        self.config.append(
            {"format": "platform-config/1", "kind": kind, "platform": self.platform} | more
        )


def write_platform(
    sessions_path: str,
    folder: str | Path,
    seed: int = 1,
    anomalies: float = 0.0,
    guests: bool = False,
) -> PlatformLog:
    """Write accounts.jsonl, ledger.jsonl and config.jsonl into `folder` for the sessions
    of `sessions_path`; with `anomalies` above 0, inject breaches (about that share of
    the players, at least one of each). With `guests`, also guest accounts and their
    2020 sessions (guests.jsonl, an audit's second session file), breaching the 2019
    guest rules where `anomalies` is above 0."""
    sessions = _sessions(sessions_path)
    if not sessions:
        raise ValueError("no session to build platform records for")
    rng = random.Random(f"platform-{seed}")
    platform = sessions[0]["platform"]
    w = _Writer(platform)
    players = sorted({p["id"] for s in sessions for p in s["players"]})
    first = min(datetime.fromisoformat(s["started_at"]) for s in sessions)
    last = max(datetime.fromisoformat(s["started_at"]) for s in sessions)
    for pid in players:
        w.account(pid, date(rng.randint(1960, 2000), rng.randint(1, 12), rng.randint(1, 28)))
        for _ in range(rng.randint(1, 3)):
            when = first + timedelta(
                minutes=rng.randrange(int((last - first).total_seconds() // 60) + 1)
            )
            w.pay(pid, when, Decimal(rng.choice((6, 30, 68, 128, 328, 648))))
    swing = ROUND_CAP // 2 if anomalies <= 0 else 1  # with anomalies, under any injected cap
    for s in sessions:
        at = datetime.fromisoformat(s["started_at"])
        for p in s["players"]:
            w.event(
                p["id"],
                "settlement",
                at,
                units=rng.randint(-swing, swing),
                mode=s["game"],
                session_id=s["session_id"],
                round=1,
            )
    log = PlatformLog()
    games = sorted({s["game"] for s in sessions})
    for game in games:
        # with anomalies, the ledger's injected settlement (ROUND_CAP + 1) is over both caps
        w.setting(
            "mode", mode=game, round_cap=ROUND_CAP, day_cap=ROUND_CAP if anomalies > 0 else 10**12
        )
    if anomalies > 0:
        _mapped_modes(w, sessions, games, log)
    w.setting("recharge_cap", yuan=str(RECHARGE_CAP))
    w.setting("features", transfers=True, draws=False)
    late = _late_player(sessions)
    avoid = {late} if late else set()
    simulate_signals.add_clean(w, rng, sessions, players, avoid)
    on = last.date() + timedelta(days=1)
    oldest = on - timedelta(days=800)
    if guests:
        oldest = min(oldest, FIRST_DAY.date())
    for record in ("sessions", "logins", "recharges", "consumption", "transfers", "draws"):
        w.setting("retention", record=record, oldest=oldest.isoformat(), on=on.isoformat())
    if anomalies > 0:
        count = max(1, round(anomalies * len(players)))
        _inject(w, rng, sessions, players[: max(1, len(players) // 2)], first, count, log)
        simulate_signals.inject(w, rng, sessions, players, avoid, count, log)
        inject_draws(w, random.Random(f"draws-{seed}"), first, log.injected)
        log.injected = sorted(set(log.injected) | set(mirrored_injections(players)))
    folder = Path(folder)
    if guests:
        log.guest_sessions = add_guests(w, folder, seed, anomalies > 0, log.injected)
        log.injected = sorted(set(log.injected))
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in zip(FILES, (w.accounts, w.events, w.config), strict=True):
        with open(folder / name, "wb") as out:
            for row in rows:
                out.write(_encoder.encode(row) + b"\n")
    log.accounts, log.events = len(w.accounts), len(w.events)
    return log


def _inject(w: _Writer, rng, sessions, players, first: datetime, count: int, log: PlatformLog):
    """Breaches of each built check, on accounts of their own or on players turned minor
    or unverified; each listed with the row and subject the audit must report."""
    by_id = {a["id"]: a for a in w.accounts}
    late = _late_player(sessions)
    day = first + timedelta(minutes=5)
    for k in range(count):
        tag = f"x{k:03d}"
        if k < len(players):
            pending = players[k]
            by_id[pending]["verification"] = {"status": "pending"}
            log.injected.append(("real-name-2021", f"account:{pending}"))
        if late is not None and k == 0:
            by_id[late]["birth_date"] = "2011-05-01"
            paid = {e["id"] for e in w.events if e["account"] == late and e["type"] == "recharge"}
            w.events[:] = [e for e in w.events if e["id"] not in paid and e.get("ref") not in paid]
            log.injected.append(("minor-window-2021", f"account:{late}"))
            log.injected.append(("minor-night-statute", f"account:{late}"))
        minor = f"minor-{tag}"
        w.account(minor, date(2012, 1, 1))
        w.pay(minor, day, Decimal("50.01"))
        log.injected.append(("minor-pay-8-16-each-2019", f"person:person-{minor}"))
        monthly = f"minor-month-{tag}"
        w.account(monthly, date(2012, 1, 1))
        for d in range(5):
            w.pay(monthly, day + timedelta(minutes=d), Decimal(50))
        log.injected.append(("minor-pay-8-16-month-2019", f"person:person-{monthly}"))
        big = f"big-{tag}"
        w.account(big, date(1980, 1, 1))
        w.pay(big, day, RECHARGE_CAP + Decimal("0.01"))
        log.injected.append(("recharge-cap-2016", f"account:{big}"))
        w.pay(big, day + timedelta(days=1), Decimal(6), confirm=False)
        w.event(big, "settlement", day, units=-(ROUND_CAP + 1), mode=sessions[0]["game"])
        log.injected.append(("point-cap-round-2007", f"account:{big}"))
        log.injected.append(("point-cap-day-2007", f"account:{big}"))  # its day, too
        w.event(big, "withdrawal", day, yuan="100")
        log.injected.append(("cashout-withdrawal-2007", f"account:{big}"))
        w.event(big, "transfer", day, units=100, currency="points", counterpart=players[0])
        log.injected.append(("transfer-points-2007", f"account:{big}"))
        w.event(big, "grant", day, units=100, currency="diamond")
        log.injected.append(("grant-currency-2009", f"account:{big}"))
        by_id_big = w.accounts[-1]
        by_id_big["real_name"] = f"name-{big}"
        drift = w.event(
            big, "recharge", day, yuan="10", units=50, currency="diamond", payer="name-someone-else"
        )
        w.event(big, "confirmation", day, ref=drift)
        log.injected.append(("payer-name-signal", f"account:{big}"))
        log.injected.append(("unit-price-2009", "currency:diamond"))
        w.event(minor, "draw", day, yuan="6", pool="fair-box", result="coin")
        log.injected.append(("paid-draw-2009", f"account:{minor}"))
        log.injected.append(("minor-trades-draft-2023", f"account:{minor}"))
    log.injected.append(("recharge-confirmation-2016", f"platform:{w.platform}"))
    w.setting("mode", mode="uncapped-points", round_cap=100)
    log.injected.append(("point-caps-configured-2007", "mode:uncapped-points"))
    retention = next(c for c in w.config if c.get("record") == "consumption")
    retention["oldest"] = (date.fromisoformat(retention["on"]) - timedelta(days=10)).isoformat()
    log.injected.append(("retain-consumption-2016", "records:consumption"))
    log.injected = sorted(set(log.injected))


def _mapped_modes(w: _Writer, sessions, games: list[str], log: PlatformLog) -> None:
    """Check 10's mapping of modes to games: the first game's sessions are played in a mode
    named otherwise (`GAME-points`, `game` GAME) whose caps they breach, though the mode
    named as their game code would hold them; look-alikes that hold: another game's mode
    so mapped with caps it keeps, and a mode for a preset no session plays."""
    first = sessions[0]["game"]
    round_cap, day_cap = _caps_breached(sessions, first, log)
    w.setting("mode", mode=f"{first}-points", game=first, round_cap=round_cap, day_cap=day_cap)
    w.setting(
        "mode", mode=f"{first}-cards", game=first, presets=["no-such-preset"], stakes_points=False
    )
    for game in games:
        if game != first:
            w.setting("mode", mode=f"{game}-points", game=game, round_cap=ROUND_CAP, day_cap=10**12)


def _caps_breached(sessions, game: str, log: PlatformLog) -> tuple[int, int]:
    """Caps on `game` set one point below the largest round and day its sessions' rounds
    show (check 10 read from the sessions), and every breach they make listed."""
    rounds: dict[str, int] = {}
    days: dict[tuple[str, date], int] = {}
    for s in sessions:
        if s["game"] != game:
            continue
        day = datetime.fromisoformat(s["started_at"]).astimezone(SHANGHAI).date()
        for player, (top, total) in s["_points"].items():
            rounds[player] = max(rounds.get(player, 0), top)
            days[(player, day)] = days.get((player, day), 0) + total
    round_cap, day_cap = max(rounds.values()) - 1, max(days.values()) - 1
    for player, top in rounds.items():
        if top > round_cap:
            log.injected.append(("point-cap-round-sessions-2007", f"account:{player}"))
    for (player, _), total in days.items():
        if total > day_cap:
            log.injected.append(("point-cap-day-sessions-2007", f"account:{player}"))
    for s in sessions:
        if s["_raked"]:
            log.injected.append(("fee-share-2007", f"room:{s['room_id']}"))
    return round_cap, day_cap


def _late_player(sessions) -> str | None:
    """A player of a session that starts outside every minors' hour (a Monday to Thursday
    that is no holiday is not needed: 22:00 to 08:00 is closed every day)."""
    for s in sessions:
        at = datetime.fromisoformat(s["started_at"])
        if at.hour >= 22 or at.hour < 8:
            return s["players"][0]["id"]
    return None


def _sessions(path: str) -> list[dict[str, Any]]:
    """The headers of the simulated sessions, their rounds summed up: each player's largest
    round and total |points| (`_points`), and whether any round took rake (`_raked`)."""
    out = []
    with open_log(path) as fh:
        for line in fh:
            if line.strip():
                s = json.loads(line)
                money = round_money(msgspec.json.encode(s.pop("rounds", []))) or []
                points: dict[str, tuple[int, int]] = {}
                nets: dict[str, int] = {}
                for r in money:
                    for player, v in r.results().items():
                        top, total = points.get(player, (0, 0))
                        points[player] = (max(top, abs(v)), total + abs(v))
                        nets[player] = nets.get(player, 0) + v
                s["_points"] = points
                s["_nets"] = nets
                s["_raked"] = _shows_a_share(money)
                out.append(s)
    return out


def _shows_a_share(money) -> bool:
    """Whether the log shows a rake within a point of one of the simulators' rates of the
    logged winnings in every seat or round, and not the same in all: check 9's
    breach as the log shows it. A rake the same everywhere reads as a fixed fee, and a
    tampered round's rake was taken on what the round really paid, not on its claim."""
    units: list[tuple[int, int]] = []
    seat_level = any(r.seat_rake for r in money)
    for r in money:
        if seat_level:
            units.extend(
                (seat.rake or 0, max(0, seat.claimed + (seat.rake or 0))) for seat in r.seats
            )
        else:
            units.append((r.rake or 0, sum(v for v in r.results().values() if v > 0)))
    fees = {fee for fee, _ in units}
    if len(fees) < 2:
        return False
    return any(
        all(abs(100 * fee - won * percent) < 100 for fee, won in units)
        for percent in {*RAKE_PERCENTS, FEE_SHARE} - {0}
    )
