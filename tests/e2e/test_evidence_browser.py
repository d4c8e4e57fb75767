"""An evidence pack in a real browser: the demo's room owner, offline, no script, every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compliance.reporting.evidence import FolderWriter
from compliance.service_layer.bootstrap import unit_of_work_factory
from compliance.service_layer.demo import run_demo
from compliance.service_layer.evidence import Subject, make_pack
from tests.e2e.browser import console_messages, open_page


@pytest.fixture(scope="module")
def owner_pack(tmp_path_factory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("evidence")
    uows = unit_of_work_factory(f"sqlite:///{folder / 'demo.db'}")
    run_demo(uows, 120, 2026, str(folder / "demo.jsonl"), folder / "report.html")
    with uows() as uow:
        owners = {
            f["subject"].split(":", 1)[1]
            for f in uow.review.run_findings(1)
            if f["subject"].startswith("owner:") and f.get("sessions")
        }
    owner = sorted(owners)[0]
    writer = FolderWriter(folder / "pack")
    make_pack(uows, Subject("owner", owner), None, None, writer)
    writer.finish()
    uows.engine.dispose()
    return folder / "pack", owner


def test_the_owners_pack_opens_offline_and_shows_findings_and_replayed_rounds(
    chromium,
    owner_pack,  # noqa: F811
):
    pack, owner = owner_pack
    index = open_page(chromium, pack / "index.html", "--dump-dom")
    assert index.returncode == 0 and console_messages(index.stderr) == []
    assert f"Evidence pack: owner:{owner}" in index.stdout
    assert "<script" not in index.stdout
    assert re.search(r'<section class="finding" id="f-[0-9a-f]{32}">', index.stdout)
    pages = sorted(pack.glob("sessions-*.html"))
    assert pages
    for path in pages:
        shown = open_page(chromium, path, "--dump-dom")
        assert shown.returncode == 0 and console_messages(shown.stderr) == []
        dom = shown.stdout
        assert "<script" not in dom
        sessions = re.findall(r'<section class="session" id="s-', dom)
        assert 0 < len(sessions) <= 200
        assert "Rounds replayed from the cards" in dom
        assert re.search(r'<tr class="[^"]*" data-round="\d+">', dom)
