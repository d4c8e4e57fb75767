"""模糊测试: hostile lines never end an audit, and every line is accounted for.

Valid sessions of every game are simulated once per module; hypothesis picks,
for each batch, which of them to mutate and the seed of each mutation
(tests/fuzz/mutations.py). A batch of mutated lines, some valid ones and a few
blank ones is audited with `compliance audit FILE --format jsonl --db URL`, on
SQLite and on PostgreSQL, and the fuzzer asserts that

- the run finishes: exit code 0, and no "internal error" or "Traceback" in its
  output, nor in a stored reject's reason;
- non-blank lines = sessions stored + rejects stored + sessions repeated, all
  three read back from the database (the run's rows in `sessions` and
  `rejects`, `repeated_sessions` in the run's stored summary).

A failing batch is cut in halves until one line fails alone; the message gives
that line and how to make it again. The size comes from the hypothesis profile
(docs/reliability.md, "The fuzzer"): a few thousand lines under the default,
tens of thousands under `--hypothesis-profile=fuzz-long`, or
COMPLIANCE_FUZZ_LINES mutated lines per database.
"""

from __future__ import annotations

import gc
import io
import os
import random
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, func, select

from compliance.cli import cli
from compliance.db.models import AuditRunRow, RejectRow, SessionRow
from compliance.games import game_codes, get_game
from compliance.service_layer.simulate import SimulationSpec, generate
from tests.fuzz.mutations import mutate

MUTATED = 100  # mutated lines in a batch
BLANKS = (b"", b"   ", b"\t \r")
SIZES = {"ci": 1_500, "fuzz-long": 20_000}  # mutated lines per database, by profile


def mutated_lines_per_database() -> int:
    if os.environ.get("COMPLIANCE_FUZZ_LINES"):
        return int(os.environ["COMPLIANCE_FUZZ_LINES"])
    return SIZES.get(settings.get_current_profile_name(), SIZES["ci"])


NO_SESSION = "Error: no session could be read: "  # a batch of rejects only: exit 1


@dataclass(frozen=True)
class Corpus:
    """Valid lines of every game (no newline at their end), each with its game's options."""

    lines: tuple[bytes, ...]
    options: tuple[tuple[str, ...], ...]


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return simulate_corpus()


def simulate_corpus() -> Corpus:
    codes = tuple(game_codes())
    assert len(codes) == 8
    spec = SimulationSpec(games=codes, sessions=4 * len(codes), seed=16, rounds=(2, 5))
    lines = tuple(line.rstrip(b"\n") for line, _, _ in generate(spec))
    games = [msgspec.json.decode(line)["game"] for line in lines]
    assert set(games) == set(codes)
    options = tuple(
        tuple(get_game(g).spec.options_type.__struct_fields__) for g in games
    )  # every option the game knows, present in the line or not
    return Corpus(lines, options)


@dataclass(frozen=True)
class Line:
    """One line of a batch: its bytes and how it was made."""

    data: bytes
    how: str


def make_line(corpus: Corpus, base: int, seed: int, steps: int) -> Line:
    data, what = mutate(random.Random(seed), corpus.lines[base], corpus.options[base], steps)
    return Line(data, f"mutate(Random({seed}), corpus line {base}, steps={steps}): {what}")


def line_count(data: bytes) -> int:
    """Lines the reader meets that are not blank (it splits on \\n alone)."""
    return sum(1 for raw in io.BytesIO(data) if not raw.isspace())


