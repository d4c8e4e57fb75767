"""`Shengji.replay_many` (sessions checked together) against `replay`, session by session."""

from __future__ import annotations

import random

import msgspec
import pytest

from compliance.games.shengji import GAME, ShengjiOptions
from compliance.games.shengji import engine as shengji_engine
from compliance.games.shengji.simulator import simulate
from compliance.service_layer.settle import replay_session, replay_sessions
from tests.builders_guandan import SEATS, session_of
from tests.unit.games.test_shengji_batch import OPTIONS, break_hand


def _sessions(seed: int, count: int) -> list:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rounds = simulate(rng, SEATS, rng.randrange(1, 8), 1, 0.4).rounds
        for record in rounds[:: rng.randrange(2, 5)]:
            break_hand(rng, record)
        options = rng.choice(OPTIONS)
        variant = {
            "tractor_follow": options.tractor_follow,
            "throw_ruff": options.throw_ruff,
            "kitty_multiplier": options.kitty_multiplier,
        }
        out.append(session_of("shengji", rounds, **variant))
    return out


def one_by_one(sessions) -> list:
    """Each session replayed alone by the reference (`replay_decoded`), or its failure."""
    out = []
    for session in sessions:
        try:
            out.append(list(GAME.replay_decoded(session)))
        except Exception as exc:  # noqa: BLE001 - the same failure is what is compared
            out.append(repr(exc))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_sessions_checked_together_give_each_sessions_own_replay(seed, monkeypatch):
    sessions = _sessions(seed, 16)
    replays = one_by_one(sessions)
    kept = [(s, r) for s, r in zip(sessions, replays, strict=True) if not isinstance(r, str)]
    sessions, expected = [s for s, _ in kept], [r for _, r in kept]  # a failing one: below
    assert len(sessions) >= 4
    monkeypatch.setattr(shengji_engine, "BATCH_HANDS", 20)  # several batches of sessions
    assert GAME.replay_many(sessions) == expected
    assert sum(map(len, expected)) > 20


def test_a_session_that_cannot_be_decoded_fails_as_its_replay_does():
    sessions = _sessions(1, 4)
    bad = msgspec.structs.replace(sessions[2], rounds=msgspec.Raw(b'[{"declarer":1}]'))
    sessions[2] = bad
    with pytest.raises(Exception) as one_by_one:
        for session in sessions:
            list(GAME.replay(session))
    with pytest.raises(type(one_by_one.value)) as together:
        GAME.replay_many(sessions)
    assert str(together.value) == str(one_by_one.value)


def test_replay_sessions_runs_of_one_game_equal_replay_session(tmp_path):
    from compliance.service_layer.settle import sessions_to_settle
    from compliance.service_layer.simulate import SimulationSpec, write_log

    path = tmp_path / "mixed.jsonl"
    write_log(
        SimulationSpec(games=("shengji", "douniu"), sessions=12, seed=4, anomalies=0.3), str(path)
    )
    sessions = sessions_to_settle(path)
    assert {s.game for s in sessions} == {"shengji", "douniu"}
    assert replay_sessions(sessions) == [replay_session(s) for s in sessions]


def test_options_are_hashable_for_grouping():
    assert len({ShengjiOptions(), ShengjiOptions(), ShengjiOptions(tractor_follow=False)}) == 2
