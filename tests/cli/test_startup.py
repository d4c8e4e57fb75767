"""启动: a command loads only the modules it needs, and `compliance --help` lists the
commands from their summaries, as click would from the commands themselves."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import click
import pytest

from compliance.cli import COMMANDS, LazyCommands, Root
from tests.conftest import SAMPLES

DOUNIU = str(SAMPLES / "douniu.jsonl")
HEAVY = ("sqlalchemy", "alembic", "matplotlib", "jinja2")

PROBE = """
import json, sys
from compliance.__main__ import main
args, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])
sys.argv = ["compliance", *args]
try:
    main()
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
sys.stderr.write("\\n" + json.dumps([code, [m for m in heavy if m in sys.modules]]) + "\\n")
"""


def loaded(*args: str, heavy: tuple[str, ...] = HEAVY) -> tuple[int, list[str]]:
    """The exit code of `compliance ARGS` in a new interpreter, and which of `heavy` it
    had imported by the end."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), json.dumps(heavy)],
        capture_output=True,
        text=True,
        check=True,
    )
    code, modules = json.loads(done.stderr.splitlines()[-1])
    return code or 0, modules


def test_games_settle_runs_without_the_database_the_reports_or_numpy():
    assert loaded("games", "settle", DOUNIU, heavy=(*HEAVY, "numpy")) == (0, [])


@pytest.mark.parametrize(
    "args", [("--help",), ("--version",), ("games", "--help"), ("logs", "schema")]
)
def test_commands_that_touch_no_database_import_none_of_its_modules(args):
    assert loaded(*args) == (0, [])


@pytest.mark.parametrize("args", [("games", "list"), ("logs", "schema")])
def test_the_engines_specs_load_without_numpy(args):
    """Every engine's spec is read, and 升级's checks in arrays are not loaded for it."""
    assert loaded(*args, heavy=(*HEAVY, "numpy")) == (0, [])


def test_the_audits_help_and_usage_errors_load_none_of_the_run():
    """`audit --help`, and a mistyped option, answer without the store, numpy or engines."""
    assert loaded("audit", "--help", heavy=(*HEAVY, "numpy")) == (0, [])
    code, modules = loaded("audit", "--no-such-option", heavy=(*HEAVY, "numpy"))
    assert code == 2 and modules == []


@pytest.mark.parametrize(
    "command", ["db", "demo", "evidence", "report", "review", "rules", "trail", "whatif"]
)
def test_a_commands_help_loads_neither_the_database_nor_the_run(command):
    """Each command's help (a group's too) answers before its service modules load."""
    assert loaded(command, "--help", heavy=(*HEAVY, "numpy")) == (0, [])


def test_the_probe_sees_a_command_that_opens_the_database(tmp_path):
    code, modules = loaded("db", "upgrade", "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert code == 0 and "sqlalchemy" in modules and "alembic" in modules


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_summary_is_the_first_paragraph_of_the_commands_help(name):
    command = LazyCommands(dict(COMMANDS))[name]
    first = inspect.cleandoc(command.help or "").split("\n\n")[0]
    assert COMMANDS[name][1] == " ".join(first.split())
    assert command.name == name and not command.hidden and not command.deprecated


@pytest.mark.parametrize("width", [40, 80, 120, 200])
def test_the_listing_is_the_one_click_makes_from_the_loaded_commands(width):
    lazy = Root(name="compliance")
    lazy.commands = LazyCommands(dict(COMMANDS))
    eager = click.Group(name="compliance", commands=dict(lazy.commands.items()))
    fresh = Root(name="compliance")
    fresh.commands = LazyCommands(dict(COMMANDS))
    assert not fresh.commands.loaded

    def listing(group: click.Group) -> str:
        formatter = click.HelpFormatter(width=width)
        group.format_commands(click.Context(group), formatter)
        return formatter.getvalue()

    assert listing(fresh) == listing(eager)
    assert not fresh.commands.loaded
