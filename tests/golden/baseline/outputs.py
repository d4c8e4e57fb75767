"""The demo's outputs, with what differs between runs (times, run ids, paths)
replaced by fixed words."""

from __future__ import annotations

import os
import re
from pathlib import Path

from click.testing import CliRunner

from compliance.cli import cli

STAMP = re.compile(rb'"(generated_at|started_at|finished_at|latest_day|date_bound)": ?"[^"]*"')


def _normalised(data: bytes, work: Path) -> bytes:
    data = data.replace(str(work).encode(), b"<work>")
    return STAMP.sub(lambda m: b'"' + m.group(1) + b'": "<time>"', data)


def _invoke(*args: str) -> bytes:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def make_outputs(work: Path) -> dict[str, bytes]:
    """demo.out, demo-sessions.jsonl, audit.jsonl and report.json, made in `work`."""
    here = Path.cwd()
    os.chdir(work)
    try:
        demo = _invoke("demo", "--db", f"sqlite:///{work / 'demo.db'}")
        log = (work / "demo-sessions.jsonl").read_bytes()
        audited = f"sqlite:///{work / 'audit.db'}"
        audit = _invoke("audit", "demo-sessions.jsonl", "--format", "jsonl", "--db", audited)
        report = _invoke("report", "latest", "--format", "json", "-o", "-", "--db", audited)
    finally:
        os.chdir(here)
    return {
        "demo.out": _normalised(demo, work),
        "demo-sessions.jsonl": log,
        "audit.jsonl": _normalised(audit, work),
        "report.json": _normalised(report, work),
    }
