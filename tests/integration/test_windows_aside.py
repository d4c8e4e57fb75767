"""旁算窗口: a run with workers judges the first share of its players' windows in a forked
process, the rest in the driver; what it stores and gives is what a serial run does, in the
same order, and if that process fails the driver judges them itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Text, cast, select

from compliance.db import windows
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import WindowFindingRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import aside, window_judging
from compliance.service_layer import audit as services
from tests.integration.test_windows import room, write


def players_log(tmp_path: Path) -> str:
    """Rooms of three owners in 重庆 whose four regulars each lose or win over 2,000 in
    three or more sessions: owners', the platform's and players' window findings."""
    regulars = ["a1", "a2", "z1", "z2"]  # read first and last of the 44 players
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
def kinds_judged_here(monkeypatch) -> list[tuple]:
    """The kinds of subject whose windows the driver judged, and the share of their chunks
    (the forked process's calls stay in that process)."""
    asked: list[tuple] = []
    judged = window_judging.judged_windows

    def spy(uow, run, kinds, share=(0, 1)):
        asked.append((kinds, share))
        return judged(uow, run, kinds, share)

    monkeypatch.setattr(window_judging, "judged_windows", spy)
    return asked


@pytest.mark.parametrize("chunk", [windows.LEDGER_CHUNK, 3])
def test_the_players_windows_judged_aside_are_stored_and_given_in_the_serial_order(
    any_db_url, tmp_path, kinds_judged_here, monkeypatch, chunk
):
    monkeypatch.setattr(windows, "LEDGER_CHUNK", chunk)  # 3: 15 chunks of the 44 players
    path = players_log(tmp_path)
    serial = audited(f"sqlite:///{tmp_path}/serial.db", path, 1)
    assert kinds_judged_here == [(("owner", "platform", "player"), (0, 1))]
    kinds_judged_here.clear()
    parallel = audited(any_db_url, path, 2)
    assert kinds_judged_here == [(("owner", "platform"), (0, 1)), (("player",), (1, 2))]
    subjects = [row[2] for row in serial[1]]
    assert subjects[:4] == ["owner:o0", "owner:o1", "owner:o2", "platform:p1"]
    assert subjects[4:] == ["player:a1", "player:a2", "player:z1", "player:z2"]
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
    assert kinds_judged_here == [
        (("owner", "platform"), (0, 1)),
        (("player",), (1, 2)),
        (("player",), (0, 2)),
    ]
    assert len(serial[1]) == 8
    assert parallel == serial
