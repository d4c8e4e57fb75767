"""报告模型: one report of stored audit results, built from plain rows, rendered many ways.

The database layer fills a `ReportSource` with what the filters select; `build`
turns it into a `Report` (counts, distributions, threshold lines, top lists)
that the HTML, CSV, JSON and Markdown renderers share. No SQLAlchemy here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from compliance.domain.rules import RuleBook, leaves
from compliance.domain.ruleset import Resolver
from compliance.domain.tiers import TIER_CODES, Tier

LINE_METRICS = ("single_stake", "per_capita_capital")
KINDS = ("integrity", "indeterminate")
TOP = 10
NEAR_MISS_SHARE = 0.2


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
            "run": self.run, "jurisdiction": self.jurisdiction, "game": self.game,
            "platform": self.platform, "tier": list(self.tiers),
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


@dataclass
class ReportSource:
    runs: list[RunInfo]
    sessions: list[SessionFact]
    players: list[PlayerFact]
    findings: list[FindingFact]
    rejects: int
    book: RuleBook | None = None


@dataclass(frozen=True)
class ThresholdLine:
    """One lower bound of a band on a charted metric: where a tier starts."""

    metric: str
    jurisdiction: str
    value: float
    tier: str
    band: str
    game_classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exposure:
    """赌资敞口: the capital that passed through a room, owner or player."""

    key: str
    label: str
    sessions: int
    capital: float
    top_tier: str | None


@dataclass
class Report:
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


def severity(finding: dict[str, Any]) -> float:
    """Threshold tiers by rank; integrity and indeterminate between 赌资较大 and below."""
    kind = finding.get("kind")
    if kind == "integrity":
        return 1.6
    if kind == "indeterminate":
        return 1.3
    return float(Tier.parse(finding["tier"]))


def build(source: ReportSource, query: ReportQuery, now: datetime) -> Report:
    """汇总: counts, distributions, lines and top lists from the selected rows."""
    sessions = {(s.platform, s.session_id): s for s in source.sessions}
    names = {(p.platform, p.session_id, p.player_id): p.name for p in source.players}
    findings = [
        dict(f.payload, day=f.day.isoformat(), room_id=f.room_id, owner_id=f.owner_id,
             name=names.get((f.payload["platform"], f.payload["session_id"],
                             f.payload.get("player")), ""))
        for f in source.findings
    ]
    findings.sort(key=lambda f: (-severity(f), -float(f.get("value") or 0),
                                 f["session_id"] or "", f["subject"]))
    kinds = Counter(f["kind"] for f in findings)
    tiers = Counter(f["tier"] for f in findings if f["kind"] == "threshold")
    by_place: dict[str, Counter] = defaultdict(Counter)
    places: dict[str, tuple[str, str]] = {}
    for f in findings:
        code = f.get("jurisdiction") or "-"
        by_place[code][f.get("tier") or f["kind"]] += 1
        if f.get("jurisdiction_name"):
            places[code] = (f["jurisdiction_name"], "")
    if source.book:
        for code in {*by_place, *(s.jurisdiction for s in source.sessions if s.jurisdiction)}:
            j = source.book.jurisdictions.get(code)
            if j:
                places[code] = (j.name_zh, j.name_en)
    return Report(
        query=query, generated_at=now, runs=source.runs, sessions=len(sessions),
        rejects=source.rejects, players=len({(p.platform, p.player_id) for p in source.players}),
        kinds=kinds, tiers=tiers, findings=findings, places=places, by_place=dict(by_place),
        single_stakes=[
            (p.jurisdiction or _where(sessions, p), p.single_stake)
            for p in source.players if p.single_stake is not None
        ],
        per_capita=[
            (s.jurisdiction or "-", s.per_capita_capital)
            for s in source.sessions if s.per_capita_capital is not None
        ],
        lines=threshold_lines(source, query),
        near_misses=near_misses(findings),
        top_rooms=_top(source, findings, "room"),
        top_owners=_top(source, findings, "owner"),
        top_players=_top(source, findings, "player"),
        over_time=_over_time(findings),
        mismatches=_mismatches(findings),
        rules=rules_cited(source.book, findings),
    )


def rules_cited(book: RuleBook | None, findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """引用的规则: each band the findings name, with its instrument's provenance."""
    if book is None:
        return []
    bands = {b.id: b for b in book.bands}
    used = sorted({f[k] for f in findings for k in ("rule", "next_rule") if f.get(k)})
    out = []
    for rule in used:
        band = bands.get(rule)
        inst = book.instruments.get(band.instrument) if band else None
        out.append({
            "rule": rule, "jurisdiction": band.jurisdiction if band else None,
            "tier": band.tier.code if band else None, "article": band.article if band else "",
            "instrument": inst.id if inst else None, "title": inst.title if inst else "",
            "doc_number": inst.doc_number if inst else "", "source": inst.source if inst else "",
            "confidence": band.confidence if band else None,
            "disputed": bool(inst and inst.disputed), "note": inst.note if inst else "",
        })
    return out