class Auditor:
    """Audits batches into one database and says what, if anything, went wrong."""

    def __init__(self, url: str, folder: Path):
        self.url, self.folder, self.runs = url, folder, 0
        self.runner = CliRunner()
        self.engine = create_engine(url)
        self.lines = 0

    def problem(self, lines: list[Line]) -> str | None:
        """None if the batch was audited and accounted for, else what broke."""
        self.runs += 1
        path = self.folder / f"batch-{self.runs:05d}.jsonl"
        data = b"".join(line.data + b"\n" for line in lines)
        path.write_bytes(data)
        try:
            return self._problem(path, line_count(data))
        finally:
            path.unlink()

    def _problem(self, path: Path, expected: int) -> str | None:
        args = ["audit", str(path), "--format", "jsonl", "--db", self.url]
        result = self.runner.invoke(cli, args, env={"COMPLIANCE_DEBUG": None})
        gc.collect()  # the command's engine, left to the process's exit, holds a connection
        self.lines += expected
        last = result.stderr.strip().splitlines()[-1:] or [""]
        nothing_read = result.exit_code == 1 and last[0].startswith(NO_SESSION)
        if result.exit_code != 0 and not nothing_read:
            return f"exit {result.exit_code}: {last[0]}"
        for needle in ("internal error", "Traceback"):
            for line in (result.stdout + result.stderr).splitlines():
                if needle in line:
                    return f"{needle!r} in the output: {line[:400]}"
        with self.engine.connect() as conn:
            run_id, summary = conn.execute(
                select(AuditRunRow.id, AuditRunRow.summary).order_by(AuditRunRow.id.desc())
            ).first() or (None, {})
            sessions = conn.scalar(
                select(func.count()).select_from(SessionRow).where(SessionRow.run_id == run_id)
            )
            rejects = conn.scalar(
                select(func.count()).select_from(RejectRow).where(RejectRow.run_id == run_id)
            )
            internal = conn.scalar(
                select(RejectRow.reason).where(
                    RejectRow.run_id == run_id, RejectRow.reason.contains("internal error")
                )
            )
        if internal:
            return f"a stored reject says: {internal[:400]}"
        repeated = summary.get("repeated_sessions")
        if not isinstance(repeated, int) or expected != sessions + rejects + repeated:
            return (
                f"{expected} lines, but run {run_id} stored {sessions} sessions and {rejects} "
                f"rejects and counted {repeated} repeats ({last[0]})"
            )
        return None

    def culprit(self, lines: list[Line]) -> list[Line]:
        """The fewest lines, found by halving, that still go wrong (one, mostly)."""
        while len(lines) > 1:
            half = len(lines) // 2
            for part in (lines[:half], lines[half:]):
                if self.problem(part) is not None:
                    lines = part
                    break
            else:
                return lines  # only together do they go wrong
        return lines

    def close(self) -> None:
        self.engine.dispose()


def describe(auditor: Auditor, lines: list[Line], problem: str) -> str:
    found = auditor.culprit([line for line in lines if line.how != "valid"] or lines)
    alone = auditor.problem(found) or problem
    shown = "\n".join(f"  {line.how}\n  {line.data[:600]!r}" for line in found[:3])
    return f"{problem}\n{len(found)} line(s) go wrong by themselves ({alone}):\n{shown}"


@pytest.mark.fuzz
@pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def test_hostile_lines_never_end_a_run_and_every_line_is_stored_or_rejected(
    database, corpus, tmp_path, request
):
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "pg_url")
    auditor = Auditor(url, tmp_path)
    batches = max(1, -(-mutated_lines_per_database() // MUTATED))
    valid = [Line(line, "valid") for line in corpus.lines]
    made = st.tuples(
        st.integers(0, len(corpus.lines) - 1), st.integers(0, 2**32 - 1), st.integers(1, 3)
    )

    @settings(
        max_examples=batches,
        derandomize=True,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate),  # no shrinking: `culprit` finds the line
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,  # the failure names its line and seed: no draws shown
    )
    @given(st.data())
    def batch(data):
        picks = data.draw(st.lists(made, min_size=MUTATED, max_size=MUTATED))
        lines = [make_line(corpus, *pick) for pick in picks]
        start = data.draw(st.integers(0, len(valid) - 1))
        lines += (valid * 2)[start : start + 6]  # valid lines of six games
        lines.append(valid[start])  # and one of them again: a repeat
        lines += [Line(blank, "blank") for blank in BLANKS]
        order = data.draw(st.permutations(range(len(lines))))
        lines = [lines[i] for i in order]
        problem = auditor.problem(lines)
        if problem is not None:
            pytest.fail(describe(auditor, lines, problem), pytrace=False)

    try:
        batch()
    finally:
        auditor.close()
    assert auditor.lines >= batches * MUTATED
