"""An audit of simulated sessions with the platform's records beside them."""

from __future__ import annotations

from click.testing import CliRunner, Result

from compliance.cli import cli


def audit_platform(runner: CliRunner, sessions, records, db: str, *more: str) -> Result:
    """`compliance audit SESSIONS --accounts/--ledger/--platform-config` of the records
    folder, as JSON Lines, into `db`; `more` after them."""
    return runner.invoke(
        cli,
        [
            "audit",
            str(sessions),
            "--accounts",
            str(records / "accounts.jsonl"),
            "--ledger",
            str(records / "ledger.jsonl"),
            "--platform-config",
            str(records / "config.jsonl"),
            "--format",
            "jsonl",
            "--db",
            db,
            *more,
        ],
    )


def simulate_platform(runner: CliRunner, sessions, records, *more: str) -> Result:
    """`compliance simulate -o SESSIONS --platform-records RECORDS`, `more` after them."""
    return runner.invoke(
        cli, ["simulate", "-o", str(sessions), "--platform-records", str(records), *more]
    )
