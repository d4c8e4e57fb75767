"""报告模型: one report of stored audit results, built from plain rows, rendered many ways.

The database layer fills a `ReportSource` with what the filters select; `build`
turns it into a `Report` (counts, distributions, threshold lines, top lists)
that the HTML, CSV, JSON and Markdown renderers share. No SQLAlchemy here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from compliance.domain.rules import RuleBook, leaves
from compliance.domain.ruleset import Resolver
from compliance.domain.tiers import TIER_CODES, Tier
from compliance.reporting.accumulate import Exposure, Exposures, Kept, Sample

LINE_METRICS = ("single_stake", "per_capita_capital")
KINDS = ("integrity", "indeterminate")
NEAR_MISS_SHARE = 0.2
NEAR_BINS = (0, 2.5, 5, 7.5, 10, 12.5, 15, 17.5, 20)  # per cent of the next line
SHOWN = 500  # the most severe findings a report keeps to show; exports stream them all
NEAR_KEPT = 1000  # the closest near misses listed; all are counted in NEAR_BINS


@dataclass(frozen=True)
class ReportQuery:
    """What to report on: one run (None with dates: every run) and the filters."""

    run: int | None = None
    jurisdiction: str | None = None
    jurisdictions: tuple[str, ...] = ()
    game: str | None = None
    platform: str | None = None
    tiers: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None

    @property
    def min_tier(self) -> str | None:
        ranked = [Tier.parse(t) for t in self.tiers if t in TIER_CODES]
        return min(ranked).code if ranked else None

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(t for t in self.tiers if t in KINDS)

    def describe(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "jurisdiction": self.jurisdiction,
            "game": self.game,
            "platform": self.platform,
            "tier": list(self.tiers),
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
        }


@dataclass(frozen=True)
class RunInfo:
    id: int
    started_at: datetime | None
    files: tuple[str, ...]
    sessions: int
    rejects: int
    finished: bool = True


@dataclass(frozen=True)
class SessionFact:
    platform: str
    session_id: str
    game: str
    room_id: str | None
    owner_id: str | None
    day: date
    jurisdiction: str | None
    headcount: int
    scene_capital: float | None
    per_capita_capital: float | None


@dataclass(frozen=True)
class PlayerFact:
    platform: str
    session_id: str
    player_id: str
    name: str
    jurisdiction: str | None
    single_stake: float | None
    capital: float | None


@dataclass(frozen=True)
class FindingFact:
    """A stored finding (its whole JSON) and where its session was played."""

    payload: dict[str, Any]
    day: date
    game: str
    room_id: str | None
    owner_id: str | None
    name: str = ""


@dataclass
class ReportSource:
    """What a report reads. `sessions`, `players` and `findings` are iterated once
    each, so they may stream from a database; `ordered` reads every finding
    again, most severe first, for the exports (without it `findings` must be
    a list, which is sorted)."""

    runs: list[RunInfo]
    sessions: Iterable[SessionFact]
    players: Iterable[PlayerFact]
    findings: Iterable[FindingFact]
    rejects: int
    book: RuleBook | None = None
    ordered: Callable[[], Iterator[FindingFact]] | None = None


@dataclass(frozen=True)
class ThresholdLine:
    """One lower bound of a band on a charted metric: where a tier starts."""

    metric: str
    jurisdiction: str
    value: float
    tier: str
    band: str
    game_classes: tuple[str, ...] = ()


@dataclass
class Report:
    """A report: counts over every selected row, the most severe findings, and the
    exports' stream of all of them (`export()`), in memory bounded by what is shown."""

    query: ReportQuery
    generated_at: datetime
    runs: list[RunInfo]
    sessions: int
    rejects: int
    players: int
    kinds: Counter
    tiers: Counter
    findings: list[dict[str, Any]]
    places: dict[str, tuple[str, str]]
    by_place: dict[str, Counter]
    single_stakes: list[tuple[str, float]]
    per_capita: list[tuple[str, float]]
    lines: list[ThresholdLine]
    near_misses: list[dict[str, Any]]
    top_rooms: list[Exposure]
    top_owners: list[Exposure]
    top_players: list[Exposure]
    over_time: dict[str, Counter]
    mismatches: dict[str, Counter]
    rules: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    near_miss_bins: dict[str, list[int]] = field(default_factory=dict)
    figure_counts: dict[str, int] = field(default_factory=dict)
    export: Callable[[], Iterator[dict[str, Any]]] = lambda: iter(())

    @property
    def total(self) -> int:
        return sum(self.kinds.values())

    @property
    def unfinished(self) -> str:
        """The runs that stopped before their end, as "#3, #5", or ""."""
        return ", ".join(f"#{r.id}" for r in self.runs if not r.finished)


