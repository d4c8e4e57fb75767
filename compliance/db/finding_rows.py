"""结论存储: a threshold finding stored as its own part and its line's texts, kept once.

What a threshold finding says of its line rather than of its player is the
same long texts for every player the line fits, so `finding_lines` holds them
once, named by a hash of their JSON; `rejoined` makes a stored finding whole.
"""

from __future__ import annotations

import hashlib
from typing import Any

from compliance.domain.encoded import (
    FIELD_ORDER,
    LINE_FIELDS,
    TemplatedFinding,
    json_text,
    line_part,
    own_part,
)
from compliance.domain.findings import Finding, ThresholdFinding

__all__ = ["LINE_FIELDS", "LineIds", "json_text", "line_part", "own_part", "rejoined", "stored"]


def rejoined(own: dict[str, Any], line: dict[str, Any] | None) -> dict[str, Any]:
    """A stored finding whole again: its own part and its line's, in the fields' order."""
    if not line:
        return own
    whole = {**own, **line}
    return dict(sorted(whole.items(), key=lambda kv: FIELD_ORDER.get(kv[0], len(FIELD_ORDER))))


def stored(finding: Finding | TemplatedFinding, lines: LineIds) -> tuple[str | None, str]:
    """A finding as its row holds it: its line's id (threshold findings only) and its text."""
    if isinstance(finding, TemplatedFinding):
        return (lines.id_for(finding.line) if finding.line else None), finding.own
    if isinstance(finding, ThresholdFinding):
        return lines.id_for(line_part(finding)), json_text(own_part(finding))
    return None, json_text(finding)


class LineIds:
    """线的编号: a line's texts named by a hash of their JSON, and those a batch used."""

    def __init__(self):
        self._ids: dict[tuple, str] = {}
        self._payloads: dict[str, dict[str, Any]] = {}
        self._used: set[str] = set()

    def id_for(self, values: tuple) -> str:
        found = self._ids.get(values)
        if found is None:
            payload = dict(zip(LINE_FIELDS, values, strict=True))
            found = hashlib.blake2b(json_text(payload).encode(), digest_size=8).hexdigest()
            self._ids[values] = found
            self._payloads[found] = payload
        self._used.add(found)
        return found

    def take_used(self) -> dict[str, dict[str, Any]]:
        used = {key: self._payloads[key] for key in self._used}
        self._used.clear()
        return used
