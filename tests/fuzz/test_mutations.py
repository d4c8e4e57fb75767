"""The fuzzer's own parts: its corpus is valid, its mutations do what they say."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from tests.fuzz import mutations
from tests.fuzz.mutations import Pairs, Verbatim, dumps, encode, mutate
from tests.fuzz.test_fuzz import simulate_corpus


@pytest.fixture(scope="module")
def corpus():
    return simulate_corpus()


def test_the_corpus_is_valid_sessions_of_every_game_with_nothing_to_reject(corpus, tmp_path):
    log = tmp_path / "corpus.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in corpus.lines))
    db = f"sqlite:///{tmp_path / 'c.db'}"
    result = CliRunner().invoke(cli, ["audit", str(log), "--format", "jsonl", "--db", db])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith(f"audited {len(corpus.lines)} sessions, 0 rejected; ")
    games = {msgspec.json.decode(line)["game"] for line in corpus.lines}
    assert len(games) == 8


def test_dumps_writes_a_key_twice_and_verbatim_text_as_it_is():
    text = dumps({"a": Pairs([("k", 1), ("k", "x")]), "b": Verbatim("1e999"), "c": "\u0000é"})
    assert text == '{"a":{"k":1,"k":"x"},"b":1e999,"c":"\\u0000é"}'


def test_a_lone_surrogate_is_written_as_bytes_that_are_not_utf8():
    data = encode({"name": "\ud800"})
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")


@pytest.mark.parametrize("mutation", mutations.STRUCTURAL, ids=lambda m: m.__name__)
def test_every_mutation_changes_lines_of_every_game_and_writes_one_line(corpus, mutation):
    changed = 0
    for index, line in enumerate(corpus.lines):
        root, what = mutation(random.Random(index), json.loads(line), corpus.options[index])
        data = encode(root)
        assert b"\n" not in data, what
        changed += data != line
    assert changed >= len(corpus.lines) // 2


def test_a_mutated_line_is_the_same_for_the_same_seed(corpus):
    made = [
        mutate(random.Random(7), line, opts, 3)
        for line, opts in zip(corpus.lines, corpus.options, strict=True)
    ]
    again = [
        mutate(random.Random(7), line, opts, 3)
        for line, opts in zip(corpus.lines, corpus.options, strict=True)
    ]
    assert made == again
    assert len({data for data, _ in made}) == len(made)
