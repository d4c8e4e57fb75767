"""The terminal as a person reads it: wide characters, wrapped details, plain words."""

from __future__ import annotations

import shlex

import click
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.reporting.cells import display_width, pad, wrap
from tests.conftest import SAMPLES

DOUNIU = str(SAMPLES / "douniu.jsonl")


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, columns: int = 128):
        env = {"COMPLIANCE_DB_URL": sqlite_url, "COLUMNS": str(columns)}
        return runner.invoke(cli, [*args], input=input, env=env)

    return invoke


@pytest.mark.parametrize(
    "text, width",
    [("湖南省 430000", 13), ("abc", 3), ("情节特别严重 v.serious", 22), ("ｅ", 2), ("e\u0301", 1)],
    ids=["province", "ascii", "tier", "full-width", "combining"],
)
def test_wide_characters_count_two_columns(text, width):
    assert display_width(text) == width
    assert display_width(pad(text, 24)) == 24


def test_a_long_detail_wraps_within_its_width_cjk_inside_words():
    lines = wrap("statute: 情节严重的，处十日以上十五日以下拘留", 20)
    assert lines == ["statute: 情节严重的", "，处十日以上十五日以", "下拘留"]
    assert all(display_width(line) <= 20 for line in lines)


def test_the_audit_table_shows_tier_margin_confidence_and_wraps_the_detail(run):
    result = run("audit", DOUNIU)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "player:m3" in line)
    assert lines[0] == (
        "KIND          SESSION         SUBJECT          WHERE  RESULT                       "
        "   MARGIN CONF DETAIL"
    )
    indent = " " * 98
    assert lines[at : at + 7] == [
        "threshold     mixed-room      player:m3        610000 情节严重 serious                 "
        "16.25 L    per_capita_capital 216.25",
        indent + "(per_capita_capital ≥ 200); 陕",
        indent + "西省公安厅治安管理处罚法裁量细",
        indent + "化标准 情节严重; statute: 情节",
        indent + "严重的，处十日以上十五日以下拘",
        indent + "留，并处一千元以上五千元以下罚",
        indent + "款; figure disputed",
    ]
    assert all(display_width(line) <= 128 for line in lines)


def test_the_demo_aligns_its_province_table_and_names_its_log_and_database(run, tmp_path):
    log = tmp_path / "my logs" / "demo.jsonl"
    log.parent.mkdir()
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    records = tmp_path / "my records"
    result = run(
        "demo",
        "--sessions",
        "24",
        "--log",
        str(log),
        "--db",
        url,
        "--platform-records",
        str(records),
    )
    assert result.exit_code == 0, result.output
    assert (records / "ledger.jsonl").exists()
    lines = result.stdout.splitlines()
    start = lines.index("Findings by province and tier  按省份和档次的结论 (players)")
    table = lines[start + 1 : lines.index("", start)]
    assert len(table) > 2
    assert {display_width(line) for line in table} == {display_width(table[0])}
    assert f"Next: compliance audit '{log}' --db {url} " in result.stdout


def test_eval_prints_json_words_not_python_ones(run):
    result = run("games", "eval", "bianselong", "SA", "C5")
    assert (result.exit_code, result.stdout) == (
        0,
        "game: bianselong\n"
        'hand: ["SA", "C5"]\n'
        "penalty_points: null\n"
        "reason: the variant gives no value for ace_points and king_points\n",
    )


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))
        else:
            yield (*prefix, name)


def printed_examples(help_text: str) -> list[str]:
    """The example commands of a --help as printed, continuation lines joined."""
    lines = help_text.splitlines()
    start = lines.index("  Example:") + 1
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line.strip())
    joined = " ".join(block).replace(" \\ ", " ")
    return [part.split(" > ")[0].strip() for part in joined.split("&&")]


@pytest.mark.parametrize("path", [" ".join(p) for p in _commands(cli)])
def test_every_help_example_is_printed_whole_and_parses_as_printed(path):
    help_text = CliRunner().invoke(cli, [*path.split(), "--help"], env={"COLUMNS": "80"}).stdout
    examples = printed_examples(help_text)
    assert examples and all(e.startswith("compliance ") for e in examples)
    for example in examples:
        args = shlex.split(example)[1:]
        command: click.Command = cli
        while isinstance(command, click.Group):
            command = command.commands[args.pop(0)]
        try:
            command.make_context(command.name or "", args)
        except click.BadParameter as exc:  # a file of the reader's own, not here
            assert "does not exist" in exc.format_message(), example
