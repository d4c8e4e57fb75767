"""报告: build a report of stored audit results and render it.

Takes the unit of work: its reports repository reads the rows, the pure
model aggregates them, a renderer writes the format asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from compliance.domain.pseudonym import Pseudonyms
from compliance.domain.ruleset import Resolver
from compliance.reporting.csv_report import csv_chunks
from compliance.reporting.duties import duty_section
from compliance.reporting.html import render_html
from compliance.reporting.json_report import json_chunks
from compliance.reporting.markdown import render_markdown
from compliance.reporting.model import Report, ReportQuery, build
from compliance.service_layer.unit_of_work import UnitOfWork

T = TypeVar("T")

FORMATS = ("html", "csv", "json", "md")
SUFFIX = {"html": ".html", "csv": ".csv", "json": ".json", "md": ".md"}


def make_report(
    uow: UnitOfWork,
    query: ReportQuery,
    run: int | str | None = "latest",
    on_total: Callable[[int | None], None] = lambda n: None,
    on_session: Callable[[], object] = lambda: None,
    pseudonyms: Pseudonyms | None = None,
) -> Report:
    """报告: the stored run (a number, "latest", or None for every run) under the filters.
    `on_total` is told how many sessions are selected, `on_session` called as each is read."""
    with uow:
        if run == "latest":
            run = None if (query.since or query.until) else uow.reports.latest_run()
        query = replace(query, run=int(run) if run is not None else None)
        if query.jurisdiction:
            code = _resolve(uow, query.jurisdiction)
            query = replace(query, jurisdiction=code, jurisdictions=uow.reports.descendants(code))
        source = uow.reports.fetch(query)
        on_total(source.session_total)
        source = replace(
            source,
            sessions=_counted(source.sessions, on_session),
            waivers=uow.review.waivers(),
            reviews=uow.review.reviews(),
        )
        report = build(source, query, datetime.now(UTC), pseudonyms)
        if query.run is not None:
            statuses = uow.duties.statuses(query.run)
            if statuses is not None:
                report.duties = duty_section(
                    uow.duties.findings(query.run), statuses, uow.duties.load()
                )
        return report


def _counted(items: Iterable[T], tick: Callable[[], object]) -> Iterator[T]:
    for item in items:
        yield item
        tick()


def chunks(report: Report, fmt: str, lang: str = "zh") -> Iterator[str]:
    """The rendered report in pieces: CSV and JSON stream every finding from the database."""
    if fmt == "csv":
        return csv_chunks(report)
    if fmt == "json":
        return json_chunks(report)
    return iter([render_html(report, lang) if fmt == "html" else render_markdown(report, lang)])


def render(report: Report, fmt: str, lang: str = "zh") -> str:
    return "".join(chunks(report, fmt, lang))


def write_report(report: Report, fmt: str, path: str | Path, lang: str = "zh") -> Path:
    target = Path(path)
    with target.open("w", encoding="utf-8") as out:
        for piece in chunks(report, fmt, lang):
            out.write(piece)
    return target


def _resolve(uow: UnitOfWork, name: str) -> str:
    if not uow.rules.has_any():
        return name
    return Resolver(uow.rules.load()).lookup(name).code
