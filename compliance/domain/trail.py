"""变更记录: what a check of the change trail finds, and who is making a change.

The trail itself (hash-chained rows) is kept by `compliance.db.trail`; these are the values
the service layer and the commands pass around without the database's modules.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass


def default_actor() -> str:
    """Who: $USER, else the login name, else `unknown`."""
    try:
        return os.environ.get("USER") or getpass.getuser() or "unknown"
    except (KeyError, OSError):
        return "unknown"


@dataclass(frozen=True, slots=True)
class Verdict:
    """校验结果: how many entries and rows were checked, and what is wrong."""

    entries: int
    rows: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems
