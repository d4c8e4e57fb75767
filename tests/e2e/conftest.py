"""The browser tests' Chromium: missing, skip locally, fail under CI=true (never a silent pass)."""

from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        message = "chromium is not installed (apt-get install chromium fonts-noto-cjk)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found
