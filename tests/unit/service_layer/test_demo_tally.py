"""The demo's tally of findings, counted from an audit with a fake unit of work."""

from __future__ import annotations

from compliance.domain.findings import IndeterminateFinding, IntegrityFinding
from compliance.service_layer import audit as services
from compliance.service_layer.demo import INDETERMINATE, FindingTally
from tests.conftest import SAMPLES
from tests.fakes import FakeUnitOfWork


def integrity(session_id: str, round_: int, check: str) -> IntegrityFinding:
    return IntegrityFinding(
        session_id=session_id,
        platform="p",
        subject="player:a",
        jurisdiction="430000",
        game="douniu",
        round=round_,
        check=check,
        detail="",
        players=["a"],
    )


def test_the_tally_counts_what_the_audit_found(rule_book):
    tally = FindingTally()
    summary = services.audit(
        FakeUnitOfWork(rule_book),
        [str(SAMPLES / "douniu.jsonl")],
        services.AuditOptions(),
        tally.see,
    )
    players = sum(n for (_, tier), n in tally.by_place.items() if tier != INDETERMINATE)
    organisers = sum(tally.organisers.values())
    assert players + organisers == summary.kinds["threshold"]
    assert sum(tally.integrity.values()) == summary.kinds["integrity"] == 1
    assert "430000" in tally.places() and tally.names["430000"] == "湖南省"


def test_an_injected_anomaly_counts_as_caught_when_an_integrity_finding_names_it():
    tally = FindingTally()
    tally.see(integrity("s1", 3, "settlement_mismatch"))
    tally.see(integrity("s1", 4, "wrong_banker"))
    assert tally.caught([("s1", 3, "settlement_mismatch"), ("s2", 1, "wrong_banker")]) == 1
    assert tally.integrity == {"settlement_mismatch": 1, "wrong_banker": 1}


def test_an_indeterminate_finding_counts_in_its_jurisdictions_row():
    tally = FindingTally()
    tally.see(
        IndeterminateFinding(
            session_id="s1",
            platform="p",
            subject="player:a",
            jurisdiction=None,
            player="a",
            game="douniu",
            missing="point_value",
            reason="",
        )
    )
    assert tally.by_place == {("-", INDETERMINATE): 1}
