"""The audit use case with a fake unit of work: no database needed."""

from __future__ import annotations

from compliance.errors import LogError
from compliance.service_layer import audit as services
from tests.conftest import SAMPLES
from tests.fakes import FakeUnitOfWork


def test_audit_seeds_rules_once_stores_sessions_and_commits(rule_book):
    uow = FakeUnitOfWork()
    summary = services.audit(uow, [str(SAMPLES / "douniu.jsonl")], services.AuditOptions())
    assert uow.committed
    assert uow.rules.book is not None
    assert summary.sessions == len(uow.runs.sessions) == 8
    assert uow.runs.runs[0]["summary"]["sessions"] == 8


def test_findings_stream_to_the_callback_as_they_are_made(rule_book):
    seen = []
    services.audit(
        FakeUnitOfWork(rule_book),
        [str(SAMPLES / "douniu.jsonl")],
        services.AuditOptions(),
        on_finding=seen.append,
    )
    assert len(seen) == 34
    assert sum(1 for f in seen if f.kind == "integrity") == 1


def test_jurisdiction_fills_in_only_where_the_log_names_none(rule_book, tmp_path):
    line = (SAMPLES / "douniu.jsonl").read_text().splitlines()[0]
    bare = line.replace('"jurisdiction": "430000", ', "")
    path = tmp_path / "x.jsonl"
    path.write_text(bare + "\n" + line.replace("hn-2026-03-01", "named") + "\n")
    uow = FakeUnitOfWork(rule_book)
    services.audit(uow, [str(path)], services.AuditOptions(jurisdiction="hubei"))
    assert uow.runs.sessions[("demo-platform", "hn-2026-03-01")].jurisdiction == "hubei"
    assert uow.runs.sessions[("demo-platform", "named")].jurisdiction == "430000"


def test_as_of_judges_under_the_rules_of_that_date(rule_book):
    uow = FakeUnitOfWork(rule_book)
    services.audit(
        uow,
        [str(SAMPLES / "douniu.jsonl")],
        services.AuditOptions(as_of=__import__("datetime").date(2025, 6, 1)),
    )
    f = uow.runs.sessions[("demo-platform", "hn-2026-03-01")].findings[0]
    assert f.judged_on == "2025-06-01"
    assert "第七十条" in f.statutory_citation


def test_strict_raises_at_the_first_reject(rule_book):
    try:
        services.audit(
            FakeUnitOfWork(rule_book),
            [str(SAMPLES / "bad.jsonl")],
            services.AuditOptions(strict=True),
        )
    except LogError as exc:
        assert ":2 session cut-1" in str(exc)
    else:
        raise AssertionError("strict audit did not stop")


def _tournament(tmp_path, prize, valued=True):
    import json

    session = json.loads((SAMPLES / "douniu.jsonl").read_text().splitlines()[0])
    session.update(tournament=True, prize=prize)
    if not valued:
        del session["point_value"]
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(session, ensure_ascii=False) + "\n")
    return str(path)


def test_a_tournament_of_scores_with_an_organiser_funded_prize_audits_as_exempt(
    rule_book, tmp_path
):
    seen = []
    path = _tournament(tmp_path, {"amount": 5000, "funded_by": "organiser"}, valued=False)
    services.audit(FakeUnitOfWork(rule_book), [path], services.AuditOptions(), seen.append)
    players = [f for f in seen if f.subject.startswith("player:")]
    assert {f.tier for f in players} == {"exempt"}
    assert all("interp-2005-organiser-prize" in f.exemptions[0] for f in players)
    assert [f for f in seen if f.kind == "integrity"] == []


def test_a_tournament_whose_points_have_a_value_is_judged_on_its_stakes(rule_book, tmp_path):
    seen = []
    path = _tournament(tmp_path, {"amount": 5000, "funded_by": "organiser"})
    summary = services.audit(
        FakeUnitOfWork(rule_book), [path], services.AuditOptions(), seen.append
    )
    players = [f for f in seen if f.subject.startswith("player:")]
    assert "exempt" not in {f.tier for f in players}
    assert all(f.exemptions == [] for f in players)
    (claim,) = [f for f in seen if f.kind == "integrity" and f.check == "tournament_in_yuan"]
    assert claim.round == 0 and "worth 1 yuan each" in claim.detail
    assert summary.checks["tournament_in_yuan"] == 1


def test_a_tournament_paid_from_entry_fees_is_classified_on_its_stakes(rule_book, tmp_path):
    seen = []
    path = _tournament(tmp_path, {"amount": 400, "funded_by": "entry_fees", "entry_fee": 100})
    services.audit(FakeUnitOfWork(rule_book), [path], services.AuditOptions(), seen.append)
    players = [f for f in seen if f.subject.startswith("player:")]
    assert {f.tier for f in players} == {"administrative_very_serious"}
    assert {f.value for f in players if f.metric == "single_stake"} == {100}


def test_a_bracket_is_recorded_and_moves_no_money(rule_book, tmp_path):
    import json

    from compliance.logs.reader import read_sessions

    session = json.loads((SAMPLES / "douniu.jsonl").read_text().splitlines()[0])
    del session["point_value"]
    session.update(
        tournament=True,
        prize={"amount": 5000, "funded_by": "organiser"},
        bracket={
            "competition": "2026 春季赛",
            "stage": "八强赛",
            "match": "3",
            "advancing": ["hn2"],
        },
    )
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(session, ensure_ascii=False) + "\n")
    (item,) = read_sessions(str(path))
    assert item.session.bracket.advancing == ["hn2"]
    seen = []
    services.audit(FakeUnitOfWork(rule_book), [str(path)], services.AuditOptions(), seen.append)
    assert {f.tier for f in seen if f.subject.startswith("player:")} == {"exempt"}


def test_an_engine_bug_on_one_session_becomes_a_reject_not_a_crash(rule_book, monkeypatch):
    from dataclasses import replace

    from compliance.games import douniu

    real = douniu.SPEC.tally

    def broken(session, player_ids, options):
        if session.session_id == "hb-family":
            raise KeyError("boom")
        return real(session, player_ids, options)

    monkeypatch.setattr(douniu.GAME, "spec", replace(douniu.SPEC, tally=broken))
    uow = FakeUnitOfWork(rule_book)
    summary = services.audit(uow, [str(SAMPLES / "douniu.jsonl")], services.AuditOptions())
    assert (summary.sessions, summary.rejects) == (7, 1)
    assert (
        uow.runs.rejects[0].reason
        == "internal error replaying it (KeyError: 'boom'); please report"
    )


def test_a_run_leaves_the_garbage_collector_as_it_found_it():
    import gc

    from compliance.service_layer.judging import few_collections

    before = gc.get_threshold()
    with few_collections():
        assert gc.get_threshold()[0] == 200_000
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
