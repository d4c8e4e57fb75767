"""整块读取 end to end: a mangled ledger audited on SQLite and PostgreSQL stores, line for
line, the rejects that the ledger's line path makes of it."""

from __future__ import annotations

import random

from click.testing import CliRunner
from sqlalchemy import create_engine, text

from compliance.cli import cli
from compliance.logs.platform_reader import _events
from compliance.logs.reader import Reject
from tests.conftest import SAMPLES
from tests.unit.duties.test_ledger_blocks import _lines


def test_a_mangled_ledger_stores_the_line_paths_rejects(any_db_url, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    rng = random.Random(11)
    ledger.write_bytes("".join(_lines(rng.randrange(10**6), 3000, 0.3)).encode())
    result = CliRunner().invoke(
        cli,
        [
            "audit",
            str(SAMPLES / "douniu.jsonl"),
            *("--accounts", str(SAMPLES / "platform" / "accounts.jsonl")),
            *("--ledger", str(ledger), "--format", "jsonl", "--db", any_db_url),
        ],
    )
    assert result.exit_code in (0, 3), result.output
    expected = [
        (r.line, r.session_id, r.reason)
        for r in _events(str(ledger), str(ledger), 0, None, 64 << 20)
        if isinstance(r, Reject)
    ]
    assert len(expected) > 100
    engine = create_engine(any_db_url)
    with engine.connect() as conn:
        run = conn.execute(text("SELECT max(id) FROM audit_runs")).scalar()
        stored = conn.execute(
            text(
                "SELECT line, session_id, reason FROM rejects WHERE run_id = :run AND file = :f"
                " ORDER BY line"
            ),
            {"run": run, "f": str(ledger)},
        ).fetchall()
    engine.dispose()
    assert [tuple(row) for row in stored] == expected
