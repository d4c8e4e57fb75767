"""The `compliance` entry point: a Ctrl-C while its modules load is one line (issue #16)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

from compliance.__main__ import INTERRUPTED
from compliance.cli.exit_codes import ExitCode

INTERRUPT_ON_IMPORT = """
import sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "compliance.cli.audit":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from compliance.__main__ import main
main()
"""


def test_ctrl_c_while_the_modules_load_is_one_line_and_exit_130():
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPT_ON_IMPORT, "--version"],
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