def severity(finding: dict[str, Any]) -> float:
    """Threshold tiers by rank; integrity and indeterminate between 赌资较大 and below."""
    kind = finding.get("kind")
    if kind == "integrity":
        return 1.6
    if kind == "indeterminate":
        return 1.3
    return float(Tier.parse(finding["tier"]))


def order_key(finding: dict[str, Any]) -> tuple[float, float, bool]:
    """Most severe first, then the larger figure, then windows (organisers) before
    sessions; otherwise in the order audited."""
    return (
        -severity(finding),
        -float(finding.get("value") or 0),
        finding.get("session_id") is not None,
    )


def enrich(fact: FindingFact) -> dict[str, Any]:
    """A finding's JSON with where and when its session was played, and the player's name."""
    return dict(
        fact.payload,
        day=fact.day.isoformat(),
        room_id=fact.room_id,
        owner_id=fact.owner_id,
        name=fact.name,
    )


def build(source: ReportSource, query: ReportQuery, now: datetime) -> Report:
    """汇总: counts, distributions, lines and top lists, in one pass over each kind of row."""
    rooms, owners, people = Exposures(), Exposures(), Exposures()
    per_capita, stakes = Sample(), Sample()
    session_codes: set[str] = set()
    player_codes: set[str] = set()
    sessions, last_day = 0, None
    for s in source.sessions:
        sessions += 1
        last_day = s.day if last_day is None or s.day > last_day else last_day
        if s.jurisdiction:
            session_codes.add(s.jurisdiction)
        if s.per_capita_capital is not None:
            per_capita.add((s.jurisdiction or "-", s.per_capita_capital))
        if s.room_id is not None:
            rooms.add(f"{s.platform}/{s.room_id}", s.room_id, s.scene_capital)
        if s.owner_id is not None:
            owners.add(f"{s.platform}/{s.owner_id}", s.owner_id, s.scene_capital)
    distinct: set[tuple[str, str]] = set()
    for p in source.players:
        distinct.add((p.platform, p.player_id))
        if p.jurisdiction:
            player_codes.add(p.jurisdiction)
        if p.single_stake is not None:
            stakes.add((p.jurisdiction or "-", p.single_stake))
        people.add(
            f"{p.platform}/{p.player_id}",
            f"{p.name} ({p.player_id})" if p.name else p.player_id,
            p.capital,
        )
    tally = _FindingTally(rooms, owners, people)
    shown = Kept(SHOWN, order_key)
    for fact in source.findings:
        f = enrich(fact)
        tally.add(f)
        shown.add(f)
    places = tally.places
    if source.book:
        for code in {*tally.by_place, *session_codes}:
            j = source.book.jurisdictions.get(code)
            if j:
                places[code] = (j.name_zh, j.name_en)
    return Report(
        query=query,
        generated_at=now,
        runs=source.runs,
        sessions=sessions,
        rejects=source.rejects,
        players=len(distinct),
        kinds=tally.kinds,
        tiers=tally.tiers,
        findings=shown.result(),
        places=places,
        by_place=dict(tally.by_place),
        single_stakes=stakes.items,
        per_capita=per_capita.items,
        lines=threshold_lines(
            source.book, session_codes | player_codes, query.until or last_day, query
        ),
        near_misses=tally.near.result(),
        top_rooms=rooms.top(),
        top_owners=owners.top(),
        top_players=people.top(),
        over_time=dict(sorted(tally.months.items())),
        mismatches=dict(sorted(tally.games.items())),
        rules=rules_cited(source.book, tally.rules),
        near_miss_bins=dict(tally.near_bins),
        figure_counts={"single_stake": stakes.count, "per_capita_capital": per_capita.count},
        export=_exporter(source),
    )


