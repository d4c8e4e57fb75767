"""累计: figures summed over a window of stored sessions, and the lines they cross.

Players, room owners and platforms are judged over a period (重庆: three or
more times in six months; the criminal lines for organisers count rake,
capital and participants cumulatively: 2005 interpretation art. 1, 2010
online opinion). The sums come from stored sessions, each counted once.
Each band counts over its own window (its `window`, domain/periods.py), back
from the subject's own latest session; `over(start)` gives the sums from a day.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from compliance.domain.classifier import Classifier, PlayerFacts, SessionFacts
from compliance.domain.elements import Purpose, elements_of, needs_profit, profit_purpose, venue_of
from compliance.domain.findings import IndeterminateFinding, ThresholdFinding
from compliance.domain.ladder import ladder_of
from compliance.domain.metrics import WINDOW_METRICS
from compliance.domain.national import outside_mainland
from compliance.domain.periods import (
    ADMINISTRATIVE_MONTHS,
    CUMULATIVE,
    cumulative_start,
    months_back,
    span_start,
    with_priors,
)
from compliance.domain.rules import leaves, matched_leaves
from compliance.domain.ruleset import NATIONAL, unknown_place
from compliance.domain.tiers import Tier
from compliance.domain.verdict import Verdict
from compliance.errors import JurisdictionError

SESSION_IDS_SHOWN = 50
LIMITATION_YEARS = (5, 10, 15)  # every period periods.limitation_years gives
WindowFinding = ThresholdFinding | IndeterminateFinding


@dataclass(slots=True)
class WindowFigures:
    """One subject's sums over a window: `kind` is player, owner or platform."""

    kind: str
    id: str
    platform: str
    jurisdiction: str | None
    start: date
    end: date
    sessions: int
    capital: Decimal = Decimal(0)
    net: Decimal = Decimal(0)
    rake: Decimal = Decimal(0)
    fixed_fee: Decimal = Decimal(0)  # 房费: fixed room fees, not rake (2005 interpretation art. 9)
    participants: int = 0
    minors: int = 0
    session_ids: list[str] = field(default_factory=list)
    places: dict[str, int] = field(default_factory=dict)
    venues: dict[str, int] = field(default_factory=dict)
    cut: date | None = None  # the rule's own first day, where the read limit began later
    priors: tuple[date, ...] = ()  # the subject's earlier penalties (--priors)

    @property
    def subject(self) -> str:
        return f"{self.kind}:{self.id}"

    def values(self) -> dict[str, Decimal]:
        out = {
            "window_sessions": Decimal(self.sessions),
            "window_capital": self.capital,
            "window_win_loss": abs(self.net),
        }
        if self.kind != "player":
            out["window_rake"] = self.rake
            out["window_participants"] = Decimal(self.participants)
        return out


def place_of(places: Mapping[str, int]) -> str | None:
    """窗口法域: the jurisdiction of most of a window's sessions; a tie goes to the lowest code."""
    if not places:
        return None
    return min(places, key=lambda code: (-places[code], code))


def tied_places(w: WindowFigures) -> list[str]:
    """The places sharing the most of a window's sessions, when more than one does."""
    if not w.places:
        return []
    most = max(w.places.values())
    tied = sorted(code for code, n in w.places.items() if n == most)
    return tied if len(tied) > 1 else []


VERDICT = ("tier", "rule", "metric", "value", "next_tier", "next_rule", "statutory_penalty")


Over = Callable[[date | None], WindowFigures]


def band_start(band, rules, end: date, years: int | None = None) -> tuple[date | None, str]:
    """窗口起点: the first day a band's window counts, and what that period rests on."""
    if band.window is None:
        return None, "every session read"
    if band.window == CUMULATIVE:
        penalty = rules.penalty_for(band.tier, band.offence)
        return cumulative_start(end, band.tier, penalty.text if penalty else None, years)
    return span_start(band.window, end), f"{band.window} (calendar)"


