"""构成要件 stored: owners' elements, fixed fees, the venue default and escaped penalties (issue 18)."""

from __future__ import annotations

import json
from decimal import Decimal

from sqlalchemy import select

from compliance.db.engine import make_engine
from compliance.db.finding_rows import rejoined
from compliance.db.models import (
    AuditRunRow,
    FindingLineRow,
    FindingRow,
    SessionRow,
    WindowFindingRow,
    table_of,
)
from compliance.domain.classifier import ClassifierOptions
from tests.integration.test_windows import audit, by_subject, room, write
from tests.sample_logs import douniu_rounds, session_dict


def rooms(owner: str, fee: int, basis: str, n: int = 6) -> list[dict]:
    return [room(k, owner, f"2026-03-0{1 + k}", fee=fee, basis=basis) for k in range(n)]


def stored_window(url: str, subject: str) -> dict:
    with make_engine(url).connect() as conn:
        t = table_of(WindowFindingRow)
        return conn.execute(select(t.c.payload).where(t.c.subject == subject)).scalar_one()


def test_a_fixed_fee_owner_of_24_players_is_stored_not_criminal_under_art_9(any_db_url, tmp_path):
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", rooms("tea", 10, "fixed")))
    tea = by_subject(windows)["owner:tea"]
    assert (tea.tier, tea.figures["window_participants"]) == ("below_threshold", 24)
    stored = stored_window(any_db_url, "owner:tea")
    assert stored["tier"] == "below_threshold"
    assert stored["elements_missing"] == tea.elements_missing
    assert "interp-2005-room-fee" in stored["elements_missing"][0]
    assert "fixed room fees of 60.00 yuan" in stored["elements_missing"][0]
    with make_engine(any_db_url).connect() as conn:
        fees = conn.execute(select(table_of(SessionRow).c.fixed_fee)).scalars().all()
    assert [Decimal(str(f)) for f in fees] == [Decimal(10)] * 6


def test_a_criminal_owners_elements_are_stored_with_the_finding(any_db_url, tmp_path):
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", rooms("boss", 10, "stakes")))
    boss = by_subject(windows)["owner:boss"]
    assert (boss.tier, boss.metric) == ("criminal", "window_participants")
    stored = stored_window(any_db_url, "owner:boss")
    assert stored["elements"] == boss.elements
    assert stored["elements"][1].startswith("以营利为目的: 抽头 60.00 yuan")
    assert stored["elements_missing"] == boss.elements_missing != []


def test_the_runs_venue_default_is_stored_with_the_run_and_judges_the_sessions(
    any_db_url, tmp_path
):
    named = room(9, "x", "2026-03-01")
    named["venue"] = "online"
    sessions = [room(8, "x", "2026-03-01"), named]
    options = ClassifierOptions(venue="private_home")
    audit(any_db_url, write(tmp_path / "a.jsonl", sessions), classifier=options)
    with make_engine(any_db_url).connect() as conn:
        run_options = conn.execute(select(table_of(AuditRunRow).c.options)).scalar_one()
        s = table_of(SessionRow)
        venues = dict(conn.execute(select(s.c.session_id, s.c.venue)).all())
    assert run_options["venue"] == "private_home"
    assert venues == {"x-008": "private_home", "x-009": "online"}


def test_an_exempt_finding_is_stored_without_a_penalty_and_with_the_one_it_escaped(
    any_db_url, tmp_path
):
    ids = ["a", "b", "c"]
    kin = session_dict(
        "kin-1",
        "douniu",
        [{"id": p, "kin_group": "王家"} for p in ids],
        douniu_rounds(1, ids, 10, base=100, grab=4, bets=[3]),
        jurisdiction="420000",
        point_value=1,
    )
    audit(any_db_url, write(tmp_path / "a.jsonl", [kin]))
    with make_engine(any_db_url).connect() as conn:
        f, lines = table_of(FindingRow), table_of(FindingLineRow)
        rows = conn.execute(
            select(f.c.payload, lines.c.payload).join(lines, lines.c.id == f.c.line_id)
        ).all()
    whole = [rejoined(json.loads(o) if isinstance(o, str) else o, line) for o, line in rows]
    exempt = [w for w in whole if w["tier"] == "exempt" and w.get("would_be")]
    assert exempt
    for w in exempt:
        assert (w["penalty"], w["statutory_penalty"]) == (None, None)
        assert w["escaped_statutory_penalty"]
