"""分类: map each player of a session to a penalty tier, with the line behind it.

The classifier holds one `Resolver` for the run, so the rules are loaded
once; each session is judged under the rules in force in each player's
jurisdiction on the session's date (or the run's `as_of` date).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from compliance.domain.findings import (
    Finding,
    IndeterminateFinding,
    IntegrityFinding,
    ThresholdFinding,
)
from compliance.domain.ladder import WAGE_METRIC, Plan, ladder_of
from compliance.domain.metrics import AMOUNT_METRICS, PlayerMetrics, SessionMetrics
from compliance.domain.national import (
    kin_grounds,
    no_provincial_standard,
    outside_mainland,
    placed,
    small_play,
    written_note,
)
from compliance.domain.periods import with_priors
from compliance.domain.rounds import Integrity
from compliance.domain.rules import Band, Jurisdiction, matched_leaves
from compliance.domain.ruleset import Resolver, Ruleset, unknown_place
from compliance.domain.scene import scene_figure, with_scene_cash
from compliance.domain.tiers import Tier
from compliance.domain.verdict import Lines, Verdict, threshold_finding
from compliance.errors import JurisdictionError

UNNAMED = "the log names no jurisdiction and --jurisdiction was not given"


@dataclass(frozen=True, slots=True)
class ClassifierOptions:
    """Readings where the law is ambiguous (docs/metrics.md).

    `win_loss_scope`: 全场输赢 per player (default) or for the whole table.
    `versions`: which instrument of a disputed version group to apply.
    `venue`: where a session that names no venue was played (these are online
    platforms' logs: `online`; docs/log-format.md).
    """

    win_loss_scope: str = "player"
    versions: dict[str, str] = field(default_factory=dict)
    venue: str = "online"


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    id: str
    jurisdiction: str | None
    kin_group: str | None
    metrics: PlayerMetrics | None
    public_servant: bool = False
    minor: bool = False
    priors: tuple[date, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionFacts:
    """What the classifier needs of a replayed session."""

    platform: str
    session_id: str | None
    game: str
    game_class: str | None
    day: date
    jurisdiction: str | None
    players: tuple[PlayerFacts, ...]
    metrics: SessionMetrics | None
    rake: int = 0
    organiser_prize: bool = False
    venue: str = "online"
    issues: tuple[Integrity, ...] = ()
    scene_cash: Decimal | None = None


class Classifier:
    def __init__(self, resolver: Resolver, options: ClassifierOptions | None = None):
        self.resolver = resolver
        self.options = options or ClassifierOptions()
        self._lines = Lines()
        self._plans: dict[tuple, Plan] = {}
        self._wages: dict[tuple, Decimal | None] = {}
        self._small: dict[tuple, str | None] = {}

    def classify(self, facts: SessionFacts, as_of: date | None = None) -> list[Finding]:
        """Every finding for one session: integrity first, then one per player."""
        out: list[Finding] = [self.integrity(facts, facts.jurisdiction, i) for i in facts.issues]
        day = as_of or facts.day
        shared: dict[int, dict[str, Decimal]] = {}
        for player in facts.players:
            out.append(self._judge(facts, player, day, shared))
        return out

    def integrity(self, of: Any, jurisdiction: str | None, issue: Integrity) -> IntegrityFinding:
        """完整性结论: what the log claims of a round of session `of` (its platform, id and
        game) against what the rules give."""
        return IntegrityFinding(
            session_id=of.session_id,
            platform=of.platform,
            subject="session",
            jurisdiction=self._code_or_none(jurisdiction),
            game=of.game,
            round=issue.round,
            check=issue.check,
            detail=issue.detail,
            players=list(issue.players),
            claimed=issue.claimed,
            expected=issue.expected,
        )

    def _code_or_none(self, name: str | None) -> str | None:
        if not name:
            return None
        try:
            return self.resolver.lookup(name).code
        except JurisdictionError:
            return name

    def _missing(self, facts, player, code, missing, reason) -> IndeterminateFinding:
        return IndeterminateFinding(
            session_id=facts.session_id,
            platform=facts.platform,
            subject=f"player:{player.id}",
            player=player.id,
            jurisdiction=code,
            game=facts.game,
            missing=missing,
            reason=reason,
        )

    def _judge(
        self, facts: SessionFacts, player: PlayerFacts, day: date, shared: dict[int, dict]
    ) -> Finding:
        name = player.jurisdiction or facts.jurisdiction
        try:
            where = self.resolver.lookup(name or None)
        except JurisdictionError as exc:
            reason = unknown_place(exc) if name else UNNAMED
            return self._missing(facts, player, name or None, "jurisdiction", reason)
        code = where.code if name else None
        up = written_note(name, where) if name and self.resolver.resolved_up(name) else None
        if not self.resolver.within_mainland(where):
            reason = outside_mainland(where) + (f" ({up})" if up else "")
            return self._missing(facts, player, code, "mainland_law", reason)
        if facts.organiser_prize:
            prize = self._organiser_prize(facts, player, where, day)
            if prize is not None:
                return placed(prize, up)
        if player.metrics is None or facts.metrics is None:
            if not name:
                return self._missing(facts, player, None, "jurisdiction", UNNAMED)
            return self._missing(
                facts,
                player,
                code,
                "point_value",
                "no point_value: points cannot be turned into yuan "
                "(赌资 = points × value of a point, 2005 interpretation art. 8)",
            )
        rules = self.resolver.ruleset(where.code, day)
        bands = rules.bands_for("player")
        if not bands:
            kin = kin_grounds(facts, player, rules)
            if kin:
                return placed(self._exempt(facts, player, where, rules, day, kin), up)
            reason = no_provincial_standard(where, day, bool(name))
            return self._missing(
                facts,
                player,
                code,
                "threshold" if name else "jurisdiction",
                reason + (f" ({up})" if up else ""),
            )
        values = self._values(facts, player.metrics, rules, shared)
        plan = self.plan(
            rules, bands, facts.game_class, player.metrics.banker_rounds > 0, facts.venue
        )
        best, best_leaves = None, []
        for band in plan.descending:
            seen = with_scene_cash(
                with_priors(values, band, player.priors, day), band, facts.scene_cash
            )
            hit = [] if band.condition is None else matched_leaves(band.condition, seen)
            if hit is not None:
                best, best_leaves, values = band, hit, seen
                break
        if best is None:
            if plan.needs_wage and WAGE_METRIC not in values:
                return self._missing(
                    facts,
                    player,
                    where.code,
                    "wage_indicator",
                    f"no monthly average wage for {where.name_zh} in {day.year} or before: "
                    "the reasonableness test compares per-capita capital with it",
                )
            if not rules.defines("player", Tier.ADMINISTRATIVE):
                return self.no_admin_line(facts, player, where, day)
        tier = best.tier if best else Tier.BELOW_THRESHOLD
        exemptions, would_be = self._exemptions(facts, player, rules, tier)
        shown = Tier.EXEMPT if exemptions else tier
        verdict = Verdict(
            where,
            day.isoformat(),
            shown,
            best,
            best_leaves,
            values,
            plan.ladder,
            exemptions,
            would_be,
        )
        finding = self.judge_threshold(facts, player, rules, verdict)
        self.finish(finding, facts, player, rules, (best, shown), day)
        return placed(finding, up)

    def no_admin_line(self, facts, player, where: Jurisdiction, day) -> IndeterminateFinding:
        """No 赌资较大 line in force, and the figures below the lines there are."""
        return self._missing(
            facts,
            player,
            where.code,
            "threshold",
            f"{where.name_zh} defines no 赌资较大 line in force on {day.isoformat()}; "
            "the figures are below its other lines",
        )

    def finish(self, finding: ThresholdFinding, facts, player, rules: Ruleset, at, day) -> None:
        """What a player's finding adds once made: which scene figure its band used, and the
        aggravations (a tier from 赌资较大 up) or why play below the lines is not punished;
        `at` is (the band, the tier shown)."""
        band, shown = at
        finding.scene_figure = scene_figure(band, facts.scene_cash)
        if shown >= Tier.ADMINISTRATIVE:
            finding.aggravations = self.aggravations(facts, player, rules, day)
        elif shown == Tier.BELOW_THRESHOLD:
            finding.citation = self._small_play(rules, finding.citation)

    def line_of(self, rules: Ruleset, band: Band | None, tier: Tier, would_be: Tier | None):
        """What a finding says of its line (verdict.Lines), kept for the run."""
        return self._lines.of(rules, band, tier, would_be)

    def _small_play(self, rules: Ruleset, citation: str | None) -> str | None:
        key = (id(rules), citation)
        if key not in self._small:
            why = small_play(rules)
            self._small[key] = "; ".join(c for c in (citation, why) if c) or None
        return self._small[key]

    @staticmethod
    def aggravations(facts: SessionFacts, player: PlayerFacts, rules: Ruleset, day: date):
        """从重: the circumstances of this player and session that the rules name.

        A minor's own play is not aggravated (the notice's art. 四 mitigates it);
        organising minors is, on the organiser's window finding.
        """
        present = {facts.venue}
        if player.public_servant:
            present.add("public_servant")
        out = []
        for ag in rules.aggravations:
            if ag.kind == "repeat":
                recent = [
                    d for d in player.priors if d < day and (day - d).days <= (ag.within_days or 0)
                ]
                if recent:
                    out.append(
                        f"{ag.id}: {ag.text} (prior {max(recent).isoformat()}; {ag.article})"
                    )
            elif ag.kind in present:
                out.append(f"{ag.id}: {ag.text} ({ag.article})")
        return out

    def _organiser_prize(self, facts, player, where, day) -> ThresholdFinding | None:
        """奖金: a tournament whose prize the organiser funds has no 赌资 (2005 interpretation art. 8)."""
        rules = self.resolver.ruleset(where.code, day)
        grounds = [e for e in rules.exemptions if e.kind == "organiser_prize"]
        if not grounds:
            return None
        return self._exempt(
            facts, player, where, rules, day, [f"{e.id}: {e.text} ({e.article})" for e in grounds]
        )

    def _exempt(self, facts, player, where, rules, day, grounds: list[str]) -> ThresholdFinding:
        verdict = Verdict(where, day.isoformat(), Tier.EXEMPT, None, [], {}, [], grounds)
        return self.judge_threshold(facts, player, rules, verdict)

    def plan(
        self, rules: Ruleset, bands, game_class: str | None, is_banker: bool, venue: str
    ) -> Plan:
        key = (id(rules), game_class, is_banker, venue)
        plan = self._plans.get(key)
        if plan is None:
            admitted = [b for b in bands if b.admits(game_class, is_banker, venue)]
            plan = self._plans[key] = ladder_of(admitted)
        return plan

    def _values(
        self, facts, metrics: PlayerMetrics, rules: Ruleset, shared: dict[int, dict]
    ) -> dict[str, Decimal]:
        """The figures the bands compare, in yuan; the session's part is made once per ruleset."""
        factor = rules.multiplier(facts.game_class)
        session_part = shared.get(id(rules))
        if session_part is None:
            session_part = shared[id(rules)] = self._session_values(facts, rules, factor)
        values = metrics.as_dict()
        if factor != 1:
            values = {k: v * factor for k, v in values.items()}
        values.update(session_part)
        if self.options.win_loss_scope == "table":
            values["session_win_loss"] = values["table_win_loss"]
        return values

    def _session_values(self, facts, rules: Ruleset, factor: Decimal) -> dict[str, Decimal]:
        values = facts.metrics.as_dict()
        if factor != 1:
            values = {k: (v * factor if k in AMOUNT_METRICS else v) for k, v in values.items()}
        key = (id(rules), facts.day.year)
        if key not in self._wages:
            wage = self.resolver.wage(rules, facts.day.year)
            self._wages[key] = wage.monthly if wage is not None and wage.monthly > 0 else None
        monthly = self._wages[key]
        if monthly is not None:
            values[WAGE_METRIC] = (values["per_capita_capital"] / monthly).quantize(
                Decimal("0.0001")
            )
        return values

    def _exemptions(self, facts, player, rules: Ruleset, tier: Tier):
        applied = kin_grounds(facts, player, rules)
        for ex in rules.exemptions:
            if ex.kind == "organiser_prize" and facts.organiser_prize:
                applied.append(f"{ex.id}: {ex.text} ({ex.article})")
        if applied and tier > Tier.EXEMPT:
            return applied, tier
        return [], None

    def judge_threshold(
        self, facts: SessionFacts, player: PlayerFacts, rules: Ruleset, verdict: Verdict
    ) -> ThresholdFinding:
        """门槛结论: the finding for `player` (or the verdict's subject) under `rules`, with
        the line behind it, the margin, and the next line not reached."""
        line = self._lines.of(rules, verdict.band, verdict.tier, verdict.would_be)
        return threshold_finding(line, facts, player.id, verdict)
