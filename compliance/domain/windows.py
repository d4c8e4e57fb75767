"""累计: figures summed over a window of stored sessions, and the lines they cross.

Players, room owners and platforms are judged over a period (重庆: three or
more times in six months; the criminal lines for organisers count rake,
capital and participants cumulatively: 2005 interpretation art. 1, 2010
online opinion). The sums come from stored sessions, each counted once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from compliance.domain.classifier import Classifier, PlayerFacts, SessionFacts
from compliance.domain.findings import ThresholdFinding
from compliance.domain.ladder import ladder_of
from compliance.domain.metrics import WINDOW_METRICS
from compliance.domain.rules import leaves, matched_leaves
from compliance.domain.tiers import Tier
from compliance.errors import JurisdictionError

SESSION_IDS_SHOWN = 50
NATIONAL = "000000"  # organisers' criminal lines are national: where rooms name no place


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
    participants: int = 0
    minors: int = 0
    session_ids: list[str] = field(default_factory=list)

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


def uses_window(band) -> bool:
    return any(leaf.metric in WINDOW_METRICS for leaf in leaves(band.condition))


def judge_window(classifier: Classifier, w: WindowFigures) -> ThresholdFinding | None:
    """The tier a window's sums reach, or None for a player whom no window line concerns.

    Owners and platforms always get a finding (below the lines it says how far
    below); players only where a line of theirs counts over a window.
    """
    place = w.jurisdiction or (NATIONAL if w.kind != "player" else None)
    if not place:
        return None
    try:
        where = classifier.resolver.lookup(place)
    except JurisdictionError:
        return None
    rules = classifier.resolver.ruleset(where.code, w.end)
    bands = [
        b
        for b in rules.bands_for(w.kind)
        if b.admits(None, False) and (w.kind != "player" or uses_window(b))
    ]
    if not bands:
        return None
    values = w.values()
    best, hit = None, []
    for band in bands:
        found = [] if band.condition is None else matched_leaves(band.condition, values)
        if found is not None and (best is None or (band.tier, band.seq) >= (best.tier, best.seq)):
            best, hit = band, found
    if best is None and w.kind == "player":
        return None
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
    finding = classifier.judge_threshold(
        facts,
        subject,
        where=where,
        rules=rules,
        day=w.end,
        tier=tier,
        band=best,
        hit=hit,
        values=values,
        ladder=ladder_of(bands).ladder,
        exemptions=[],
        subject=w.subject,
    )
    if w.minors and tier >= Tier.ADMINISTRATIVE:
        finding.aggravations = [
            f"{ag.id}: {ag.text} ({w.minors} minor players in the window; {ag.article})"
            for ag in rules.aggravations
            if ag.kind == "minor"
        ]
    finding.window_start = w.start.isoformat()
    finding.window_end = w.end.isoformat()
    finding.session_count = w.sessions
    finding.sessions = w.session_ids[:SESSION_IDS_SHOWN]
    finding.figures = values
    return finding
