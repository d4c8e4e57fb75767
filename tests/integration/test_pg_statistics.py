"""规划统计: an audit into PostgreSQL leaves the planner statistics of the tables a report
and the windows read, whether or not autovacuum has come by (it may be off, as on this
project's machine): without them a report's findings were joined to every player, minutes
for 2,000 findings."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import text

from compliance.cli import cli
from compliance.db.bulk import STATISTICS_TABLES

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "samples" / "douniu.jsonl"
ANALYZED = text(
    "SELECT relname, last_analyze IS NOT NULL FROM pg_stat_user_tables"
    " WHERE schemaname = current_schema() AND relname = ANY(:tables)"
)


def test_an_audit_leaves_the_planner_statistics(pg_engine, pg_url):
    tables = {"tables": list(STATISTICS_TABLES)}
    with pg_engine.connect() as conn:
        assert dict(conn.execute(ANALYZED, tables).all()) == dict.fromkeys(STATISTICS_TABLES, False)
    result = CliRunner().invoke(cli, ["audit", str(SAMPLE), "--db", pg_url, "--format", "jsonl"])
    assert result.exit_code in (0, 1), result.output
    with pg_engine.connect() as conn:
        assert dict(conn.execute(ANALYZED, tables).all()) == dict.fromkeys(STATISTICS_TABLES, True)
