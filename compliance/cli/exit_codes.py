"""退出码: what the process tells its caller, as the docstring of compliance.cli says."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """0 ran (nothing at or above --fail-on); 1 error; 2 usage; 3 findings or problems;
    130 stopped by Ctrl-C (128 + SIGINT, as shells report it)."""

    OK = 0
    ERROR = 1
    USAGE = 2
    FINDINGS = 3
    INTERRUPTED = 130
