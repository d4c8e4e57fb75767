"""结论存储: a threshold finding stored as its own part and its line's texts, kept once.

What a threshold finding says of its line rather than of its player is the
same long texts for every player the line fits, so `finding_lines` holds them
once, named by a hash of their JSON; `rejoined` makes a stored finding whole.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from compliance.domain.findings import THRESHOLD, ThresholdFinding

_encoder = msgspec.json.Encoder(decimal_format="number")

LINE_FIELDS = (
    "tier_label",
    "instrument",
    "citation",
    "article",
    "penalty",
    "statutory_penalty",
    "statutory_citation",
    "escaped_penalty",
    "escaped_statutory_penalty",
    "dispute_note",
)
FIELD_ORDER = {name: i for i, name in enumerate(("kind", *ThresholdFinding.__struct_fields__))}


def json_text(value) -> str:
    """JSON text of a finding or any plain value; decimals as numbers."""
    return _encoder.encode(value).decode()


def own_part(finding: ThresholdFinding) -> dict[str, Any]:
    """A threshold finding without its line's texts (`LINE_FIELDS`); `rejoined` orders it."""
    own = msgspec.structs.asdict(finding)
    for name in LINE_FIELDS:
        del own[name]
    own["kind"] = THRESHOLD
    return own


def line_part(finding: ThresholdFinding) -> tuple:
    """The values of its `LINE_FIELDS`, in order."""
    return tuple(getattr(finding, name) for name in LINE_FIELDS)


def rejoined(own: dict[str, Any], line: dict[str, Any] | None) -> dict[str, Any]:
    """A stored finding whole again: its own part and its line's, in the fields' order."""
    if not line:
        return own
    whole = {**own, **line}
    return dict(sorted(whole.items(), key=lambda kv: FIELD_ORDER.get(kv[0], len(FIELD_ORDER))))


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