def _where(sessions: dict, p: PlayerFact) -> str:
    s = sessions.get((p.platform, p.session_id))
    return (s.jurisdiction if s else None) or "-"


def threshold_lines(source: ReportSource, query: ReportQuery) -> list[ThresholdLine]:
    """阈值线: each jurisdiction's lower bounds on the charted metrics, in force at the end."""
    if source.book is None or not source.sessions:
        return []
    day = query.until or max(s.day for s in source.sessions)
    codes = {s.jurisdiction for s in source.sessions if s.jurisdiction}
    codes |= {p.jurisdiction for p in source.players if p.jurisdiction}
    if query.jurisdictions:
        codes &= set(query.jurisdictions)
    resolver = Resolver(source.book)
    found: dict[tuple, ThresholdLine] = {}
    for code in sorted(codes):
        if code not in source.book.jurisdictions:
            continue
        for band in resolver.ruleset(code, day).bands_for("player"):
            for leaf in leaves(band.condition):
                bound = leaf.lower
                if leaf.metric not in LINE_METRICS or bound is None or bound <= 0:
                    continue
                line = ThresholdLine(leaf.metric, code, float(bound), band.tier.code, band.id,
                                     tuple(sorted(band.game_classes)))
                found.setdefault((line.metric, code, line.value, line.game_classes), line)
    return sorted(found.values(), key=lambda x: (x.metric, x.jurisdiction, x.value))


def near_misses(findings: list[dict[str, Any]], share: float = NEAR_MISS_SHARE) -> list[dict]:
    """差一点: threshold findings within `share` of the next tier's line, closest first."""
    out = []
    for f in findings:
        margin, boundary = f.get("margin_to_next"), f.get("next_boundary")
        if f["kind"] != "threshold" or margin is None or not boundary:
            continue
        ratio = float(margin) / float(boundary)
        if 0 <= ratio <= share:
            out.append(dict(f, margin_share=round(ratio, 4)))
    out.sort(key=lambda f: (f["margin_share"], f["session_id"] or "", f["subject"]))
    return out


def _top(source: ReportSource, findings: list[dict], what: str) -> list[Exposure]:
    capital: Counter = Counter()
    seen: dict[str, set] = defaultdict(set)
    labels: dict[str, str] = {}
    worst: dict[str, float] = {}
    if what == "player":
        for p in source.players:
            key = f"{p.platform}/{p.player_id}"
            capital[key] += p.capital or 0
            seen[key].add(p.session_id)
            labels[key] = f"{p.name} ({p.player_id})" if p.name else p.player_id
    else:
        for s in source.sessions:
            ident = s.room_id if what == "room" else s.owner_id
            if ident is None:
                continue
            key = f"{s.platform}/{ident}"
            capital[key] += s.scene_capital or 0
            seen[key].add(s.session_id)
            labels[key] = ident
    for f in findings:
        if f["kind"] != "threshold":
            continue
        if what == "player":
            key = f"{f['platform']}/{f.get('player')}"
        elif what == "owner" and f["subject"].startswith("owner:"):
            key = f"{f['platform']}/{f['subject'].split(':', 1)[1]}"
        else:
            key = f"{f['platform']}/{f.get('room_id' if what == 'room' else 'owner_id')}"
        if key in capital:
            worst[key] = max(worst.get(key, -1), severity(f))
    return [
        Exposure(key, labels[key], len(seen[key]), round(value, 2),
                 Tier(int(worst[key])).code if key in worst else None)
        for key, value in capital.most_common(TOP)
    ]


def _over_time(findings: list[dict]) -> dict[str, Counter]:
    months: dict[str, Counter] = defaultdict(Counter)
    for f in findings:
        months[f["day"][:7]][f.get("tier") or f["kind"]] += 1
    return dict(sorted(months.items()))


def _mismatches(findings: list[dict]) -> dict[str, Counter]:
    games: dict[str, Counter] = defaultdict(Counter)
    for f in findings:
        if f["kind"] == "integrity":
            games[f["game"]][f["check"]] += 1
    return dict(sorted(games.items()))
