"""JSON 导出: the whole report model as one JSON document."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import msgspec

from compliance.reporting.model import Report

_encoder = msgspec.json.Encoder(decimal_format="number")


def as_dict(report: Report) -> dict[str, Any]:
    """Summary, filters and aggregates; `findings` is left empty for `json_chunks` to fill."""
    return {
        "format": "compliance-report/2",
        "disclaimer": "This report informs; it is not legal advice. 本报告仅供参考，不构成法律意见。",
        "generated_at": report.generated_at.isoformat(),
        "notes": list(report.notes),
        "filters": report.query.describe(),
        "runs": [
            {
                "id": r.id,
                "started_at": r.started_at.isoformat() if r.started_at else None,
                "files": list(r.files),
                "sessions": r.sessions,
                "rejects": r.rejects,
                "finished": r.finished,
                "manifest": r.manifest,
            }
            for r in report.runs
        ],
        "reaudited": {str(run): n for run, n in report.reaudited.items()},
        "headline": report.headline.as_dict(),
        "summary": {
            "sessions": report.sessions,
            "rejects": report.rejects,
            "players": report.players,
            "findings": dict(report.kinds),
            "tiers": dict(report.tiers),
            "review_statuses": dict(report.statuses),
            "waived": report.waived_count,
        },
        "by_jurisdiction": {code: dict(c) for code, c in report.by_place.items()},
        "threshold_lines": [asdict(line) for line in report.lines],
        "near_misses_total": sum(sum(bins) for bins in report.near_miss_bins.values()),
        "near_misses": [
            {
                k: f.get(k)
                for k in (
                    "session_id",
                    "subject",
                    "jurisdiction",
                    "tier",
                    "next_tier",
                    "next_metric",
                    "next_boundary",
                    "margin_to_next",
                    "margin_share",
                )
            }
            for f in report.near_misses
        ],
        "top_rooms": [asdict(e) for e in report.top_rooms],
        "top_owners": [asdict(e) for e in report.top_owners],
        "top_players": [asdict(e) for e in report.top_players],
        "over_time": {month: dict(c) for month, c in report.over_time.items()},
        "integrity_by_game": {game: dict(c) for game, c in report.mismatches.items()},
        "rules": report.rules,
        **({"platform_duties": report.duties} if report.duties is not None else {}),
        "findings": [],
    }


def render_json(report: Report) -> str:
    return "".join(json_chunks(report))


def json_chunks(report: Report) -> Iterator[str]:
    """The document, indented as `msgspec.json.format` would, with every selected
    finding streamed into its last member, most severe first."""
    head = _format(as_dict(report))
    assert head.endswith(_EMPTY)
    yield head[: -len(_EMPTY)] + '"findings": ['
    sep = "\n"
    for finding in report.export():
        yield sep + textwrap.indent(_format(finding), "    ")
        sep = ",\n"
    yield ("\n  ]" if sep == ",\n" else "]") + "\n}\n"


_EMPTY = '"findings": []\n}'


def _format(value: Any) -> str:
    return msgspec.json.format(_encoder.encode(value), indent=2).decode()
