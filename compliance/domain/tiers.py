"""处罚档次: the one ordered scale every jurisdiction maps its own names onto."""

from __future__ import annotations

from enum import IntEnum


class Tier(IntEnum):
    """Penalty tiers, lowest first; `indeterminate` stands beside the scale."""

    EXEMPT = 0
    BELOW_THRESHOLD = 1
    ADMINISTRATIVE = 2
    ADMINISTRATIVE_SERIOUS = 3
    ADMINISTRATIVE_VERY_SERIOUS = 4
    CRIMINAL = 5
    CRIMINAL_SERIOUS = 6

    @property
    def code(self) -> str:
        return self.name.lower()

    @property
    def label(self) -> str:
        return LABELS[self]

    @classmethod
    def parse(cls, code: str) -> Tier:
        try:
            return cls[code.strip().upper()]
        except KeyError:
            known = ", ".join(t.code for t in cls)
            raise ValueError(f"unknown tier {code!r} (known: {known})") from None


LABELS = {
    Tier.EXEMPT: "不予处罚 exempt",
    Tier.BELOW_THRESHOLD: "未达标准 below threshold",
    Tier.ADMINISTRATIVE: "赌资较大 administrative",
    Tier.ADMINISTRATIVE_SERIOUS: "情节严重 administrative, serious",
    Tier.ADMINISTRATIVE_VERY_SERIOUS: "情节特别严重 administrative, very serious",
    Tier.CRIMINAL: "刑事 criminal",
    Tier.CRIMINAL_SERIOUS: "刑事情节严重 criminal, serious",
}

TIER_CODES = tuple(t.code for t in Tier)
INDETERMINATE = "indeterminate"
