"""开始时刻: a stored session's start read back for the duty checks (check 9's room cards,
check 18's mirrored gains) at the offset its log wrote, the same instant and the same text
on SQLite, which keeps the wall time alone, and on PostgreSQL, which keeps the instant."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import func, select

from compliance.cli import cli
from compliance.db.dutystore import RUNS, zoned
from compliance.db.engine import make_engine
from compliance.db.unit_of_work import SqlUnitOfWork

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "samples" / "douniu.jsonl"
STARTS = ["2025-10-31T20:00:00+08:00", "2025-10-31T23:30:00-05:00", "2025-11-01T00:10:00+00:00"]


def test_starts_come_back_at_the_offset_the_log_wrote(any_db_url, tmp_path):
    sessions = [json.loads(line) for line in SAMPLE.read_text().splitlines()][: len(STARTS)]
    for session, start in zip(sessions, STARTS, strict=True):
        session["started_at"] = start
    log = tmp_path / "starts.jsonl"
    log.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sessions))
    result = CliRunner().invoke(cli, ["audit", str(log), "--db", any_db_url, "--format", "jsonl"])
    assert result.exit_code in (0, 1), result.output
    engine = make_engine(any_db_url)
    with SqlUnitOfWork(engine) as uow:
        run_id = uow.conn.execute(select(func.max(RUNS.c.id))).scalar_one()
        starts = {row[1]: row[4] for row in uow.duties.session_results(run_id)}
    engine.dispose()
    expected = {s["session_id"]: datetime.fromisoformat(s["started_at"]) for s in sessions}
    assert {k: v.isoformat() for k, v in starts.items()} == {
        k: v.isoformat() for k, v in expected.items()
    }


def test_a_start_stored_before_offsets_were_kept_is_read_as_utc():
    wall = datetime(2025, 10, 31, 20, 0)
    assert zoned(wall, None).isoformat() == "2025-10-31T20:00:00+00:00"
    assert zoned(wall, 8 * 3600).isoformat() == "2025-10-31T20:00:00+08:00"
    instant = datetime.fromisoformat("2025-10-31T12:00:00+00:00")
    assert zoned(instant, 8 * 3600).isoformat() == "2025-10-31T20:00:00+08:00"
