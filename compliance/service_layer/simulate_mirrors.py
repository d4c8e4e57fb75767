"""模拟信号: the signals of issue 24 injected into a simulated platform, with honest
look-alikes that a naive rule would flag, so a test can prove the first are found and the
second are not.

- Mirrored gains (check 18): groups of accounts of their own (`boss-gNN` fed by one or
  three `mule-gNN-K`), each mule losing to the boss in 12 sessions of 斗牛 with two
  players of the population, over four rooms. Look-alikes: four friends at their regular
  tables; a lucky winner (`lucky-1`) who wins every round against three regulars; a heavy
  winner (`shark-1`) at tables of strangers.
- Draw frequencies (check 14): a biased pool (`biased-box`), a fair pool with rare items
  (`fair-box`), and a fair pool with too few draws (`few-box`: indeterminate).

Every round is an honest deal (the simulator only chooses which deals are kept), so the
audit scores the sessions as it scores any other.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from functools import partial
from typing import Any

import msgspec

from compliance.games.douniu.simulator import simulate as douniu
from compliance.games.rake import platform_rake
from compliance.service_layer.simulate import read_headers

_encoder = msgspec.json.Encoder()
SESSIONS_PER_PAIR = 12
ROUNDS = 16
TRIES = 30  # sessions dealt again until the pair's results mirror
PUBLISHED = {"common": "0.70", "rare": "0.25", "legend": "0.05"}
BIASED = {"common": 0.78, "rare": 0.20, "legend": 0.02}
FAIR = {
    "coin": "0.5",
    "gem": "0.3",
    "card": "0.15",
    "frame": "0.03",
    "avatar": "0.015",
    "title": "0.005",
}
LOOK_ALIKE_PREFIXES = ("friend-", "lucky-", "regular-", "shark-")


@dataclass
class SignalSessions:
    sessions: int = 0
    groups: list[list[str]] = field(default_factory=list)


def append_signal_sessions(sessions_path: str, seed: int, anomalies: float) -> SignalSessions:
    """Append the mirrored-gains groups and their look-alikes to the sessions file (about
    `anomalies` × the players / 10 groups, at least a pair and a group of four)."""
    headers = read_headers(sessions_path)
    rng = random.Random(f"signals-{seed}")
    platform = headers[0]["platform"]
    population = sorted({p["id"] for s in headers for p in s["players"]})
    places = sorted({s["jurisdiction"] for s in headers if s.get("jurisdiction")}) or ["000000"]
    first = min(datetime.fromisoformat(s["started_at"]) for s in headers)
    span = max(
        1,
        int(
            (max(datetime.fromisoformat(s["started_at"]) for s in headers) - first).total_seconds()
            // 60
        ),
    )
    out = SignalSessions()
    lines: list[bytes] = []

    def add(players: list[str], room: str, steer=None, pair=None) -> None:
        for _ in range(TRIES):
            made = douniu(rng, players, ROUNDS, 10, 0.0, steer() if steer else None)
            platform_rake("douniu", made.rounds, 0)  # platform records: no rake (check 9 holds)
            if pair is None or _mirrored(made.rounds, *pair):
                break
        out.sessions += 1
        started = first + timedelta(minutes=rng.randrange(span))
        session: dict[str, Any] = {
            "format": "stakelog/1",
            "session_id": f"{platform}-sig-{seed}-{out.sessions:05d}",
            "platform": platform,
            "room_id": room,
            "game": "douniu",
            "variant": made.variant,
            "started_at": started.isoformat(),
            "ended_at": (started + timedelta(minutes=ROUNDS * 2)).isoformat(),
            "point_value": "1",
            "jurisdiction": rng.choice(places),
            "venue": "online",
            "owner": {"id": f"owner-{room}", "room_fee": 0},
            "players": [{"id": p, "name": p} for p in players],
            "rounds": made.rounds,
        }
        lines.append(_encoder.encode(session) + b"\n")

    for g in range(max(2, round(anomalies * len(population) / 10))):
        boss = f"boss-g{g:02d}"
        mules = [f"mule-g{g:02d}-{k}" for k in range(1 if g % 2 == 0 else 3)]
        out.groups.append(sorted([boss, *mules]))
        for mule in mules:
            for i in range(SESSIONS_PER_PAIR):
                target = rng.randint(200, 400)
                others = rng.sample(population, 2)
                add(
                    [mule, boss, *others],
                    f"room-g{g:02d}-{i % 4}",
                    partial(_dumping, mule, boss, target),
                    (mule, boss),
                )
    friends = [f"friend-{k}" for k in range(1, 5)]
    regulars = ["lucky-1", *(f"regular-{k}" for k in range(1, 4))]
    for i in range(40):
        add(friends, f"room-friends-{i % 3}")
    for i in range(30):
        add(regulars, f"room-regulars-{i % 3}", partial(_winning, "lucky-1"))
        add(
            ["shark-1", *rng.sample(population, 3)],
            f"room-{rng.randrange(1, 200):03d}",
            partial(_winning, "shark-1"),
        )
    with open(sessions_path, "ab") as fh:
        fh.writelines(lines)
    return out


def _dumping(mule: str, boss: str, target: int):
    """Keep the deals that bring the mule towards losing `target` and the boss towards
    winning it."""
    totals = {mule: 0, boss: 0}

    def distance(m: int, b: int) -> int:
        return 4 * abs(m + b) + abs(m + target) + abs(b - target)

    def steer(won: dict[str, int], last_try: bool) -> bool:
        m, b = totals[mule] + won[mule], totals[boss] + won[boss]
        if not last_try and distance(m, b) >= distance(totals[mule], totals[boss]):
            return False
        totals[mule], totals[boss] = m, b
        return True

    return steer


def _mirrored(rounds: list[dict[str, Any]], mule: str, boss: str) -> bool:
    """The mule's and the boss's session results (before rake, as the audit's nets are)
    within 5 % of each other, opposite."""
    nets = {mule: 0, boss: 0}
    for r in rounds:
        for seat in r["seats"]:
            if seat["player"] in nets:
                nets[seat["player"]] += seat["claimed"] + seat.get("rake", 0)  # as audited
    return nets[mule] < 0 < nets[boss] and abs(nets[mule] + nets[boss]) <= 0.05 * nets[boss]


def _winning(player: str):
    """Keep the deals the player wins: lucky, not dishonest."""

    def steer(won: dict[str, int], last_try: bool) -> bool:
        return last_try or won[player] > 0

    return steer


def mirrored_injections(players: Iterable[str]) -> list[tuple[str, str]]:
    """The mirrored-gains groups among the players, as (duty row, subject)."""
    groups: dict[str, list[str]] = {}
    for p in players:
        if p.startswith(("boss-", "mule-")):
            groups.setdefault(p.split("-")[1], []).append(p)
    return [
        ("mirrored-gains-2007", "accounts:" + "+".join(sorted(members)))
        for _, members in sorted(groups.items())
    ]


def inject_draws(w, rng: random.Random, day: datetime, injected: list) -> None:
    """Paid draws on accounts of their own (each a 2009 breach): a biased pool, a fair
    pool with rare items, and a fair pool with too few draws to test."""
    for item, p in PUBLISHED.items():
        w.setting("draw", pool="biased-box", item=item, probability=p)
    for pool in ("fair-box", "few-box"):
        for item, p in FAIR.items():
            w.setting("draw", pool=pool, item=item, probability=p)
    drawers = [f"drawer-{k}" for k in range(1, 11)]
    for d in drawers:
        w.account(d, datetime(1985, 5, 5).date())
        injected.append(("paid-draw-2009", f"account:{d}"))
    fair = {k: float(Decimal(v)) for k, v in FAIR.items()}
    for pool, weights, n in (
        ("biased-box", BIASED, 1500),
        ("fair-box", fair, 800),
        ("few-box", fair, 40),
    ):
        items, chances = zip(*weights.items(), strict=True)
        for k, item in enumerate(rng.choices(items, chances, k=n)):
            at = day + timedelta(minutes=k)
            w.event(drawers[k % len(drawers)], "draw", at, yuan="6", pool=pool, result=item)
    injected.append(("draw-frequencies-2016", "pool:biased-box"))


def is_look_alike(subject: str) -> bool:
    return any(prefix in subject for prefix in LOOK_ALIKE_PREFIXES)
