"""分诊: run the fuzzer's batches and list every distinct way they go wrong.

The test stops at the first failing batch; this goes on. In each failing
batch it finds a line that fails alone, files it under its kind (the problem
with numbers and quoted values blanked), drops it and audits the rest again,
until the batch passes. It prints each kind once, with its shortest line.

    python -m tests.fuzz.triage --db sqlite:////tmp/triage.db --lines 5000
"""

from __future__ import annotations

import random
import re
import tempfile
import time
from pathlib import Path

import click

from tests.fuzz.test_fuzz import BLANKS, MUTATED, Auditor, Line, make_line, simulate_corpus


def kind_of(problem: str) -> str:
    problem = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", problem)
    return re.sub(r"\d+", "N", problem)[:200]


@click.command()
@click.option("--db", "url", required=True, help="A database URL (a fresh one is best).")
@click.option("--lines", default=5_000, show_default=True, help="Mutated lines in all.")
@click.option("--seed", default=16, show_default=True)
def main(url: str, lines: int, seed: int) -> None:
    corpus = simulate_corpus()
    rng = random.Random(seed)
    found: dict[str, Line] = {}
    counts: dict[str, int] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        auditor = Auditor(url, Path(folder))
        for _ in range(max(1, lines // MUTATED)):
            batch = [
                make_line(
                    corpus,
                    rng.randrange(len(corpus.lines)),
                    rng.randrange(2**32),
                    rng.randint(1, 3),
                )
                for _ in range(MUTATED)
            ]
            batch += [Line(line, "valid") for line in corpus.lines[:6]]
            batch += [Line(blank, "blank") for blank in BLANKS]
            while (problem := auditor.problem(batch)) is not None:
                culprit = auditor.culprit([line for line in batch if line.how != "valid"] or batch)
                if culprit == batch and len(batch) <= len(BLANKS) + 6:
                    click.echo(f"valid lines alone go wrong: {problem}")
                    break
                kind = kind_of(auditor.problem(culprit) or problem)
                counts[kind] = counts.get(kind, 0) + 1
                if counts[kind] == 1:
                    click.echo(f"found: {kind}\n  {culprit[0].how}", err=True)
                shortest = min([*culprit, found.get(kind, culprit[0])], key=lambda x: len(x.data))
                found[kind] = shortest
                batch = [line for line in batch if line not in culprit]
        auditor.close()
    took = time.monotonic() - started
    click.echo(f"{auditor.lines} lines audited in {took:.0f} s; {len(found)} kinds of failure")
    for kind, line in sorted(found.items(), key=lambda kv: -counts[kv[0]]):
        click.echo(f"\n[{counts[kind]}x] {kind}\n  {line.how}\n  {line.data[:400]!r}")


if __name__ == "__main__":
    main()
