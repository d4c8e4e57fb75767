"""已编码的结论: findings carried as their JSON, decoded only when a field is read.

`EncodedFinding` is a finding a worker encoded and sent back; `TemplatedFinding`
one the per-rule-set judge (service_layer/batch_judging.py) wrote from a
template, with the text stored for it and its line's values beside.
"""

from __future__ import annotations

from typing import Any

import msgspec

from compliance.domain.findings import THRESHOLD, Finding, ThresholdFinding

_finding_decoder = msgspec.json.Decoder(Finding)
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
"""The order of a threshold finding's fields, `kind` first (db/finding_rows.py `rejoined`)."""


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


class EncodedFinding:
    """已编码的结论: a finding as a worker encoded it, decoded only when a field other
    than its kind, tier or check is read, and written out as it came."""

    __slots__ = ("_json", "_decoded", "kind", "tier", "check")

    def __init__(self, json: bytes, kind: str, tier: str | None, check: str | None):
        self._json = json
        self._decoded: Finding | None = None
        self.kind, self.tier, self.check = kind, tier, check

    def to_json(self) -> bytes:
        return self._json

    def to_dict(self) -> dict[str, Any]:
        return msgspec.json.decode(self.to_json())

    def decoded(self) -> Finding:
        if self._decoded is None:
            self._decoded = _finding_decoder.decode(self.to_json())
        return self._decoded

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("_json", "_decoded", "_form", "_own"):
            raise AttributeError(name)  # not set yet (unpickling, copying): no decoding
        return getattr(self.decoded(), name)

    def __reduce__(self):
        return (EncodedFinding, (self._json, self.kind, self.tier, self.check))


class TemplatedFinding(EncodedFinding):
    """模板结论: a finding written from its band's template. It keeps the template's two
    `%`-formats, its session's holes (shared by the session's findings) and its own
    (the player's id and three figures), in one tuple; its JSON and the text its row stores
    (`own`) are written when first asked for, so what waits to be stored is small and a
    stored run without JSON output never writes the JSON. `line`: the values of its
    line (None for an indeterminate one); `jurisdiction`: the template's, which its row
    stores (read here, it is not decoded from the JSON)."""

    __slots__ = ("subject", "line", "jurisdiction", "_form", "_own")

    def __init__(
        self,
        form: tuple,
        kind: str,
        tier: str | None,
        subject: str,
        line: tuple | None,
        jurisdiction: str | None,
    ):
        self._json, self._decoded, self.kind, self.tier, self.check = b"", None, kind, tier, None
        self._form, self._own = form, ""
        self.subject, self.line, self.jurisdiction = subject, line, jurisdiction

    def _holes(self) -> dict[str, str]:
        _, _, session, pid, value, margin, to_next = self._form
        return {**session, "I": pid, "v": value, "m": margin, "n": to_next}

    def to_json(self) -> bytes:
        if not self._json:
            self._json = (self._form[0] % self._holes()).encode()
        return self._json

    @property
    def own(self) -> str:
        """The text its row stores: the finding without its line's texts."""
        if not self._own:
            self._own = self._form[1] % self._holes()
        return self._own

    def __reduce__(self):
        return (
            _templated,
            (
                self.to_json(),
                self.own,
                self.kind,
                self.tier,
                self.subject,
                self.line,
                self.jurisdiction,
            ),
        )


def _templated(json: bytes, own: str, kind, tier, subject, line, where) -> TemplatedFinding:
    """A templated finding unpickled, its texts written."""
    found = TemplatedFinding(("", "", {}, "", "", "", ""), kind, tier, subject, line, where)
    found._json, found._own = json, own
    return found
