"""复核标记: each finding of a report with its fingerprint, review status and waiver.

A report counts and lists the findings no waiver covers; the waived ones are kept
apart (`Report.waived`), shown in a section of their own, never hidden. With a
status filter (`report --status open`) only findings of those statuses are read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from compliance.domain.findings import fingerprint
from compliance.domain.pseudonym import Pseudonyms
from compliance.domain.review import Review, Waiver, covering, status_of


class Marks:
    def __init__(
        self,
        waivers: Iterable[Waiver] = (),
        reviews: Mapping[str, Review] | None = None,
        statuses: tuple[str, ...] = (),
        pseudonyms: Pseudonyms | None = None,
    ):
        self.waivers = [w for w in waivers if not w.revoked]
        self.reviews = reviews or {}
        self.statuses = statuses
        self.pseudonyms = pseudonyms

    def mark(self, finding: dict[str, Any]) -> bool:
        """Add `fingerprint`, `review_status`, `reopened` and `waiver` to a finding (matched on its
        real ids, then pseudonymised if asked: its fingerprint is then that of the
        pseudonymised identity, as SARIF's); False when the status filter leaves it out."""
        fp = fingerprint(finding)
        status, reopened = status_of(self.reviews.get(fp), finding)
        waiver = covering(self.waivers, finding) if self.waivers else None
        finding["fingerprint"] = fp
        finding["review_status"] = status
        if reopened:
            finding["reopened"] = True
        finding["waiver"] = waiver.id if waiver else None
        if waiver:
            finding["waiver_reason"] = waiver.reason
            finding["waiver_until"] = waiver.until.isoformat()
        if self.pseudonyms is not None:
            masked = self.pseudonyms.finding(finding)
            masked["fingerprint"] = fingerprint(masked)
            finding.clear()
            finding.update(masked)
        return not self.statuses or status in self.statuses


MANIFEST_KEYS = (
    "tool",
    "rules_sha256",
    "session_findings_sha256",
    "window_findings_sha256",
    "window_sessions_sha256",
    "date_bound",
    "as_of",
)


def manifest_lines(manifest: Mapping[str, Any] | None) -> list[str]:
    """运行清单 as `key: value` lines, inputs first, options last."""
    if not manifest:
        return []
    lines = [
        f"input {i['file']}: sha256 {i.get('sha256') or '(not read to its end)'}"
        for i in manifest.get("inputs", [])
    ]
    lines += [f"{k}: {manifest[k]}" for k in MANIFEST_KEYS if manifest.get(k) is not None]
    options = manifest.get("options") or {}
    lines.append(
        "options: " + ", ".join(f"{k}={v}" for k, v in options.items() if v not in (None, {}))
    )
    return lines
