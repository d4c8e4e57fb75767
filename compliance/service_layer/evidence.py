"""证据包: everything behind the findings on one player, room owner or platform, as pages.

For a stored run, the findings on the subject, each with its band, instrument, article,
citation, dates in force and confidence, its waiver and review history; the sessions
behind them, at most `PAGE` to a page, each read again from its log line and replayed
round by round; the original lines; and a manifest of SHA-256 digests of every file.
Pages are made one at a time, so a subject with thousands of sessions costs one page
of memory. `Writer` (reporting/evidence.py) renders and writes them.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from compliance.domain.findings import INTEGRITY, fingerprint
from compliance.domain.pseudonym import Pseudonyms
from compliance.domain.rules import RuleBook
from compliance.errors import BadValueError
from compliance.logs.lines import is_gzip
from compliance.logs.reader import guess_session_id
from compliance.reporting.review_marks import Marks
from compliance.service_layer.evidence_rounds import (
    line_digest,
    lines_at,
    lines_at_offsets,
    replay,
)
from compliance.service_layer.unit_of_work import UnitOfWork

PAGE = 200
KINDS = ("player", "owner", "platform")


@dataclass(frozen=True)
class Subject:
    kind: str
    id: str

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"

    @classmethod
    def parse(cls, text: str) -> Subject:
        kind, sep, rest = text.partition(":")
        if sep and kind in KINDS and rest:
            return cls(kind, rest)
        if sep and kind in KINDS:
            raise BadValueError(f"{text!r}: no id after {kind}:")
        return cls("player", text)


class Writer(Protocol):
    def page(self, number: int, sessions: list[dict[str, Any]]) -> None: ...
    def lines(self, lines: list[bytes]) -> None: ...
    def index(self, pack: dict[str, Any]) -> None: ...


@dataclass
class PackSummary:
    subject: str
    platform: str
    run: int
    findings: int = 0
    sessions: int = 0
    pages: int = 0
    unreadable: int = 0
    notes: list[str] = field(default_factory=list)


def make_pack(
    uows: Callable[[], UnitOfWork],
    subject: Subject,
    platform: str | None,
    run: int | None,
    writer: Writer,
    pseudonyms: Pseudonyms | None = None,
) -> PackSummary:
    """证据包 of a subject in a run (the latest by default) on a platform (needed when the id
    is found on more than one)."""
    with uows() as uow:
        platforms = uow.evidence.platforms_of(subject.kind, subject.id)
        if not platforms:
            raise BadValueError(f"no stored session has {subject.key}")
        if platform is None and len(platforms) > 1:
            raise BadValueError(
                f"{subject.key} is found on {len(platforms)} platforms "
                f"({', '.join(platforms)}): give --platform"
            )
        platform = platform or platforms[0]
        if platform not in platforms:
            raise BadValueError(f"{subject.key} has no stored session on platform {platform}")
        run = run if run is not None else uow.reports.latest_run()
        marks = Marks(uow.review.waivers(), uow.review.reviews())
        findings, behind = _findings(uow, run, platform, subject, marks)
        for f in findings:
            review = uow.review.review(f["fingerprint"])
            f["review_history"] = (
                [
                    {"at": str(e["at"]), "actor": e["actor"], **(e["after"] or {})}
                    for e in uow.review.history(review.fingerprint)
                ]
                if review
                else []
            )
        book = uow.rules.load()
        manifest = uow.runs.manifest(run)
    summary = PackSummary(subject.key, platform, run, findings=len(findings))
    sessions = sorted(behind)
    for number, start in enumerate(range(0, len(sessions), PAGE), 1):
        chunk = sessions[start : start + PAGE]
        with uows() as uow:
            stored = uow.evidence.sessions(platform, chunk)
        page, lines = _page(chunk, stored, behind, summary)
        if pseudonyms is not None:
            page = [_masked_session(s, pseudonyms) for s in page]
        else:
            writer.lines(lines)
        writer.page(number, page)
        summary.pages = number
    summary.sessions = len(sessions)
    shown = [_with_band(f, book) for f in findings]
    if pseudonyms is not None:
        shown = [_masked_finding(f, pseudonyms) for f in shown]
        summary.notes.append(
            f"pseudonymised (key {pseudonyms.key_fingerprint}): player ids and names are "
            "keyed digests; the original log lines are left out"
        )
    writer.index(
        {
            "format": "compliance-evidence/1",
            "disclaimer": "This pack informs; it is not legal advice. 本证据包仅供参考，不构成法律意见。",
            "subject": (pseudonyms.subject(subject.key) if pseudonyms else subject.key),
            "platform": platform,
            "run": run,
            "run_manifest": manifest,
            "findings": shown,
            "sessions": summary.sessions,
            "pages": [
                {"page": n, "sessions": sessions[(n - 1) * PAGE : n * PAGE]}
                for n in range(1, summary.pages + 1)
            ],
            "unreadable": summary.unreadable,
            "notes": summary.notes,
            "key_fingerprint": pseudonyms.key_fingerprint if pseudonyms else None,
        }
    )
    return summary


def _on_subject(f: dict[str, Any], subject: Subject) -> bool:
    if f["subject"] == subject.key:
        return True
    if subject.kind == "player":
        return f["kind"] == INTEGRITY and subject.id in (f.get("players") or ())
    if subject.kind == "owner":
        return f.get("owner_id") == subject.id and f["kind"] == INTEGRITY
    return False


def _findings(uow: UnitOfWork, run: int, platform: str, subject: Subject, marks: Marks):
    """The run's findings on the subject, marked, and the sessions behind each."""
    findings: list[dict[str, Any]] = []
    behind: dict[str, list[str]] = defaultdict(list)
    for f in uow.review.run_findings(run):
        if f["platform"] != platform or not _on_subject(f, subject):
            continue
        marks.mark(f)
        findings.append(f)
        ids = [f["session_id"]] if f.get("session_id") else list(f.get("sessions") or ())
        for sid in ids:
            behind[sid].append(f["fingerprint"])
    return findings, behind


