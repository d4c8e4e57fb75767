"""模拟: realistic stakelog/1 sessions from really shuffled decks, reproducible by seed.

Players live in several provinces, some rooms are family tables, room owners
take rake, and a few rooms play for high stakes. With an anomaly rate, the
games tamper with rounds and every tampering is listed, so a test can prove
the audit finds each one.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import IO, Any

import msgspec

from compliance.domain.ruleset import Resolver
from compliance.games import game_codes, get_game
from compliance.games.base import Simulated
from compliance.games.rake import platform_rake
from compliance.ruledata import load_book
from compliance.streams import open_log

DEFAULT_JURISDICTIONS = ("430000", "420000", "360000", "610000", "510000", "440606")
POINT_VALUES = ("0.1", "0.5", "1", "1", "2")
BASES = (1, 1, 2, 2, 5, 10)
HIGH_BASES = (20, 50, 100)
CHINA = timezone(timedelta(hours=8))
SURNAMES = "王李张刘陈杨赵黄周吴"
FEE_SHARE = 10  # percent of the winnings an injected room takes (check 9)

# 模拟器: each game's simulator lives beside it and imports it, never the reverse.
SIMULATORS: dict[str, str] = {code: f"compliance.games.{code}.simulator" for code in game_codes()}

Simulator = Callable[[random.Random, list[str], int, int, float], Simulated]


def simulator_for(code: str) -> Simulator:
    """The game's `simulate(rng, players, n_rounds, base, anomaly_rate)`.

    `base` is the stake unit in points; with probability `anomaly_rate` a round
    is tampered with (a changed payout, a wrong banker, an illegal action) and
    the tampering is listed in the result.
    """
    get_game(code)  # UnknownGameError for a code we do not know
    return importlib.import_module(SIMULATORS[code]).simulate


def check_places(names: tuple[str, ...]) -> None:
    """Every place a simulation spreads players over is one the shipped rule book knows;
    JurisdictionError (with the closest name) for the first that is not."""
    resolver = Resolver(load_book())
    for name in names:
        resolver.lookup(name)


@dataclass(frozen=True)
class SimulationSpec:
    games: tuple[str, ...] = ("douniu",)
    sessions: int = 100
    seed: int = 1
    anomalies: float = 0.0
    jurisdictions: tuple[str, ...] = DEFAULT_JURISDICTIONS
    rounds: tuple[int, int] = (10, 30)
    players: tuple[int, int] = (4, 6)
    platform: str = "sim"
    start: datetime = datetime(2025, 10, 1, tzinfo=CHINA)
    days: int = 240
    high_stakes: float = 0.1
    platform_fees: bool = False  # platform records follow: rake only where check 9 is injected


@dataclass
class SimulatedLog:
    """The sessions made and every anomaly injected, as (session id, round, check)."""

    lines: list[bytes] = field(default_factory=list)
    anomalies: list[tuple[str, int, str]] = field(default_factory=list)
    rounds: int = 0


_encoder = msgspec.json.Encoder()


def generate(spec: SimulationSpec) -> Iterator[tuple[bytes, list[tuple[str, int, str]], int]]:
    """(JSON line, anomalies, rounds) for each session, in order; same seed, same bytes."""
    rng = random.Random(spec.seed)
    population = _population(rng, spec)
    for n in range(1, spec.sessions + 1):
        code = spec.games[(n - 1) % len(spec.games)]
        low, high = get_game(code).spec.seat_range
        count = max(low, min(high, rng.randint(*spec.players)))
        family = rng.random() < 0.1
        players = rng.sample(population, count)
        kin = f"{rng.choice(SURNAMES)}家" if family else None
        base = rng.choice(HIGH_BASES) if rng.random() < spec.high_stakes else rng.choice(BASES)
        made = simulator_for(code)(
            rng, [p["id"] for p in players], rng.randint(*spec.rounds), base, spec.anomalies
        )
        if spec.platform_fees:
            platform_rake(code, made.rounds, FEE_SHARE if _fee_injected(spec, n) else 0)
        sid = f"{spec.platform}-{spec.seed}-{n:06d}"
        started = spec.start + timedelta(minutes=rng.randrange(spec.days * 24 * 60))
        owner = {"id": f"owner-{rng.randrange(1, 40):02d}", "room_fee": rng.choice((0, 0, 5, 10))}
        session: dict[str, Any] = {
            "format": "stakelog/1",
            "session_id": sid,
            "platform": spec.platform,
            "room_id": f"room-{rng.randrange(1, 200):03d}",
            "game": code,
            "variant": made.variant,
            "started_at": started.isoformat(),
            "ended_at": (started + timedelta(minutes=len(made.rounds) * 2)).isoformat(),
            "point_value": rng.choice(POINT_VALUES),
            "jurisdiction": rng.choice(spec.jurisdictions),
            "venue": "online",
            "owner": owner,
            "players": [{**p, "kin_group": kin} if kin else dict(p) for p in players],
            "rounds": made.rounds,
        }
        yield (
            _encoder.encode(session) + b"\n",
            [(sid, index, check) for index, check in made.anomalies],
            len(made.rounds),
        )


def _fee_injected(spec: SimulationSpec, n: int) -> bool:
    """With anomalies, about that share of the sessions (the first among them) take a
    rake that is a share of the winnings: check 9's injected breach."""
    if spec.anomalies <= 0:
        return False
    return n % max(2, round(1 / spec.anomalies)) == 1


def _population(rng: random.Random, spec: SimulationSpec) -> list[dict[str, Any]]:
    """Players with a home province; two in three live where their room is."""
    people = []
    for i in range(max(60, spec.sessions // 5)):
        person: dict[str, Any] = {"id": f"u{i:05d}", "name": f"{rng.choice(SURNAMES)}{i}"}
        if rng.random() < 0.33:
            person["jurisdiction"] = rng.choice(spec.jurisdictions)
        people.append(person)
    return people


def write_log(
    spec: SimulationSpec, path: str | IO[bytes], on_session: Callable[[], object] = lambda: None
) -> SimulatedLog:
    """Write the sessions to a file (or a binary stream); keep the anomaly list, not the lines.
    `on_session` is called after each session is written."""
    if not isinstance(path, str):
        return _write(spec, path, on_session)
    with open(path, "wb") as out:
        return _write(spec, out, on_session)


def _write(spec: SimulationSpec, out: IO[bytes], on_session: Callable[[], object]) -> SimulatedLog:
    log = SimulatedLog()
    for line, anomalies, rounds in generate(spec):
        out.write(line)
        log.anomalies.extend(anomalies)
        log.rounds += rounds
        on_session()
    out.flush()
    return log


def read_headers(path: str) -> list[dict[str, Any]]:
    """The headers of the sessions of a log (their rounds dropped)."""
    out = []
    with open_log(path) as fh:
        for line in fh:
            if line.strip():
                s = json.loads(line)
                s.pop("rounds", None)
                out.append(s)
    return out