def window_starts(windows: Iterable[str | None], end: date, years: int | None = None) -> set[date]:
    """窗口起点: every first day `band_start` can give a band of these windows ending on
    `end`, under any place's rules: a calendar span's, and each period 累计 can rest on."""
    kinds = set(windows)
    starts = {span_start(w, end) for w in kinds if w is not None and w != CUMULATIVE}
    if CUMULATIVE in kinds:
        if years is not None:
            starts.add(months_back(end, 12 * years))
        else:
            starts.add(months_back(end, ADMINISTRATIVE_MONTHS))
            starts.update(months_back(end, 12 * n) for n in LIMITATION_YEARS)
    return starts


def _tie_note(
    classifier: Classifier, w: WindowFigures, finding: ThresholdFinding, over, years
) -> str | None:
    """When the places tied would judge the window otherwise, which place was taken and why."""
    tied = tied_places(w)
    if not tied or w.jurisdiction != tied[0]:
        return None
    verdict = tuple(getattr(finding, key) for key in VERDICT)
    others = []
    for code in tied[1:]:
        other = _judged(
            classifier, dataclasses.replace(w, jurisdiction=code, places={}), over, years
        )
        if other is None:
            others.append(f"under {code} no finding")
        elif isinstance(other, IndeterminateFinding):
            why = "outside mainland law" if other.missing == "mainland_law" else "unknown place"
            others.append(f"under {code} it would be indeterminate ({why})")
        elif tuple(getattr(other, key) for key in VERDICT) != verdict:
            rule = f" ({other.rule})" if other.rule else ""
            others.append(f"under {code} it would be {other.tier}{rule}")
    if not others:
        return None
    return (
        f"judged under {tied[0]}: the window's sessions are tied between "
        f"{' and '.join(tied)} ({w.places[tied[0]]} each), and a tie goes to the lowest code; "
        + "; ".join(others)
    )


def uses_window(band) -> bool:
    return any(leaf.metric in WINDOW_METRICS for leaf in leaves(band.condition))


def judge_window(
    classifier: Classifier, w: WindowFigures, over: Over | None = None, years: int | None = None
) -> WindowFinding | None:
    """The tier a window's sums reach, or None for a player whom no window line concerns.

    Owners and platforms always get a finding (below the lines it says how far
    below); where their window's place is outside mainland law (台湾, 香港, 澳门)
    or unknown to the rule book, it is indeterminate and says why. Players get
    one only where a line of theirs counts over a window. Where
    the window's places tie and another would judge it otherwise, the
    finding's `dispute_note` says so. `w` holds every session read (its place
    decides the rules); `over(start)` the sums from a band's first day, and
    `years` overrides the period of 累计 (`--cumulative-years`).
    """
    finding = _judged(classifier, w, over, years)
    if not isinstance(finding, ThresholdFinding):
        return finding
    note = _tie_note(classifier, w, finding, over, years)
    if note:
        finding.dispute_note = f"{finding.dispute_note}; {note}" if finding.dispute_note else note
    return finding


def unjudged(w: WindowFigures, code: str, missing: str, reason: str) -> IndeterminateFinding:
    """未能判定: an owner's or platform's window that no mainland line can judge, and why."""
    return IndeterminateFinding(
        session_id=None,
        platform=w.platform,
        subject=w.subject,
        jurisdiction=code,
        player=None,
        game="*",
        missing=missing,
        reason=reason,
        window_start=w.start.isoformat(),
        window_end=w.end.isoformat(),
        session_count=w.sessions,
        sessions=w.session_ids[:SESSION_IDS_SHOWN],
    )


