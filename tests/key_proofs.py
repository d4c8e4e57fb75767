"""What the tests of the key proofs share: short simulated lines of a game, and the check
that a line reads as it reads with the exact duplicate-key check alone."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from compliance.errors import DecodeError
from compliance.games import get_game
from compliance.logs import reader
from compliance.logs.key_counts import keys_counted
from compliance.logs.reader import duplicate_key
from compliance.service_layer.simulate import SimulationSpec, write_log


@functools.cache
def simulated_lines(game: str) -> tuple[bytes, ...]:
    """Three short sessions of `game` (one to three rounds, a third of them tampered)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{game}.jsonl"
        spec = SimulationSpec(games=(game,), sessions=3, seed=4, rounds=(1, 3), anomalies=0.3)
        write_log(spec, str(path))
        return tuple(path.read_bytes().splitlines())


def outcome(raw: bytes) -> Any:
    """The session the reader makes of a line, or its error's text."""
    try:
        return reader.decode_session(raw, get_game)
    except DecodeError as exc:
        return str(exc)


def assert_agrees_with_the_exact_check(raw: bytes) -> None:
    """A line the key count proves has no repeated key, and the reader makes of it what it
    makes with the exact check alone."""
    try:
        session = reader.typed_decode(reader._decoder, raw, "session")  # as the reader does first
    except DecodeError:
        pass
    else:
        if keys_counted(raw, session, get_game):
            assert duplicate_key(raw) is None
    with mock.patch.object(reader, "keys_counted", return_value=False):
        exact = outcome(raw)
    assert outcome(raw) == exact
