"""输出: the shapes every command prints in: padded tables, JSON or text, plurals."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from compliance.domain.tiers import TIER_CODES
from compliance.reporting.cells import display_width, pad

if TYPE_CHECKING:
    from compliance.service_layer.audit import AuditSummary


def table(rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell (in terminal columns: CJK counts two), the last
    one free."""
    if not rows:
        return ""
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join([*(pad(c, w) for c, w in zip(r, widths, strict=False)), r[-1]]).rstrip()
        for r in rows
    )


def to_json(payload: Any, indent: int | None = 2) -> str:
    """Chinese as it is, dates and decimals as their text."""
    return json.dumps(payload, ensure_ascii=False, indent=indent, default=str)


def emit(payload: Any, fmt: str, text: str) -> None:
    """The payload as indented JSON when `fmt` is json, else the text (if any)."""
    if fmt == "json":
        click.echo(to_json(payload))
    elif text:
        click.echo(text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def summary_line(summary: AuditSummary, where: str) -> str:
    """The one line an audit (and the demo) ends with."""
    tiers = ", ".join(
        f"{tier} {summary.tiers[tier]}" for tier in TIER_CODES if summary.tiers.get(tier)
    )
    kinds = summary.kinds
    threshold = f"threshold {kinds.get('threshold', 0)}" + (f" ({tiers})" if tiers else "")
    return (
        f"audited {plural(summary.sessions, 'session')}{_repeated(summary.repeated)}, "
        f"{summary.rejects} rejected; "
        f"findings: {threshold}, "
        f"integrity {kinds.get('integrity', 0)}, indeterminate {kinds.get('indeterminate', 0)}; "
        f"{_duties(summary)}run {summary.run_id} stored in {where}"
    )


def _duties(summary: AuditSummary) -> str:
    """The duties' part of the summary line, only where duties were checked."""
    duties = summary.duties
    if duties is None:
        return ""
    found = ", ".join(
        f"{k} {duties.found.get(k, 0)}"
        for k in ("violation", "signal", "advisory", "indeterminate")
    )
    checks = Counter(duties.statuses.values())
    by_status = ", ".join(f"{k} {checks[k]}" for k in ("breached", "held", "indeterminate"))
    return (
        f"duties: {plural(duties.records, 'record')} read, {duties.rejects} rejected; "
        f"findings: {found}; checks: {by_status}; "
    )


def _repeated(n: int) -> str:
    if not n:
        return ""
    return f" ({n} repeating an earlier session id of the run: the later line is kept)"


class CutOff:
    """截断: a text stream whose reader may go away (`| head -1`). The first
    BrokenPipeError ends the writing, not the command: later writes are dropped, and
    the stream's descriptor is pointed at /dev/null so no flush at exit fails."""

    def __init__(self, stream):
        self.stream = stream
        self.cut = False

    def write(self, text: str) -> int:
        if not self.cut:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._cut()
        return len(text)

    def flush(self) -> None:
        if not self.cut:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._cut()

    def __getattr__(self, name: str):
        return getattr(self.stream, name)

    def _cut(self) -> None:
        self.cut = True
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
