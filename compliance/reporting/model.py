"""报告模型: one report of stored audit results, built from plain rows, rendered many ways.

The database layer fills a `ReportSource` (`facts.py`) with what the filters
select; `build` turns it into a `Report` (a headline, counts, distributions,
threshold lines, top lists, the integrity and the most serious findings listed)
that the HTML, CSV, JSON and Markdown renderers share. No SQLAlchemy here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from compliance.domain.pseudonym import Pseudonyms
from compliance.reporting.accumulate import Exposure, Exposures, Kept, Sample
from compliance.reporting.facts import (
    KINDS,
    FindingFact,
    PlayerFact,
    ReportQuery,
    ReportSource,
    RunInfo,
    SessionFact,
    enrich,
    order_key,
    severity,
)
from compliance.reporting.lines import (
    NEAR_BINS,
    ThresholdLine,
    near_misses,
    near_share,
    rules_cited,
    threshold_lines,
)
from compliance.reporting.review_marks import Marks
from compliance.reporting.tally import FindingTally, Headline

__all__ = [
    "KINDS",
    "NEAR_BINS",
    "FindingFact",
    "Headline",
    "PlayerFact",
    "Report",
    "ReportQuery",
    "ReportSource",
    "RunInfo",
    "SessionFact",
    "ThresholdLine",
    "build",
    "enrich",
    "near_misses",
    "near_share",
    "order_key",
    "severity",
]

SHOWN = 500  # the most severe findings a report keeps to show; exports stream them all


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
    headline: Headline = field(default_factory=Headline)
    integrity: list[dict[str, Any]] = field(default_factory=list)
    serious: list[dict[str, Any]] = field(default_factory=list)
    reaudited: dict[int, int] = field(default_factory=dict)
    waived: list[dict[str, Any]] = field(default_factory=list)
    waived_count: int = 0
    statuses: Counter = field(default_factory=Counter)
    duties: list[dict[str, Any]] | None = None  # the platform-duties section (reporting/duties.py)

    @property
    def total(self) -> int:
        return sum(self.kinds.values())

    @property
    def reaudited_note(self) -> str:
        """The later runs that re-audited sessions of this report, as "#4 (12), #5 (3)"."""
        return ", ".join(f"#{run} ({n})" for run, n in self.reaudited.items())

    @property
    def unfinished(self) -> str:
        """The runs that stopped before their end, as "#3, #5", or ""."""
        return ", ".join(f"#{r.id}" for r in self.runs if not r.finished)


def build(
    source: ReportSource,
    query: ReportQuery,
    now: datetime,
    pseudonyms: Pseudonyms | None = None,
) -> Report:
    """汇总: counts, distributions, lines and top lists, in one pass over each kind of row."""
    rooms, owners, people = Exposures(), Exposures(), Exposures()
    per_capita, stakes = Sample(), Sample()
    session_codes: set[str] = set()
    player_codes: set[str] = set()
    sessions, last_day = 0, None
    reaudited: Counter[int] = Counter()
    for s in source.sessions:
        sessions += 1
        if s.replaced_by is not None:
            reaudited[s.replaced_by] += 1
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
        if pseudonyms is not None:
            p = replace(p, player_id=pseudonyms.id(p.player_id), name=pseudonyms.name(p.name))
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
    tally = FindingTally(rooms, owners, people)
    shown, waived = Kept(SHOWN, order_key), Kept(SHOWN, order_key)
    marks = Marks(source.waivers, source.reviews, query.statuses, pseudonyms)
    waived_count, statuses = 0, Counter[str]()
    for fact in source.findings:
        f = enrich(fact)
        if not marks.mark(f):
            continue
        if f["waiver"] is not None:
            waived_count += 1
            waived.add(f)
            continue
        statuses[f["review_status"]] += 1
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
        export=_exporter(source, marks),
        headline=tally.headline(source.rejects),
        reaudited=dict(sorted(reaudited.items())),
        integrity=tally.integrity.result(),
        serious=tally.serious.result(),
        notes=[f"pseudonymised: key {pseudonyms.key_fingerprint}"] if pseudonyms else [],
        waived=waived.result(),
        waived_count=waived_count,
        statuses=statuses,
    )


def _exporter(source: ReportSource, marks: Marks) -> Callable[[], Iterator[dict[str, Any]]]:
    """Every selected finding, waived ones too (marked), most severe first."""
    if source.ordered is not None:
        ordered = source.ordered
        return lambda: (f for f in map(enrich, ordered()) if marks.mark(f))
    everything = source.findings
    return lambda: iter(
        sorted((f for f in map(enrich, everything) if marks.mark(f)), key=order_key)
    )
