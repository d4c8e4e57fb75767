"""旁算窗口: a run with workers judges its players' windows in a forked process; what it
stores and gives is what a serial run does, in the same order, and if that process fails
the driver judges them itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Text, cast, select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import WindowFindingRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import aside, window_judging
from compliance.service_layer import audit as services
from tests.integration.test_windows import room, write


def players_log(tmp_path: Path) -> str:
    """Rooms of three owners in 重庆 whose four regulars each lose or win over 2,000 in
    three or more sessions: owners', the platform's and players' window findings."""
    regulars = ["p1", "p2", "p3", "p4"]
    sessions = [
        room(
            n,
            f"o{n % 3}",
            f"2026-03-{1 + n % 20:02d}",
            fee=600,
            basis="stakes",
            base=100,
            bets=(5,),
            where="500000",
            players=[*regulars, f"q{n}"][: 4 + n % 2],
        )
        for n in range(40)
    ]
    return write(tmp_path / "rooms.jsonl", sessions)


def audited(url: str, path: str, workers: int) -> tuple[list[bytes], list[tuple]]:
    engine = make_engine(url)
    ensure_schema(engine)
    given: list = []
    services.audit(
        SqlUnitOfWork(engine), [path], services.AuditOptions(workers=workers), given.append
    )
    rows = WindowFindingRow.__table__
    with engine.connect() as conn:
        stored = conn.execute(
            select(rows.c.id, rows.c.kind, rows.c.subject, cast(rows.c.payload, Text)).order_by(
                rows.c.id
            )
        ).all()
    engine.dispose()
    windows = [f.to_json() for f in given if getattr(f, "session_id", "") is None]
    return windows, [tuple(r) for r in stored]


@pytest.fixture
def kinds_judged_here(monkeypatch) -> list[tuple[str, ...]]:
    """The kinds of subject whose windows the driver judged (the forked process's calls
    stay in that process)."""
    asked: list[tuple[str, ...]] = []
    judged = window_judging.judged_windows

    def spy(uow, run, kinds):
        asked.append(kinds)
        return judged(uow, run, kinds)

    monkeypatch.setattr(window_judging, "judged_windows", spy)
    return asked


def test_the_players_windows_judged_aside_are_stored_and_given_in_the_serial_order(
    any_db_url, tmp_path, kinds_judged_here
):
    path = players_log(tmp_path)
    serial = audited(f"sqlite:///{tmp_path}/serial.db", path, 1)
    assert kinds_judged_here == [("owner", "platform", "player")]
    kinds_judged_here.clear()
    parallel = audited(any_db_url, path, 2)
    assert kinds_judged_here == [("owner", "platform")]
    subjects = [row[2] for row in serial[1]]
    assert subjects[:4] == ["owner:o0", "owner:o1", "owner:o2", "platform:p1"]
    assert subjects[4:] == ["player:p1", "player:p2", "player:p3", "player:p4"]
    assert parallel == serial


def refuse(*_args):
    raise RuntimeError("this process cannot judge windows")


def test_a_failing_aside_leaves_the_players_windows_to_the_driver(
    sqlite_url, tmp_path, monkeypatch, kinds_judged_here
):
    path = players_log(tmp_path)
    serial = audited(f"sqlite:///{tmp_path}/serial.db", path, 1)
    kinds_judged_here.clear()
    monkeypatch.setattr(aside, "players_windows", refuse)
    parallel = audited(sqlite_url, path, 2)
    assert kinds_judged_here == [("owner", "platform"), ("player",)]
    assert len(serial[1]) == 8
    assert parallel == serial
