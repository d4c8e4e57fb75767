"""再犯: repeat offending that changes the tier, as bands fed by --priors (prior_penalties)."""

from __future__ import annotations

from datetime import date

from compliance.domain.classifier import ClassifierOptions
from tests.integration.test_windows import audit, by_subject, room, write


def session_tiers(url, path, **options):
    from compliance.db.engine import ensure_schema, make_engine
    from compliance.db.unit_of_work import SqlUnitOfWork
    from compliance.service_layer import audit as services

    engine = make_engine(url)
    ensure_schema(engine)
    found = []
    services.audit(SqlUnitOfWork(engine), [path], services.AuditOptions(**options), found.append)
    return {(f.subject, f.session_id): f for f in found if f.session_id and f.kind == "threshold"}


def test_chongqing_gambling_within_six_months_of_a_penalty_is_serious(any_db_url, tmp_path):
    """Old code: the repeat rule was an aggravation only; the tier stayed administrative."""
    ids = ["cq-a", "cq-b", "cq-c", "cq-d"]
    path = write(
        tmp_path / "a.jsonl", [room(1, "o", "2026-03-31", where="500000", base=20, players=ids)]
    )
    plain = session_tiers(any_db_url, path, window_days=0)
    a = next(f for (s, _), f in plain.items() if s == "player:cq-a")
    assert a.tier == "administrative"
    recent = {("p1", "cq-a"): (date(2025, 9, 30),)}
    again = session_tiers(any_db_url, path, window_days=0, priors=recent)
    a = next(f for (s, _), f in again.items() if s == "player:cq-a")
    assert (a.tier, a.rule, a.metric) == (
        "administrative_serious",
        "cq-2006-repeat",
        "prior_penalties",
    )
    stale = {("p1", "cq-a"): (date(2025, 9, 29),)}
    later = session_tiers(any_db_url, path, window_days=0, priors=stale)
    assert next(f for (s, _), f in later.items() if s == "player:cq-a").tier == "administrative"


def test_jiangsu_unattributed_repeat_within_a_year_is_detention(any_db_url, tmp_path):
    ids = ["js-a", "js-b", "js-c", "js-d"]
    at_home = room(2, "o", "2026-03-31", where="320000", base=120, players=ids)
    at_home["venue"] = "private_home"  # track B is acquaintances' offline play
    path = write(tmp_path / "a.jsonl", [at_home])
    versions = ClassifierOptions(versions={"js-gambling-guidance": "js-unattributed-track-b"})
    priors = {("p1", p): (date(2025, 4, 1),) for p in ids}
    found = session_tiers(any_db_url, path, window_days=0, priors=priors, classifier=versions)
    repeats = [f for f in found.values() if f.rule == "js-unattr-b-repeat"]
    assert repeats and all(f.penalty == "处五日以下拘留" and f.confidence == "L" for f in repeats)


def test_heilongjiang_provider_penalised_within_a_year_is_serious(any_db_url, tmp_path):
    path = write(
        tmp_path / "a.jsonl",
        [room(3, "hl-boss", "2026-03-31", where="230000", fee=50, basis="stakes")],
    )
    _, windows = audit(any_db_url, path)
    assert by_subject(windows)["owner:hl-boss"].rule != "hl-2019-provider-repeat"
    priors = {("p1", "hl-boss"): (date(2025, 4, 1),)}
    _, windows = audit(any_db_url, path, priors=priors)
    boss = by_subject(windows)["owner:hl-boss"]
    assert (boss.tier, boss.rule, boss.confidence) == (
        "administrative_serious",
        "hl-2019-provider-repeat",
        "M",
    )
