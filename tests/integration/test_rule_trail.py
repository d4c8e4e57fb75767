"""变更记录: seeds and imports leave a hash-chained trail; edits behind the tool's back fail verify."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text, update

from compliance import ruledata
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import BandRow, RuleChangeRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.rulediff import diff_books
from compliance.errors import RulesError
from compliance.service_layer import rules as rules_service
from compliance.service_layer import seeding
from tests.rule_files import hunan_with


def seeded(url: str):
    engine = make_engine(url)
    ensure_schema(engine)
    seeding.seed(SqlUnitOfWork(engine))
    return engine


def entries(engine) -> int:
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(RuleChangeRow)).scalar_one()


def test_a_seed_records_every_row_once_and_a_second_seed_nothing(any_db_url, rule_book):
    engine = seeded(any_db_url)
    first = entries(engine)
    seeding.seed(SqlUnitOfWork(engine))
    assert first == entries(engine) > len(rule_book.bands)
    verdict = rules_service.verify(SqlUnitOfWork(engine))
    assert verdict.ok and verdict.entries == verdict.rows == first


def test_a_band_edited_in_the_database_fails_verify_naming_the_row(any_db_url):
    engine = seeded(any_db_url)
    with engine.begin() as conn:
        conn.execute(
            update(BandRow).where(BandRow.id == "hn-2015-general-stake").values(penalty="处警告")
        )
    verdict = rules_service.verify(SqlUnitOfWork(engine))
    assert verdict.problems == (
        "threshold_bands hn-2015-general-stake: changed outside the tool (penalty: trail "
        "'处五日以下拘留或者五百元以下罚款', database '处警告')",
    )


def test_an_edited_trail_entry_breaks_the_chain(any_db_url):
    engine = seeded(any_db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE rule_changes SET reason = 'nothing to see' WHERE id = 5"))
    verdict = rules_service.verify(SqlUnitOfWork(engine))
    assert len(verdict.problems) == 1
    assert verdict.problems[0].endswith("hash does not match its content (entry edited)")


def test_an_import_records_who_why_and_the_row_before_and_after(any_db_url, tmp_path):
    engine = seeded(any_db_url)
    before = entries(engine)
    path = hunan_with(
        tmp_path,
        '{ metric = "single_stake", min = 20, max = 50 }',
        '{ metric = "single_stake", min = 20.5, max = 50 }',
    )
    uow = SqlUnitOfWork(engine)
    result = rules_service.import_files(uow, [path], "test: half a yuan more", actor="tester")
    assert [c.key for c in result.changes] == ["hn-2015-general-stake"]
    assert entries(engine) == before + 1
    (last,) = rules_service.history(uow, limit=1)
    assert (last["actor"], last["reason"], last["action"], last["row_key"]) == (
        "tester",
        "test: half a yuan more",
        "update",
        "hn-2015-general-stake",
    )
    assert last["before"]["condition"]["any"][0]["min"] == 20
    assert last["after"]["condition"]["any"][0]["min"] == 20.5
    assert rules_service.verify(uow).ok


def test_an_import_that_brings_an_overlap_stores_nothing(any_db_url, tmp_path):
    engine = seeded(any_db_url)
    before = entries(engine)
    path = hunan_with(
        tmp_path,
        '{ metric = "single_stake", min = 20, max = 50 }',
        '{ metric = "single_stake", min = 20, max = 60 }',
    )
    with pytest.raises(RulesError, match="^refused: overlap: hn-2015-general-stake, "):
        rules_service.import_files(SqlUnitOfWork(engine), [path], "overlap")
    assert entries(engine) == before


def test_export_from_the_database_loads_back_as_the_same_rules(any_db_url, rule_book, tmp_path):
    engine = seeded(any_db_url)
    rules_service.export(SqlUnitOfWork(engine), tmp_path)
    assert diff_books(rule_book, ruledata.load_book(tmp_path)) == []
