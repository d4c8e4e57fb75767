"""The `compliance` entry point: a Ctrl-C while its modules load is one line (issue #16)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from compliance.__main__ import INTERRUPTED
from compliance.cli.exit_codes import ExitCode

INTERRUPT_ON_IMPORT = """
import sys

MODULE = sys.argv.pop(1)

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == MODULE:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from compliance.__main__ import main
main()
"""


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("compliance.cli.exit_codes", ["--version"]),  # the root, loaded before click runs
        ("compliance.cli.audit", ["audit", "--help"]),  # a command's, loaded when it is run
        ("sqlalchemy", ["db", "current"]),  # a third party, loaded by the body
        # the run's machinery, loaded by the command's body (not for its help)
        ("compliance.service_layer.audit", ["audit", "data/samples/douniu.jsonl", "--db", "-"]),
    ],
)
def test_ctrl_c_while_the_modules_load_is_one_line_and_exit_130(module, args):
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPT_ON_IMPORT, module, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, "interrupted\n", "")


def test_the_entry_point_is_the_module_that_imports_nothing_first():
    (script,) = entry_points(group="console_scripts", name="compliance")
    assert script.value == "compliance.__main__:main"
    assert INTERRUPTED == ExitCode.INTERRUPTED


def test_python_dash_m_compliance_runs_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "compliance", "--version"], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, "compliance, version 0.1.0\n")
