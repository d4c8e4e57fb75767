"""SARIF 2.1.0: the audit's findings for code-scanning dashboards, streamed.

One SARIF rule per band (or per kind and check where a finding has no band);
`level` by tier: criminal tiers `error`, administrative tiers `warning`, below the
line and exempt `note`, integrity `error`, indeterminate `warning`. A session's
finding is located at the log file and line the session was read from; a window's
names its subject as a logical location. `partialFingerprints` carry the finding's
identity (`domain.findings.fingerprint`), so a dashboard sees one finding across runs.
The results are written as they come and the rules after them, so memory holds only
the bands seen.
"""

from __future__ import annotations

import json
import os
from pathlib import PurePath
from typing import IO, Any
from urllib.parse import quote

from compliance import __version__
from compliance.domain.findings import (
    DUTY,
    FORMAT,
    INDETERMINATE,
    INTEGRITY,
    band_of,
    fingerprint,
)
from compliance.domain.tiers import Tier

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
FINGERPRINT = "findingIdentity/v1"
_LEVEL_OF_KIND = {INTEGRITY: "error", INDETERMINATE: "warning"}
_LEVEL_OF_SEVERITY = {"violation": "error", "signal": "warning", "advisory": "note"}


def level(row: dict[str, Any]) -> str:
    """The SARIF level of a finding, by its kind and tier."""
    if row["kind"] in _LEVEL_OF_KIND:
        return _LEVEL_OF_KIND[row["kind"]]
    if row["kind"] == DUTY:
        return _LEVEL_OF_SEVERITY[row["severity"]] if row["status"] == "breached" else "warning"
    tier = Tier.parse(row["tier"])
    if tier >= Tier.CRIMINAL:
        return "error"
    if tier >= Tier.ADMINISTRATIVE:
        return "warning"
    return "note"


def artifact_uri(path: str) -> str:
    """A file path as SARIF's `uri`: relative paths stay relative, with `/`."""
    if os.path.isabs(path):
        return PurePath(path).as_uri()
    return quote(path.replace(os.sep, "/"))


class SarifWriter:
    def __init__(self, out: IO[str], version: str = FORMAT):
        self.out = out
        self.version = version
        self.rules: dict[str, dict[str, Any]] = {}
        self.session: tuple[str, str] | None = None
        self.source: tuple[str, int] | None = None
        self.count = 0
        head = {"$schema": SCHEMA, "version": "2.1.0"}
        self.out.write(_dump(head)[:-1] + ',"runs":[{"results":[')

    def see_session(self, item: Any) -> None:
        """The session whose findings come next, and where it was read."""
        source = getattr(item, "source", None)
        if source is None and hasattr(item, "source_file"):
            source = (item.source_file, item.source_line)
        if hasattr(item, "session_id") and hasattr(item, "platform"):
            self.session, self.source = (item.platform, item.session_id), source

    def write(self, finding) -> None:
        row = finding.to_dict()
        rule = band_of(row)
        if rule not in self.rules:
            self.rules[rule] = _rule(rule, row)
        result = {
            "ruleId": rule,
            "level": level(row),
            "message": {"text": _message(row)},
            "locations": [self._location(row)],
            "partialFingerprints": {FINGERPRINT: fingerprint(row)},
            "properties": {"format": self.version, **row},
        }
        self.out.write(("," if self.count else "") + "\n" + _dump(result))
        self.count += 1

    def close(self) -> None:
        driver = {
            "name": "compliance",
            "version": __version__,
            "rules": list(self.rules.values()),
        }
        self.out.write(("\n" if self.count else "") + '],"tool":' + _dump({"driver": driver}))
        self.out.write("}]}\n")

    def _location(self, row: dict[str, Any]) -> dict[str, Any]:
        here = (row["platform"], row["session_id"])
        if row["session_id"] is not None and self.source is not None and here == self.session:
            file, line = self.source
            return {
                "physicalLocation": {
                    "artifactLocation": {"uri": artifact_uri(file)},
                    "region": {"startLine": max(line, 1)},
                }
            }
        return {
            "logicalLocations": [
                {"fullyQualifiedName": f"{row['platform']}/{row['subject']}", "kind": "subject"}
            ]
        }


def _rule(rule: str, row: dict[str, Any]) -> dict[str, Any]:
    text = row.get("citation") or rule
    out: dict[str, Any] = {"id": rule, "shortDescription": {"text": text}}
    if row.get("jurisdiction") or row.get("tier"):
        out["properties"] = {
            k: row[k] for k in ("jurisdiction", "tier", "confidence") if row.get(k) is not None
        }
    return out


def _message(row: dict[str, Any]) -> str:
    who = f"{row['subject']} ({row['platform']}"
    who += f", session {row['session_id']})" if row["session_id"] else ", window)"
    if row["kind"] == INTEGRITY:
        return f"{who}: {row['check']} in round {row['round']}: {row['detail']}"
    if row["kind"] == INDETERMINATE:
        return f"{who}: missing {row['missing']}: {row['reason']}"
    if row["kind"] == DUTY:
        return _duty_message(row)
    said = f"{who}: {row['tier']} {row.get('tier_label') or ''}".rstrip()
    if row.get("value") is not None:
        said += f"; {row['metric']} {row['value']} ({row['boundary']})"
    if row.get("next_tier"):
        said += f"; {row['margin_to_next']} to {row['next_tier']}"
    return said


def _duty_message(row: dict[str, Any]) -> str:
    who = f"{row['subject']} ({row['platform']}, duty {row['duty']})"
    if row["status"] != "breached":
        return f"{who}: missing {row['missing']}: {row['reason']}"
    said = f"{who}: {row['severity']}: {row.get('detail') or row['check']}"
    if row.get("value") is not None:
        said += f"; {row['metric']} {row['value']} ({row['boundary']})"
    return said


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
