"""Errors: one root, named leaves. Findings are data and never raised.

ComplianceError
├── ConfigError            bad option or environment value
│   └── BadValueError      a value given on the command line is malformed or names nothing
│                          known (exit 2, a usage error; "did you mean" where one is close)
├── LogError               a session log line cannot be used (becomes a reject)
│   ├── DecodeError        not JSON, or not of the stakelog/1 shape
│   ├── UnknownGameError   the game code is not one we replay
│   └── DealError          an impossible deal: unknown or duplicate card, wrong count
├── RulesError             threshold data is malformed or inconsistent
├── JurisdictionError      a jurisdiction name or code we do not know (from an option: exit 2)
├── DatabaseError          the database cannot be reached or migrated
└── ReportError            no stored run to report on, or not the one asked for
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class ComplianceError(Exception):
    """Root of every error this package raises on purpose."""


class ConfigError(ComplianceError):
    pass


class BadValueError(ConfigError):
    """A usage error: the caller named what is not there, or wrote what cannot be read."""


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest of `known` (difflib), else nothing."""
    close = difflib.get_close_matches(given.strip().lower(), [k.lower() for k in known], n=1)
    if not close:
        return ""
    original = {k.lower(): k for k in known}[close[0]]
    return f" (did you mean {original!r}?)"


class LogError(ComplianceError):
    """A session that cannot be audited; the reader turns it into a reject."""


class DecodeError(LogError):
    pass


class UnknownGameError(LogError):
    pass


class DealError(LogError):
    pass


class RulesError(ComplianceError):
    pass


class JurisdictionError(ComplianceError):
    pass


class DatabaseError(ComplianceError):
    pass


class ReportError(ComplianceError):
    pass