def _judged(
    classifier: Classifier, w: WindowFigures, over: Over | None, years: int | None
) -> WindowFinding | None:
    place = w.jurisdiction or (NATIONAL if w.kind != "player" else None)
    if not place:
        return None
    try:
        where = classifier.resolver.lookup(place)
    except JurisdictionError as exc:
        if w.kind == "player":
            return None  # each of the player's sessions already says the place is unknown
        reason = f"{unknown_place(exc)}: the rule book has no place of that code, so no line judges the window"
        return unjudged(w, place, "jurisdiction", reason)
    if not classifier.resolver.within_mainland(where):
        if w.kind == "player":
            return None
        return unjudged(w, where.code, "mainland_law", outside_mainland(where))
    rules = classifier.resolver.ruleset(where.code, w.end)
    venue = venue_of(w.venues)
    bands = [
        b
        for b in rules.bands_for(w.kind)
        if b.admits(None, False, venue) and (w.kind != "player" or uses_window(b))
    ]
    if not bands:
        return None
    spans: dict[date | None, WindowFigures] = {}
    best, hit, used = None, [], w
    shown_values: dict[str, Decimal] = {}
    cuts: dict[str, str] = {}
    purpose: Purpose | None = None
    not_applied: dict[str, str] = {}
    for band in bands:
        start, rests_on = band_start(band, rules, w.end, years)
        if start not in spans:
            spans[start] = w if over is None or start is None else over(start)
        if (cut := spans[start].cut) is not None:
            cuts[band.id] = f"{band.id} counts from {cut.isoformat()} ({rests_on})"
        seen = with_priors(spans[start].values(), band, w.priors, w.end)
        found = [] if band.condition is None else matched_leaves(band.condition, seen)
        shows = None
        if found is not None and needs_profit(band):
            shows = profit_purpose(spans[start].rake, spans[start].fixed_fee, rules)
            if not shows.shown:
                not_applied[band.id] = f"{band.id} ({band.tier.code}) not applied: {shows.text}"
                continue
        if found is not None and (best is None or (band.tier, band.seq) >= (best.tier, best.seq)):
            best, hit, used, shown_values, purpose = band, found, spans[start], seen, shows
    if best is None and w.kind == "player":
        return None
    values = shown_values if best is not None else used.values()
    facts = SessionFacts(
        platform=w.platform,
        session_id=None,
        game="*",
        game_class=None,
        day=w.end,
        jurisdiction=where.code,
        players=(),
        metrics=None,
    )
    subject = PlayerFacts(w.id, where.code, None, None)
    tier = best.tier if best else Tier.BELOW_THRESHOLD
    verdict = Verdict(
        where,
        w.end.isoformat(),
        tier,
        best,
        hit,
        values,
        ladder_of(bands).ladder,
        [],
        subject=w.subject,
    )
    finding = classifier.judge_threshold(facts, subject, rules, verdict)
    if used.minors and tier >= Tier.ADMINISTRATIVE:
        finding.aggravations = [
            f"{ag.id}: {ag.text} ({used.minors} minor players in the window; {ag.article})"
            for ag in rules.aggravations
            if ag.kind == "minor"
        ]
    finding.window_start = used.start.isoformat()
    finding.window_end = used.end.isoformat()
    finding.session_count = used.sessions
    finding.sessions = used.session_ids[:SESSION_IDS_SHOWN]
    finding.figures = values
    if best is not None and best.tier >= Tier.CRIMINAL:
        elements = elements_of(best, hit, values, purpose, venue, w.venues)
        finding.elements, finding.elements_missing = elements.rests_on, elements.unread
    else:
        finding.elements_missing = list(not_applied.values())
    shown = [cuts[best.id]] if best is not None and best.id in cuts else list(cuts.values())
    if shown and (best is None or best.id in cuts):
        read = min(f.start for f in spans.values() if f.cut is not None)
        note = (
            f"window cut short: {'; '.join(shown)}, but --window-days read sessions only from "
            f"{read.isoformat()}"
        )
        finding.dispute_note = f"{finding.dispute_note}; {note}" if finding.dispute_note else note
    return finding
