"""The 公安部 2005 notice's 三 (一年内曾因赌博受处罚 → 可以从重) is an aggravation from 2006-03-01
to 2025-12-31 only: the 2025 law's 第二十二条（四） takes its place from 2026-01-01."""

from __future__ import annotations

import json
from datetime import date

import pytest

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.findings import ThresholdFinding
from compliance.domain.ruleset import Resolver
from compliance.service_layer import audit as services
from tests.conftest import SAMPLES

NOTICE = "mps-2005-repeat: 一年内曾因赌博受过处罚的，可以从重处罚 (prior {prior}; 三)"


def _hn2_on(day: str, tmp_path) -> str:
    """The sample's 湖南 session (hn2 reaches 赌资较大), played on `day`."""
    text = (SAMPLES / "douniu.jsonl").read_text(encoding="utf-8")
    raw = next(json.loads(line) for line in text.splitlines() if '"hn-2026-03-01"' in line)
    raw["session_id"] = f"hn-{day}"
    raw["started_at"] = f"{day}T20:00:00+08:00"
    raw.pop("ended_at", None)
    path = tmp_path / f"{day}.jsonl"
    path.write_text(json.dumps(raw, ensure_ascii=False) + "\n", encoding="utf-8")
    return str(path)


def _aggravations(url: str, path: str, prior: date) -> list[str]:
    engine = make_engine(url)
    ensure_schema(engine)
    found: list = []
    services.audit(
        SqlUnitOfWork(engine),
        [path],
        services.AuditOptions(priors={("demo-platform", "hn2"): (prior,)}),
        found.append,
    )
    engine.dispose()
    (hn2,) = [f for f in found if isinstance(f, ThresholdFinding) and f.subject == "player:hn2"]
    assert hn2.tier != "below_threshold"
    return hn2.aggravations


def test_a_prior_eight_months_before_a_2024_session_is_the_notices_aggravation(
    any_db_url, tmp_path
):
    prior = date(2023, 10, 1)
    assert _aggravations(any_db_url, _hn2_on("2024-06-01", tmp_path), prior) == [
        NOTICE.format(prior="2023-10-01")
    ]


def test_the_same_prior_before_a_2026_session_is_the_2025_laws_and_not_the_notices(
    any_db_url, tmp_path
):
    prior = date(2025, 10, 1)
    assert _aggravations(any_db_url, _hn2_on("2026-06-01", tmp_path), prior) == [
        "zhian-2025-repeat: 一年以内曾受过治安管理处罚的，从重处罚 (prior 2025-10-01; 第二十二条（四）)"
    ]


@pytest.mark.parametrize(
    ("day", "listed"),
    [("2006-02-28", False), ("2006-03-01", True), ("2025-12-31", True), ("2026-01-01", False)],
)
def test_the_notices_row_is_in_force_from_2006_through_2025(rule_book, day, listed):
    rules = Resolver(rule_book).ruleset("430000", date.fromisoformat(day))
    assert ("mps-2005-repeat" in {a.id for a in rules.aggravations}) is listed
