"""The report model: pure aggregation of stored facts, no database."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest

from compliance.reporting.json_report import render_json
from compliance.reporting.labels import Labels
from compliance.reporting.model import (
    FindingFact,
    PlayerFact,
    ReportQuery,
    ReportSource,
    SessionFact,
    build,
    near_misses,
    severity,
)

NOW = datetime(2026, 1, 2, tzinfo=UTC)
DAY = date(2025, 12, 1)


def threshold(
    session: str,
    player: str,
    tier: str,
    value=None,
    next_tier=None,
    margin=None,
    boundary=None,
    where="430000",
    rule="hn-2015-general-stake",
) -> dict:
    return {
        "kind": "threshold",
        "session_id": session,
        "platform": "p",
        "subject": f"player:{player}",
        "player": player,
        "jurisdiction": where,
        "jurisdiction_name": "湖南省",
        "game": "douniu",
        "tier": tier,
        "rule": rule,
        "value": value,
        "next_tier": next_tier,
        "margin_to_next": margin,
        "next_boundary": boundary,
        "confidence": "M",
    }


def integrity(session: str, check="settlement_mismatch", game="douniu") -> dict:
    return {
        "kind": "integrity",
        "session_id": session,
        "platform": "p",
        "subject": "session",
        "jurisdiction": "430000",
        "game": game,
        "round": 3,
        "check": check,
        "detail": "u1 claimed 10, rules give 5",
        "players": ["u1"],
    }


def session(sid: str, room="r1", owner="o1", scene=100.0, per_capita=25.0) -> SessionFact:
    return SessionFact("p", sid, "douniu", room, owner, DAY, "430000", 4, scene, per_capita)


def source(findings: list[dict], sessions=None, players=None, book=None) -> ReportSource:
    sessions = sessions or [session("s1")]
    players = players or [PlayerFact("p", "s1", "u1", "王1", None, 20.0, 300.0)]
    facts = [FindingFact(f, DAY, f["game"], "r1", "o1") for f in findings]
    return ReportSource([], sessions, players, facts, rejects=2, book=book)


def test_findings_are_ordered_most_severe_first_with_integrity_after_administrative():
    found = [
        threshold("s1", "u1", "below_threshold"),
        integrity("s1"),
        threshold("s1", "u2", "administrative"),
        threshold("s1", "u3", "criminal"),
    ]
    report = build(source(found), ReportQuery(), NOW)
    assert [f.get("tier") or f["kind"] for f in report.findings] == [
        "criminal",
        "administrative",
        "integrity",
        "below_threshold",
    ]


@pytest.mark.parametrize(
    "finding, rank",
    [
        (threshold("s", "u", "criminal_serious"), 6),
        (threshold("s", "u", "exempt"), 0),
        (integrity("s"), 1.6),
    ],
    ids=["criminal_serious", "exempt", "integrity"],
)
def test_severity_ranks(finding, rank):
    assert severity(finding) == rank


def test_summary_counts_sessions_rejects_and_tiers():
    report = build(
        source([threshold("s1", "u1", "administrative"), integrity("s1")]), ReportQuery(), NOW
    )
    assert (report.sessions, report.rejects, report.players) == (1, 2, 1)
    assert report.tiers == {"administrative": 1}
    assert report.kinds == {"threshold": 1, "integrity": 1}


def test_near_misses_are_within_a_fifth_of_the_next_line_closest_first():
    found = [
        threshold("s1", "u1", "administrative", 45, "administrative_serious", 5, 50),
        threshold("s1", "u2", "administrative", 21, "administrative_serious", 29, 50),
        threshold("s1", "u3", "below_threshold", 19, "administrative", 1, 20),
    ]
    assert [(f["player"], f["margin_share"]) for f in near_misses(found)] == [
        ("u3", 0.05),
        ("u1", 0.1),
    ]


def test_top_players_rooms_and_owners_by_capital_with_their_worst_tier():
    sessions = [session("s1", "r1", "o1", 100.0), session("s2", "r2", "o1", 500.0)]
    players = [
        PlayerFact("p", "s1", "u1", "王1", None, 5.0, 40.0),
        PlayerFact("p", "s2", "u1", "王1", None, 5.0, 70.0),
        PlayerFact("p", "s2", "u2", "", None, 50.0, 300.0),
    ]
    report = build(
        source([threshold("s2", "u2", "administrative_serious")], sessions, players),
        ReportQuery(),
        NOW,
    )
    assert [(e.label, e.sessions, e.capital, e.top_tier) for e in report.top_players] == [
        ("u2", 1, 300.0, "administrative_serious"),
        ("王1 (u1)", 2, 110.0, None),
    ]
    assert [(e.label, e.capital) for e in report.top_rooms] == [("r2", 500.0), ("r1", 100.0)]
    assert [(e.label, e.sessions, e.capital) for e in report.top_owners] == [("o1", 2, 600.0)]


def test_mismatches_are_counted_by_game_and_check():
    found = [integrity("s1"), integrity("s1", "wrong_banker"), integrity("s1", game="chexuan")]
    report = build(source(found), ReportQuery(), NOW)
    assert report.mismatches == {
        "chexuan": {"settlement_mismatch": 1},
        "douniu": {"settlement_mismatch": 1, "wrong_banker": 1},
    }
    assert report.over_time == {"2025-12": {"integrity": 3}}


def test_threshold_lines_come_from_the_rule_bands_in_force(rule_book):
    report = build(source([], book=rule_book), ReportQuery(), NOW)
    hunan = {(x.metric, x.value, x.tier) for x in report.lines if x.jurisdiction == "430000"}
    assert ("single_stake", 20.0, "administrative") in hunan
    assert ("single_stake", 100.0, "administrative_very_serious") in hunan
    assert all(x.value > 0 for x in report.lines)


def test_rules_cited_carry_their_instrument_and_confidence(rule_book):
    report = build(
        source([threshold("s1", "u1", "administrative")], book=rule_book), ReportQuery(), NOW
    )
    (rule,) = report.rules
    assert (rule["rule"], rule["instrument"], rule["confidence"]) == (
        "hn-2015-general-stake",
        "hn-2015-discretion",
        "M",
    )


def test_tier_filter_splits_tiers_from_kinds():
    query = ReportQuery(tiers=("administrative_serious", "integrity", "administrative"))
    assert (query.min_tier, query.kinds) == ("administrative", ("integrity",))


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("zh", "赌资较大 administrative"),
        ("en", "administrative (赌资较大)"),
    ],
    ids=["chinese-first", "english-first"],
)
def test_labels_put_the_main_language_first(lang, expected):
    assert Labels(lang).tier("administrative") == expected


def test_labels_without_a_cjk_font_are_english_only():
    assert Labels("zh", cjk=False).tier("administrative") == "administrative"


def test_english_counts_take_the_singular_for_one():
    en = Labels("en", cjk=False)
    assert en("subjects", player=0, owner=1, platform=2) == "0 players, 1 room owner, 2 platforms"
    assert en("tampered", rounds=1, findings=1) == "1 tampered round (1 integrity finding)"
    assert en("rejects_line", n="1,000") == "1,000 lines rejected"


def test_a_long_report_keeps_the_most_severe_to_show_and_exports_them_all(monkeypatch):
    from compliance.reporting import model, tally

    monkeypatch.setattr(model, "SHOWN", 5)
    monkeypatch.setattr(tally, "NEAR_KEPT", 2)
    found = [
        threshold(
            f"s{i}",
            "u1",
            "below_threshold",
            value=i,
            next_tier="administrative",
            margin=1,
            boundary=20,
        )
        for i in range(40)
    ]
    found.insert(17, threshold("s99", "u9", "criminal", value=3))
    facts = (FindingFact(f, DAY, "douniu", "r1", "o1") for f in found)  # read once, as from a DB
    report = build(
        ReportSource(
            [],
            [session("s1")],
            [],
            facts,
            rejects=0,
            ordered=lambda: iter([FindingFact(f, DAY, "douniu", "r1", "o1") for f in found]),
        ),
        ReportQuery(),
        NOW,
    )
    assert report.total == 41
    assert [f["session_id"] for f in report.findings] == ["s99", "s39", "s38", "s37", "s36"]
    assert len(report.near_misses) == 2
    assert sum(sum(bins) for bins in report.near_miss_bins.values()) == 40
    assert len(list(report.export())) == 41
    answer = json.loads(render_json(report))
    assert (answer["near_misses_total"], len(answer["near_misses"])) == (40, 2)
    assert len(answer["findings"]) == 41


def test_the_headline_counts_each_subject_once_at_its_worst_tier_and_rounds_once():
    owner = dict(threshold(None, "x", "criminal", where="420000"), subject="owner:o1", player=None)
    found = [
        threshold("s1", "u1", "administrative_very_serious"),
        threshold("s2", "u1", "criminal"),
        threshold("s1", "u2", "administrative_very_serious"),
        owner,
        threshold("s1", "u3", "below_threshold"),
        threshold("s1", "u4", "exempt"),
        threshold("s1", "u5", "administrative"),
        integrity("s1"),
        integrity("s1", check="illegal_action"),
        integrity("s2"),
    ]
    h = build(source(found), ReportQuery(), NOW).headline
    assert h.criminal == {"player": 1, "owner": 1, "platform": 0}
    assert h.very_serious == {"player": 1, "owner": 0, "platform": 0}
    assert (h.criminal_places, h.very_serious_places) == (("420000", "430000"), ("430000",))
    assert (h.tampered_rounds, h.integrity, h.rejects) == (2, 3, 2)
    assert (h.penalised, h.below, h.exempt) == (5, 1, 1)


def test_every_integrity_and_serious_finding_is_listed_past_the_findings_table(monkeypatch):
    from compliance.reporting import model

    monkeypatch.setattr(model, "SHOWN", 2)
    found = [threshold(f"s{i}", "u1", "administrative", value=i) for i in range(10)]
    found += [integrity(f"s{i}") for i in range(4)]
    found += [threshold("s1", "u2", "criminal")]
    report = build(source(found), ReportQuery(), NOW)
    assert len(report.findings) == 2
    assert [f["session_id"] for f in report.integrity] == ["s0", "s1", "s2", "s3"]
    assert [f["tier"] for f in report.serious] == ["criminal"]


def test_a_near_miss_names_the_metric_and_line_its_margin_is_measured_on():
    from compliance.reporting.html import render_html

    near = dict(
        threshold("s1", "u1", "administrative", value=25, next_tier="administrative_serious"),
        metric="single_stake",
        boundary="single_stake ≥ 20 and ≤ 50",
        next_metric="session_win_loss",
        next_boundary=5000,
        margin_to_next=225,
    )
    report = build(source([near]), ReportQuery(), NOW)
    table = render_html(report, cjk_family=None).split('<table id="near-table">')[1]
    row = table.split("</table>")[0].split('<tr class="administrative">')[1]
    assert "single_stake = 25 (single_stake ≥ 20 and ≤ 50)" in row
    assert '<td class="margin-on">session_win_loss 5,000</td><td class="num">225</td>' in row
    listed = json.loads(render_json(report))["near_misses"][0]
    assert (listed["next_metric"], listed["next_boundary"], listed["margin_to_next"]) == (
        "session_win_loss",
        5000,
        225,
    )
