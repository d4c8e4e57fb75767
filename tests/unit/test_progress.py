"""The progress line shows on a terminal and nowhere else."""

from __future__ import annotations

import io

from compliance.cli.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_silent_when_stderr_is_not_a_terminal():
    out = io.StringIO()
    progress = Progress(out, every=0)
    for _ in range(5):
        progress.tick()
    progress.close()
    assert out.getvalue() == ""


def test_progress_counts_sessions_per_second_on_a_terminal():
    out = Terminal()
    progress = Progress(out, every=0)
    for _ in range(3):
        progress.tick()
    progress.close()
    assert "\r3 sessions, " in out.getvalue()
    assert out.getvalue().endswith("\r\033[K")
