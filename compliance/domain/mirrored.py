"""对冲输赢: accounts whose gains mirror others' losses across many rooms, a sign of points
settled off the platform (银商, 代打; platform-rules.md §7 check 18). A signal, never a
violation: friends who meet often are not flagged, because in a game of three or more a
pair's results are opposite and nearly equal only now and then, and their direction
changes; a dumping pair's are so session after session, one way.

Two passes over the sessions, so that memory holds only the pairs that mirrored, not every
pair that ever sat together: the first counts, per pair, the sessions in which the two
results were opposite and within `tolerance` of each other, with the amount and its
direction (three integers a pair, nothing else); the second counts, for the pairs that
mirrored often enough, every session and room they shared, and keeps their mirrored
sessions (at most `KEPT`). Money in integer cents. No I/O here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

KEPT = 1000  # mirrored sessions kept per pair that holds
ROOMS_KEPT = 10


@dataclass(frozen=True, slots=True)
class Table:
    """One session's results: its room and each player's net in cents; `at` its start."""

    session_id: str
    room: str
    nets: tuple[tuple[str, int], ...]
    at: str = ""


@dataclass(frozen=True, slots=True)
class MirroredSession:
    session_id: str
    room: str
    at: str
    gain_cents: int  # what `b` won (negative: `a` won)


@dataclass(frozen=True, slots=True)
class MirrorParameters:
    min_players: int = 3  # heads-up results always mirror: they tell nothing
    tolerance: float = 0.1  # |a + b| within this share of the larger result
    min_sessions: int = 10  # mirrored sessions a pair needs
    min_share: float = 0.8  # of the sessions the two shared
    min_rooms: int = 3
    min_direction: float = 0.8  # |Σ gains of one side| / Σ |gains|: one way, not to and fro
    min_cents: int = 100_000  # 1,000 yuan moved in the mirrored sessions


@dataclass(slots=True)
class _Mirrors:
    count: int = 0
    flow: int = 0  # what `b` won from `a`, signed, in cents
    moved: int = 0  # Σ |b's result|


@dataclass(frozen=True, slots=True)
class MirroredPair:
    a: str
    b: str
    mirrored: int
    shared: int
    rooms: int
    flow_cents: int  # positive: b gained what a lost
    moved_cents: int
    sessions: tuple[MirroredSession, ...]  # the mirrored ones, at most KEPT
    room_names: tuple[str, ...] = ()  # at most ROOMS_KEPT

    @property
    def share(self) -> float:
        return self.mirrored / self.shared if self.shared else 0.0

    @property
    def direction(self) -> float:
        return abs(self.flow_cents) / self.moved_cents if self.moved_cents else 0.0

    @property
    def gainer(self) -> str:
        return self.b if self.flow_cents > 0 else self.a


def mirrors(a: int, b: int, tolerance: float) -> bool:
    """Two results opposite in sign and within `tolerance` of each other."""
    if a == 0 or b == 0 or (a > 0) == (b > 0):
        return False
    return abs(a + b) <= tolerance * max(abs(a), abs(b))


def first_pass(tables: Iterable[Table], p: MirrorParameters) -> dict[tuple[str, str], _Mirrors]:
    found: dict[tuple[str, str], _Mirrors] = defaultdict(_Mirrors)
    for t in tables:
        if len(t.nets) < p.min_players:
            continue
        for (pa, na), (pb, nb) in combinations(sorted(t.nets), 2):
            if mirrors(na, nb, p.tolerance):
                m = found[(pa, pb)]
                m.count += 1
                m.flow += nb
                m.moved += abs(nb)
    return {k: v for k, v in found.items() if v.count >= p.min_sessions}


def second_pass(
    tables: Iterable[Table], candidates: dict[tuple[str, str], _Mirrors], p: MirrorParameters
) -> Iterator[MirroredPair]:
    """The candidates that hold: mirrored in most sessions they shared, over many rooms,
    one way, for a real amount."""
    members = {player for pair in candidates for player in pair}
    shared: dict[tuple[str, str], int] = defaultdict(int)
    rooms: dict[tuple[str, str], set[str]] = defaultdict(set)
    kept: dict[tuple[str, str], list[MirroredSession]] = defaultdict(list)
    for t in tables:
        if len(t.nets) < p.min_players:
            continue
        seated = sorted((player, net) for player, net in t.nets if player in members)
        for (pa, na), (pb, nb) in combinations(seated, 2):
            pair = (pa, pb)
            if pair not in candidates:
                continue
            shared[pair] += 1
            if len(rooms[pair]) < max(ROOMS_KEPT, p.min_rooms):
                rooms[pair].add(t.room)
            if mirrors(na, nb, p.tolerance) and len(kept[pair]) < KEPT:
                kept[pair].append(MirroredSession(t.session_id, t.room, t.at, nb))
    for (a, b), m in sorted(candidates.items()):
        found = MirroredPair(
            a,
            b,
            m.count,
            shared[(a, b)],
            len(rooms[(a, b)]),
            m.flow,
            m.moved,
            tuple(kept[(a, b)]),
            tuple(sorted(rooms[(a, b)])),
        )
        if (
            found.share >= p.min_share
            and found.rooms >= p.min_rooms
            and found.direction >= p.min_direction
            and found.moved_cents >= p.min_cents
        ):
            yield found


def groups(pairs: Iterable[MirroredPair]) -> list[set[str]]:
    """Accounts joined by mirrored pairs, as groups (connected components), largest first."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for pair in pairs:
        parent[root(pair.a)] = root(pair.b)
    found: dict[str, set[str]] = defaultdict(set)
    for x in parent:
        found[root(x)].add(x)
    return sorted(found.values(), key=lambda g: (-len(g), sorted(g)))
