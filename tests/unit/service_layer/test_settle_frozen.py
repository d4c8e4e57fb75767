"""冻结: reading and replaying a log for `games settle` keep what they make out of the cycle
collector's sight while they run, and hand it all back when they end, failing or not; a
caller's own freeze is left as it is."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from compliance.errors import DecodeError
from compliance.service_layer import settle as svc
from compliance.service_layer.simulate import SimulationSpec, write_log


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("frozen") / "mixed.jsonl"
    spec = SimulationSpec(games=("guandan", "douniu", "shengji"), sessions=6, seed=3, rounds=(2, 4))
    write_log(spec, str(path))
    return path


def test_nothing_is_left_frozen_and_the_replays_are_the_same(log: Path):
    sessions = svc.sessions_to_settle(log)
    assert gc.get_freeze_count() == 0
    results = svc.replay_sessions(sessions)
    assert gc.get_freeze_count() == 0
    assert results == [svc.replay_session(s) for s in sessions]


def test_sessions_are_frozen_as_they_are_read(log: Path):
    seen: list[int] = []
    real = svc.sessions_in

    def watched(*args, **kwargs):
        for item in real(*args, **kwargs):
            seen.append(gc.get_freeze_count())
            yield item

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(svc, "sessions_in", watched)
        svc.sessions_to_settle(log)
    assert seen[0] == 0 and all(count > 0 for count in seen[1:])
    assert gc.get_freeze_count() == 0


def test_a_failing_read_hands_everything_back(log: Path, tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(log.read_bytes() + b'{"format":"stakelog/1"}\n')
    with pytest.raises(DecodeError):
        svc.sessions_to_settle(bad)
    assert gc.get_freeze_count() == 0


def test_a_callers_freeze_is_left_alone(log: Path):
    gc.freeze()
    try:
        assert gc.get_freeze_count() > 0
        svc.replay_sessions(svc.sessions_to_settle(log))
        assert gc.get_freeze_count() > 0  # not unfrozen
    finally:
        gc.unfreeze()