def _page(
    chunk: list[str],
    stored: dict[str, dict[str, Any]],
    behind: dict[str, list[str]],
    summary: PackSummary,
) -> tuple[list[dict[str, Any]], list[bytes]]:
    """A page's sessions, each line taken from the store where it was kept, else read again
    from its file (at its offset, or by its number in a gzip file) and checked by digest."""
    by_file: dict[str, list[int]] = defaultdict(list)
    for sid in chunk:
        row = stored.get(sid)
        if row is not None and row.get("line") is None:
            by_file[row["source_file"]].append(int(row["source_line"]))
    read = {path: read_lines(path, numbers, stored) for path, numbers in by_file.items()}
    page, lines = [], []
    for sid in chunk:
        row = stored.get(sid)
        entry: dict[str, Any] = {"session_id": sid, "findings": behind[sid]}
        if row is None:
            entry["error"] = "not stored (a later run replaced it, or it was never stored)"
            summary.unreadable += 1
            page.append(entry)
            continue
        entry.update(_session_fields(row))
        raw: bytes | None
        problem: str | None = None
        if row.get("line") is not None:
            raw, entry["line_from"] = zlib.decompress(row["line"]), "store"
        else:
            found, problem = read[row["source_file"]]
            raw, entry["line_from"] = found.get(int(row["source_line"])), "file"
        wanted = row.get("line_sha256")
        if raw is None:
            entry["error"] = problem or (
                f"{row['source_file']} has no line {row['source_line']}: the file has moved "
                "or changed since the audit, and no copy of the line is stored"
            )
        elif (wanted and line_digest(raw) != wanted) or not _holds(raw, sid):
            entry["error"] = (
                f"line {row['source_line']} of {row['source_file']} is not the line audited "
                "(its SHA-256 differs): the file has changed since the audit, and no copy of "
                "the line is stored"
            )
        else:
            entry["line_sha256"] = line_digest(raw)
            entry["replay"] = replay(raw)
            lines.append(raw)
        if "error" in entry:
            summary.unreadable += 1
        page.append(entry)
    return page, lines


def read_lines(
    path: str, numbers: list[int], stored: dict[str, dict[str, Any]]
) -> tuple[dict[int, bytes], str | None]:
    """A file's lines by number: each at its stored offset in a plain file, else read through."""
    offsets = {
        int(r["source_line"]): r["source_offset"]
        for r in stored.values()
        if r["source_file"] == path and r.get("source_offset") is not None
    }
    if len(offsets) < len(numbers) or is_gzip(path):
        return lines_at(path, numbers)
    return lines_at_offsets(path, {n: offsets[n] for n in numbers})


def _holds(raw: bytes, session_id: str) -> bool:
    """The line is the session's: its id is the one stored."""
    return guess_session_id(raw) == session_id


def _session_fields(row: dict[str, Any]) -> dict[str, Any]:
    """What a page shows of a stored session: every column but the kept line (shown apart),
    and its players' stored figures."""
    out = {k: _plain(v) for k, v in row.items() if k not in ("line", "players", "session_id")}
    out["players"] = [
        {k: _plain(v) for k, v in p.items() if k not in ("platform", "session_id")}
        for p in row["players"]
    ]
    return out


def _plain(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if value is not None and type(value).__name__ == "Decimal":
        return format(value, "f")
    return value


def _with_band(f: dict[str, Any], book: RuleBook) -> dict[str, Any]:
    """A finding with its band's instrument: title, dates in force, source and confidence."""
    band = next((b for b in book.bands if b.id == f.get("rule")), None)
    instrument = book.instruments.get(band.instrument) if band else None
    if instrument is None:
        return f
    return {
        **f,
        "in_force": {
            "instrument": instrument.id,
            "title": instrument.title,
            "doc_number": instrument.doc_number,
            "from": instrument.effective_from.isoformat(),
            "to": instrument.effective_to.isoformat() if instrument.effective_to else None,
            "source": instrument.source,
            "confidence": instrument.confidence,
            "band_confidence": band.confidence if band else None,
            "disputed": instrument.disputed,
        },
    }


def _masked_finding(f: dict[str, Any], p: Pseudonyms) -> dict[str, Any]:
    masked = p.finding(f)
    masked["fingerprint"] = fingerprint(masked)
    return masked


def _masked_session(s: dict[str, Any], p: Pseudonyms) -> dict[str, Any]:
    ids = {pl["player_id"] for pl in s.get("players", [])}
    names = {pl.get("name") for pl in s.get("players", []) if pl.get("name")}

    def swap(node: Any) -> Any:
        if isinstance(node, dict):
            return {swap(k) if isinstance(k, str) else k: swap(v) for k, v in node.items()}
        if isinstance(node, list):
            return [swap(v) for v in node]
        if isinstance(node, str):
            if node in ids:
                return p.id(node)
            if node in names:
                return p.name(node)
            return p.text(node, ids) if ids and any(i in node for i in ids) else node
        return node

    out = swap({k: v for k, v in s.items() if k not in ("source_file",)})
    out["source_file"] = s.get("source_file")
    out.pop("line_sha256", None)
    return out
