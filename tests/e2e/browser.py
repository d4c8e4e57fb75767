"""Headless Chromium for the browser tests: open a page offline, read its console."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

FLAGS = (
    "--headless",
    "--disable-gpu",
    "--no-sandbox",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
)


def open_page(chromium: str, page: Path, *args: str) -> subprocess.CompletedProcess:
    profile = page.parent / f"profile{len(args)}"
    return subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def console_messages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if re.search(r":CONSOLE[:(]", line)]
