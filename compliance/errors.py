"""Errors: one root, named leaves. Findings are data and never raised.

ComplianceError
├── ConfigError            bad option or environment value
├── LogError               a session log line cannot be used (becomes a reject)
│   ├── DecodeError        not JSON, or not of the stakelog/1 shape
│   ├── UnknownGameError   the game code is not one we replay
│   └── DealError          an impossible deal: unknown or duplicate card, wrong count
├── RulesError             threshold data is malformed or inconsistent
├── JurisdictionError      a jurisdiction name or code we do not know
├── DatabaseError          the database cannot be reached or migrated
└── ReportError            no stored run to report on, or not the one asked for
"""


class ComplianceError(Exception):
    """Root of every error this package raises on purpose."""


class ConfigError(ComplianceError):
    pass


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
