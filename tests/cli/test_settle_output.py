"""`games settle` prints, from the engines' results, what the settled rounds of
`settle_file` (the reference) print: every game, tampered rounds, both formats."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.games import game_codes
from compliance.service_layer import settle
from compliance.service_layer.simulate import SimulationSpec, write_log


def reference_text(sessions: list[settle.SettledSession]) -> str:
    lines = []
    for session in sessions:
        count = len(session.rounds)
        lines.append(
            f"session {session.session_id} ({session.game}, {count} round{'s' * (count != 1)})"
        )
        for r in session.rounds:
            deltas = " ".join(f"{p} {d:+d}" for p, d in r.deltas.items())
            banker = f" banker {r.banker}" if r.banker else ""
            lines.append(f"  round {r.index}{banker}: {deltas}")
            for issue in r.issues:
                lines.append(
                    f"    {issue.check}: {issue.detail.removeprefix(f'round {r.index}: ')}"
                )
    return "".join(line + "\n" for line in lines)


def reference_json(sessions: list[settle.SettledSession]) -> str:
    return "".join(
        json.dumps(
            {"session_id": s.session_id, "rounds": [r.as_dict() for r in s.rounds]},
            ensure_ascii=False,
            default=str,
        )
        + "\n"
        for s in sessions
    )


@pytest.mark.parametrize("code", game_codes())
def test_settle_prints_what_the_settled_rounds_say(code, tmp_path):
    path = tmp_path / f"{code}.jsonl"
    spec = SimulationSpec(games=(code,), sessions=4, seed=11, anomalies=0.5, rounds=(3, 8))
    write_log(spec, str(path))
    sessions = settle.settle_file(path)
    assert any(r.issues for s in sessions for r in s.rounds)
    runner = CliRunner()
    text = runner.invoke(cli, ["games", "settle", str(path)])
    as_json = runner.invoke(cli, ["games", "settle", str(path), "--format", "json"])
    assert (text.exit_code, text.stdout) == (0, reference_text(sessions))
    assert (as_json.exit_code, as_json.stdout) == (0, reference_json(sessions))


def test_a_log_with_a_line_that_is_not_utf8_is_refused_as_such(tmp_path):
    good = (
        b'{"format":"stakelog/1","session_id":"s1","platform":"p","game":"douniu",'
        b'"started_at":"2026-03-01T20:00:00+08:00","players":[{"id":"a"}],"rounds":[]}\n'
    )
    for bad in (good.replace(b'"s1"', b'"s\xff1"'), b"\xe5\x90\n"):
        path = tmp_path / "log.jsonl"
        path.write_bytes(good + bad)
        with pytest.raises(settle.DecodeError, match="not UTF-8 text"):
            settle.sessions_to_settle(path)


def test_a_file_that_opens_with_unicode_space_is_read_as_the_text_says(tmp_path):
    path = tmp_path / "round.json"
    path.write_text("\u3000{}", encoding="utf-8")
    with pytest.raises(settle.GameNeededError):
        settle.sessions_to_settle(path)
