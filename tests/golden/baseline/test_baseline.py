"""The redesign changes shape, not results: the demo's stdout and log, and the
audit's JSON Lines and report's JSON on that log, equal the committed bytes."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
NAMES = ["demo.out", "demo-sessions.jsonl", "audit.jsonl", "report.json"]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("baseline")
    subprocess.run(
        [sys.executable, str(HERE / "make.py"), str(target)], check=True, capture_output=True
    )
    return target


@pytest.mark.parametrize("name", NAMES)
def test_the_demos_output_is_byte_identical_to_the_baseline(made, name):
    expected = gzip.decompress((HERE / f"{name}.gz").read_bytes())
    got = gzip.decompress((made / f"{name}.gz").read_bytes())
    if got != expected:
        lines = zip(got.splitlines(), expected.splitlines(), strict=False)
        first = next((i for i, (a, b) in enumerate(lines, 1) if a != b), None)
        pytest.fail(f"{name} differs from the baseline, first at line {first}")
