"""结论计数: what a report counts and keeps of its findings, one at a time."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from compliance.domain.tiers import Tier
from compliance.reporting.accumulate import Exposures, Kept
from compliance.reporting.facts import order_key, severity
from compliance.reporting.lines import NEAR_BINS, near_share

NEAR_KEPT = 1000  # the closest near misses listed; all are counted in NEAR_BINS
LISTED = 5000  # integrity and criminal/very serious findings listed; beyond, counted
SUBJECT_KINDS = ("player", "owner", "platform")


@dataclass(frozen=True)
class Headline:
    """要点: what an operator acts on first. `criminal` and `very_serious` count subjects
    (players, room owners, platforms) by their worst finding, each once; `penalised`
    counts threshold findings at a penalty tier (赌资较大 and above), apart from
    `below` (未达标准) and `exempt` (不予处罚)."""

    criminal: dict[str, int] = field(default_factory=dict)
    very_serious: dict[str, int] = field(default_factory=dict)
    criminal_places: tuple[str, ...] = ()
    very_serious_places: tuple[str, ...] = ()
    tampered_rounds: int = 0
    integrity: int = 0
    rejects: int = 0
    indeterminate: int = 0
    penalised: int = 0
    below: int = 0
    exempt: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "criminal": self.criminal,
            "very_serious": self.very_serious,
            "criminal_jurisdictions": list(self.criminal_places),
            "very_serious_jurisdictions": list(self.very_serious_places),
            "tampered_rounds": self.tampered_rounds,
            "integrity_findings": self.integrity,
            "rejects": self.rejects,
            "indeterminate": self.indeterminate,
            "penalised": self.penalised,
            "below_threshold": self.below,
            "exempt": self.exempt,
        }


def _round_key(f: dict[str, Any]) -> tuple:
    return (f.get("day") or "", f["platform"], f["session_id"] or "", f.get("round") or 0)


def _near_key(f: dict[str, Any]) -> tuple:
    return (f["margin_share"], f["session_id"] or "", f["subject"])


def subject_key(f: dict[str, Any]) -> tuple[str, str] | None:
    """Who a threshold finding judges, as (player | owner | platform, platform/id)."""
    kind, _, who = f["subject"].partition(":")
    if kind not in SUBJECT_KINDS:
        return None
    return kind, (f["platform"] if kind == "platform" else f"{f['platform']}/{who}")


class FindingTally:
    """What a report counts of its findings, one at a time, in bounded memory."""

    def __init__(self, rooms: Exposures, owners: Exposures, people: Exposures):
        self.rooms, self.owners, self.people = rooms, owners, people
        self.kinds: Counter = Counter()
        self.tiers: Counter = Counter()
        self.by_place: dict[str, Counter] = defaultdict(Counter)
        self.places: dict[str, tuple[str, str]] = {}
        self.months: dict[str, Counter] = defaultdict(Counter)
        self.games: dict[str, Counter] = defaultdict(Counter)
        self.rules: set[str] = set()
        self.near = Kept(NEAR_KEPT, _near_key)
        self.near_bins: dict[str, list[int]] = defaultdict(lambda: [0] * (len(NEAR_BINS) - 1))
        self.integrity = Kept(LISTED, _round_key)
        self.serious = Kept(LISTED, order_key)
        self.worst: dict[tuple[str, str], int] = {}
        self.serious_places: dict[bool, set[str]] = {True: set(), False: set()}
        self.rounds: set[tuple] = set()

    def add(self, f: dict[str, Any]) -> None:
        kind = f["kind"]
        label = f.get("tier") or kind
        self.kinds[kind] += 1
        code = f.get("jurisdiction") or "-"
        self.by_place[code][label] += 1
        if f.get("jurisdiction_name"):
            self.places[code] = (f["jurisdiction_name"], "")
        self.months[f["day"][:7]][label] += 1
        self.rules.update(f[k] for k in ("rule", "next_rule") if f.get(k))
        if kind == "integrity":
            self.games[f["game"]][f["check"]] += 1
            self.integrity.add(f)
            self.rounds.add((f["platform"], f["session_id"], f.get("round")))
        if kind != "threshold":
            return
        self.tiers[f["tier"]] += 1
        rank = severity(f)
        platform, subject = f["platform"], f["subject"]
        self.people.judged(f"{platform}/{f.get('player')}", rank)
        self.rooms.judged(f"{platform}/{f.get('room_id')}", rank)
        owner = subject.split(":", 1)[1] if subject.startswith("owner:") else f.get("owner_id")
        self.owners.judged(f"{platform}/{owner}", rank)
        if rank >= Tier.ADMINISTRATIVE_VERY_SERIOUS:
            self.serious.add(f)
            self.serious_places[rank >= Tier.CRIMINAL].add(code)
            who = subject_key(f)
            if who is not None:
                self.worst[who] = max(self.worst.get(who, 0), int(rank))
        share = near_share(f)
        if share is not None:
            self.near.add(dict(f, margin_share=share))
            edge = min(bisect_right(NEAR_BINS, 100 * share), len(NEAR_BINS) - 1)
            self.near_bins[f["next_tier"]][edge - 1] += 1

    def headline(self, rejects: int) -> Headline:
        criminal: Counter = Counter()
        very: Counter = Counter()
        for (kind, _), rank in self.worst.items():
            (criminal if rank >= Tier.CRIMINAL else very)[kind] += 1
        penalised = sum(n for t, n in self.tiers.items() if Tier.parse(t) >= Tier.ADMINISTRATIVE)
        return Headline(
            criminal={k: criminal[k] for k in SUBJECT_KINDS},
            very_serious={k: very[k] for k in SUBJECT_KINDS},
            criminal_places=tuple(sorted(self.serious_places[True])),
            very_serious_places=tuple(sorted(self.serious_places[False])),
            tampered_rounds=len(self.rounds),
            integrity=self.kinds["integrity"],
            rejects=rejects,
            indeterminate=self.kinds["indeterminate"],
            penalised=penalised,
            below=self.tiers["below_threshold"],
            exempt=self.tiers["exempt"],
        )