class _FindingTally:
    """What a report counts of its findings, one at a time."""

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
        if kind != "threshold":
            return
        self.tiers[f["tier"]] += 1
        rank = severity(f)
        platform, subject = f["platform"], f["subject"]
        self.people.judged(f"{platform}/{f.get('player')}", rank)
        self.rooms.judged(f"{platform}/{f.get('room_id')}", rank)
        owner = subject.split(":", 1)[1] if subject.startswith("owner:") else f.get("owner_id")
        self.owners.judged(f"{platform}/{owner}", rank)
        share = near_share(f)
        if share is not None:
            self.near.add(dict(f, margin_share=share))
            edge = min(bisect_right(NEAR_BINS, 100 * share), len(NEAR_BINS) - 1)
            self.near_bins[f["next_tier"]][edge - 1] += 1


def _exporter(source: ReportSource) -> Callable[[], Iterator[dict[str, Any]]]:
    if source.ordered is not None:
        ordered = source.ordered
        return lambda: (enrich(f) for f in ordered())
    everything = source.findings
    return lambda: iter(sorted((enrich(f) for f in everything), key=order_key))


def rules_cited(book: RuleBook | None, used: set[str]) -> list[dict[str, Any]]:
    """引用的规则: each band the findings name, with its instrument's provenance."""
    if book is None:
        return []
    bands = {b.id: b for b in book.bands}
    out = []
    for rule in sorted(used):
        band = bands.get(rule)
        inst = book.instruments.get(band.instrument) if band else None
        out.append(
            {
                "rule": rule,
                "jurisdiction": band.jurisdiction if band else None,
                "tier": band.tier.code if band else None,
                "article": band.article if band else "",
                "instrument": inst.id if inst else None,
                "title": inst.title if inst else "",
                "doc_number": inst.doc_number if inst else "",
                "source": inst.source if inst else "",
                "confidence": band.confidence if band else None,
                "disputed": bool(inst and inst.disputed),
                "note": inst.note if inst else "",
            }
        )
    return out


def threshold_lines(
    book: RuleBook | None, codes: set[str], day: date | None, query: ReportQuery
) -> list[ThresholdLine]:
    """阈值线: each jurisdiction's lower bounds on the charted metrics, in force at the end."""
    if book is None or day is None:
        return []
    if query.jurisdictions:
        codes = codes & set(query.jurisdictions)
    resolver = Resolver(book)
    found: dict[tuple, ThresholdLine] = {}
    for code in sorted(codes):
        if code not in book.jurisdictions:
            continue
        for band in resolver.ruleset(code, day).bands_for("player"):
            for leaf in leaves(band.condition):
                bound = leaf.lower
                if leaf.metric not in LINE_METRICS or bound is None or bound <= 0:
                    continue
                line = ThresholdLine(
                    leaf.metric,
                    code,
                    float(bound),
                    band.tier.code,
                    band.id,
                    tuple(sorted(band.game_classes)),
                )
                found.setdefault((line.metric, code, line.value, line.game_classes), line)
    return sorted(found.values(), key=lambda x: (x.metric, x.jurisdiction, x.value))


def near_share(f: dict[str, Any], share: float = NEAR_MISS_SHARE) -> float | None:
    """How far below the next tier's line a threshold finding is, as a share of that
    line, when within `share` of it; else None."""
    margin, boundary = f.get("margin_to_next"), f.get("next_boundary")
    if f["kind"] != "threshold" or margin is None or not boundary:
        return None
    ratio = float(margin) / float(boundary)
    return round(ratio, 4) if 0 <= ratio <= share else None


def _near_key(f: dict[str, Any]) -> tuple:
    return (f["margin_share"], f["session_id"] or "", f["subject"])


def near_misses(findings: Iterable[dict[str, Any]], share: float = NEAR_MISS_SHARE) -> list[dict]:
    """差一点: threshold findings within `share` of the next tier's line, closest first."""
    out = []
    for f in findings:
        found = near_share(f, share)
        if found is not None:
            out.append(dict(f, margin_share=found))
    out.sort(key=_near_key)
    return out
