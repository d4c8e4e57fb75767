"""`--fail-on`: which findings, and how many rejects, make a run exit 3."""

from __future__ import annotations

from compliance.domain.duties.rows import ADVISORY, SEVERITIES, SIGNAL, VIOLATION
from compliance.domain.findings import DUTY
from compliance.domain.tiers import TIER_CODES, Tier
from compliance.reporting.labels import counted

FAIL_ON = (*TIER_CODES, "integrity", "indeterminate")
REJECT = "reject"
DUTY_GATES = {"duty": VIOLATION, "duty-signal": SIGNAL, "duty-advisory": ADVISORY}
"""`--fail-on duty` trips on a duty breached as a violation; `duty-signal` on a signal or
worse; `duty-advisory` on any breach (an advisory is never a violation)."""


class FailOn:
    """Which findings, and how many rejects, make the run exit 3."""

    def __init__(self, tokens: tuple[str, ...], max_reject_rate: float | None = None):
        tiers = [Tier.parse(t) for t in tokens if t in TIER_CODES]
        self.tier = min(tiers) if tiers else None
        self.kinds = {t for t in tokens if t in ("integrity", "indeterminate")}
        self.max_reject_rate = 0.0 if REJECT in tokens else max_reject_rate
        gates = [SEVERITIES.index(DUTY_GATES[t]) for t in tokens if t in DUTY_GATES]
        self.duty = min(gates) if gates else None
        self.tripped = False
        self.duty_tripped = False

    def see_rejects(self, rejects: int, sessions: int) -> str | None:
        """Why the rejects trip the gate, or None: any with `--fail-on reject`, else a
        share of the lines above `--max-reject-rate`."""
        lines = rejects + sessions
        if self.max_reject_rate is None or not lines or rejects / lines <= self.max_reject_rate:
            return None
        self.tripped = True
        if not self.max_reject_rate:
            return None
        return (
            f"{rejects} of {lines} lines rejected ({rejects / lines:.1%}), "
            f"more than --max-reject-rate {self.max_reject_rate:g}"
        )

    def see(self, finding) -> None:
        if finding.kind == DUTY:
            self._see_duty(finding)
            return
        self.see_kind(finding.kind, getattr(finding, "tier", None))

    def see_kind(self, kind: str, tier: str | None) -> None:
        if kind in self.kinds or (
            self.tier is not None
            and kind == "threshold"
            and tier is not None
            and Tier.parse(tier) >= self.tier
        ):
            self.tripped = True

    def without_waived(self, store, run_id: int, include_waived: bool) -> str | None:
        """Match the run's stored findings with the waivers; unless `include_waived`, trip
        only on the findings none covers. What was waived, as a clause of the summary."""
        again = FailOn(())
        again.tier, again.kinds = self.tier, self.kinds
        again.tripped = self.duty_tripped  # duty findings are not waived (yet)
        from compliance.service_layer import review as review_cases  # the store's, when asked

        waived = review_cases.apply_waivers(
            store(), run_id, lambda row: again.see_kind(row["kind"], row.get("tier"))
        )
        if waived is None or not waived.count:
            return None
        if not include_waived:
            self.tripped = again.tripped
        by = ", ".join(f"#{w} ({n})" for w, n in sorted(waived.by_waiver.items()))
        return counted(f"; {waived.count} finding[s] waived (still stored), by waiver {by}")

    def _see_duty(self, finding) -> None:
        if finding.status != "breached":
            self.duty_tripped |= "indeterminate" in self.kinds
        elif self.duty is not None and SEVERITIES.index(finding.severity) >= self.duty:
            self.duty_tripped = True
        self.tripped |= self.duty_tripped
