"""回测: moving 湖南's single-stake line from 50 to 100 changes exactly the tiers a re-audit changes."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import PlayerMetricsRow, WindowFindingRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.logs.reader import Reject
from compliance.service_layer import audit as services
from compliance.service_layer import backtest
from compliance.service_layer import rules as rules_service
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.rule_files import moved_line

SETTINGS = [
    "hn-2015-general-stake.single_stake.max=100",
    "hn-2015-general-serious.single_stake.min=100",
]


@pytest.fixture(scope="module")
def hunan_log(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("whatif") / "hunan.jsonl")
    write_log(
        SimulationSpec(
            games=("yuhuan", "guandan", "douniu", "chihuoguo"),
            sessions=120,
            seed=11,
            anomalies=0.0,
            jurisdictions=("430000",),
        ),
        path,
    )
    return path


def audited(url: str, log: str):
    engine = make_engine(url)
    ensure_schema(engine)
    services.audit(SqlUnitOfWork(engine), [log], services.AuditOptions())
    return engine


def reaudit_tiers(book, log: str) -> dict[tuple[str, str], str]:
    auditor = services.make_auditor(book, services.AuditOptions())
    return {
        (s.session_id, f.player): f.tier
        for s in auditor.audit_file(log)
        if not isinstance(s, Reject)
        for f in s.findings
        if f.kind == "threshold" and f.player
    }


def stored_tiers(engine) -> list:
    with engine.connect() as conn:
        return conn.execute(
            select(
                PlayerMetricsRow.session_id, PlayerMetricsRow.player_id, PlayerMetricsRow.tier
            ).order_by(PlayerMetricsRow.session_id, PlayerMetricsRow.player_id)
        ).all()


def test_whatif_lists_exactly_the_tiers_a_direct_reaudit_changes(
    any_db_url, hunan_log, rule_book, tmp_path
):
    engine = audited(any_db_url, hunan_log)
    stored = stored_tiers(engine)
    before = reaudit_tiers(rule_book, hunan_log)
    after = reaudit_tiers(rules_service.with_patch(rule_book, [moved_line(tmp_path)]), hunan_log)
    expected = {
        (sid, pid, before[sid, pid], after[sid, pid])
        for sid, pid in before
        if before[sid, pid] != after[sid, pid]
    }

    by_setting = backtest.whatif(SqlUnitOfWork(engine), backtest.edit_with([], SETTINGS))
    by_file = backtest.whatif(SqlUnitOfWork(engine), backtest.edit_with([moved_line(tmp_path)], []))

    assert len(expected) > 5
    for result in (by_setting, by_file):
        assert {(c.session_id, c.player, c.before, c.after) for c in result.changes} == expected
        assert result.sessions == 120
    assert stored_tiers(engine) == stored


def window_tiers(engine) -> dict[str, str]:
    with engine.connect() as conn:
        return dict(conn.execute(select(WindowFindingRow.subject, WindowFindingRow.tier)).all())


def test_whatif_rejudges_the_windows_as_an_audit_under_the_changed_rules_would(
    any_db_url, hunan_log, rule_book, tmp_path
):
    moved = [
        "interp-2005-gathering.window_rake.min=100",
        "interp-2005-gathering.window_participants.min=8",
    ]
    engine = audited(any_db_url, hunan_log)
    result = backtest.whatif(SqlUnitOfWork(engine), backtest.edit_with([], moved))

    changed = backtest.edit_with([], moved)(rule_book)
    other = make_engine(f"sqlite:///{tmp_path / 'changed.db'}")
    ensure_schema(other)
    with SqlUnitOfWork(other) as uow:
        uow.rules.save(changed, "tester", "the moved window lines")
        uow.commit()
    services.audit(SqlUnitOfWork(other), [hunan_log], services.AuditOptions())
    before, after = window_tiers(engine), window_tiers(other)
    expected = {
        (s, before.get(s, "none"), after.get(s, "none"))
        for s in before.keys() | after.keys()
        if before.get(s, "none") != after.get(s, "none")
    }

    assert len(expected) >= 3
    assert {(w.subject, w.before, w.after) for w in result.window_changes} == expected
    assert result.windows == len(before.keys() | after.keys())


def test_rules_exported_and_imported_into_a_fresh_database_classify_alike(
    sqlite_url, hunan_log, tmp_path
):
    first = audited(sqlite_url, hunan_log)
    rules_service.export(SqlUnitOfWork(first), tmp_path / "rules")
    fresh = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    ensure_schema(fresh)
    rules_service.import_files(SqlUnitOfWork(fresh), [tmp_path / "rules"], "copy", "tester")
    assert rules_service.verify(SqlUnitOfWork(fresh)).ok
    services.audit(SqlUnitOfWork(fresh), [hunan_log], services.AuditOptions())
    assert stored_tiers(fresh) == stored_tiers(first)
