"""构成要件: criminal lines need 以营利为目的 besides a figure; bands test the venue (issue 18, 1)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from compliance.domain.classifier import Classifier
from compliance.domain.elements import venue_of
from compliance.domain.ruleset import Resolver
from compliance.domain.windows import WindowFigures, judge_window
from tests.builders import figures, session

END = date(2026, 3, 1)


@pytest.fixture(scope="module")
def classifier(rule_book):
    return Classifier(Resolver(rule_book))


def owner(
    *,
    participants: int = 5,
    capital: float = 1000,
    rake: float = 0,
    fixed_fee: float = 0,
    venues: dict[str, int] | None = None,
) -> WindowFigures:
    return WindowFigures(
        kind="owner",
        id="o1",
        platform="p1",
        jurisdiction="430000",
        start=date(2025, 3, 1),
        end=END,
        sessions=10,
        capital=Decimal(str(capital)),
        rake=Decimal(str(rake)),
        fixed_fee=Decimal(str(fixed_fee)),
        participants=participants,
        venues=venues or {"online": 10},
    )


def test_an_owner_with_only_a_fixed_room_fee_is_not_criminal_on_headcount_under_art_9(
    classifier,
):
    f = judge_window(classifier, owner(participants=27, fixed_fee=120))
    assert f.tier == "below_threshold"
    (why,) = f.elements_missing
    assert why.startswith(
        "interp-2005-gathering (criminal) not applied: 以营利为目的 not shown: only fixed room "
        "fees of 120 yuan (owner.room_fee, fee_basis fixed); interp-2005-room-fee: "
        "提供棋牌室等娱乐场所只收取正常的场所和服务费用的经营行为等，不以赌博论处"
    )
    assert why.endswith(
        "(2005 interpretation 第九条 applied: text confidence H, reading reading-art9-fixed-fee "
        "confidence M)"
    )


def test_the_other_reading_of_art_9_makes_a_fixed_fee_show_profit(rule_book):
    versions = {"room-fee-reading": "reading-fixed-fee-profit"}
    f = judge_window(
        Classifier(Resolver(rule_book, versions)), owner(participants=27, fixed_fee=120)
    )
    assert (f.tier, f.rule) == ("criminal", "interp-2005-gathering")
    assert f.elements[1] == (
        "以营利为目的: only fixed room fees of 120 yuan (owner.room_fee, fee_basis fixed), read as "
        "profit under reading-fixed-fee-profit (rule version room-fee-reading, confidence L)"
    )


@pytest.mark.parametrize(
    "figures_", [{"participants": 40}, {"capital": 900000}], ids=["headcount", "capital"]
)
def test_an_owner_who_takes_nothing_is_not_criminal(classifier, figures_):
    f = judge_window(classifier, owner(**figures_))
    assert f.tier == "below_threshold"
    assert any(
        "以营利为目的 not shown: the owner took no rake and no room fee" in line
        for line in f.elements_missing
    )


def test_a_criminal_owner_names_the_figure_the_purpose_and_what_a_log_cannot_show(classifier):
    f = judge_window(classifier, owner(participants=27, rake=64))
    assert (f.tier, f.rule) == ("criminal", "interp-2005-gathering")
    assert f.elements == [
        "figure: window_participants ≥ 20 (value 27; distinct players[].id of the window's "
        "sessions)",
        "以营利为目的: 抽头 64 yuan in the window (rounds[].rake, and owner.room_fee where "
        "fee_basis is stakes or results)",
    ]
    assert f.elements_missing == [
        "组织: that the owner gathered the players, not only hosted the room, is not in a log "
        "(read from owner.id)"
    ]


def test_the_online_opinion_judges_online_rooms_and_names_the_venue(classifier):
    f = judge_window(classifier, owner(capital=400000, rake=2, venues={"online": 9}))
    assert (f.tier, f.rule) == ("criminal_serious", "online-2010-serious-owner")
    assert f.elements[-1].startswith("venue: online (9 of 9 sessions; session.venue")
    assert f.elements_missing[0].startswith("开设赌场's form (建立赌博网站并接受投注")


def test_an_offline_room_is_judged_under_the_2005_interpretation_not_the_online_opinion(
    classifier,
):
    f = judge_window(classifier, owner(capital=400000, rake=2, venues={"private_home": 9}))
    assert (f.tier, f.rule) == ("criminal", "interp-2005-gathering")
    assert f.next_rule is None


def test_a_window_takes_the_venue_of_most_of_its_sessions_and_a_tie_goes_online():
    assert venue_of({"private_home": 3, "online": 2}) == "private_home"
    assert venue_of({"private_home": 2, "online": 2}) == "online"
    assert venue_of({}) == "online"


def test_jiangsu_judges_an_online_session_on_track_a(classifier):
    (f,) = classifier.classify(session(figures(capital=150), where="320000"))
    assert (f.tier, f.rule) == ("administrative", "js-2010-a-fine")


def test_jiangsu_judges_a_session_at_home_on_track_b(classifier):
    (f,) = classifier.classify(
        replace(session(figures(capital=150), where="320000"), venue="private_home")
    )
    assert (f.tier, f.next_rule) == ("below_threshold", "js-2010-b-fine")


def test_an_exempt_finding_carries_no_penalty_but_the_one_it_escaped(classifier):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b", "c")]
    findings = classifier.classify(
        session(*players, where="hubei", kin="王家", game_class="mahjong")
    )
    f = findings[0]
    assert (f.tier, f.would_be) == ("exempt", "administrative_serious")
    assert (f.penalty, f.statutory_penalty) == (None, None)
    assert f.escaped_penalty and f.escaped_statutory_penalty
    assert f.escaped_statutory_penalty.startswith("情节严重的")


@pytest.mark.parametrize(
    ("written", "judged"),
    [(None, "online"), ("unknown", "online"), ("private_home", "private_home")],
    ids=["absent", "unknown", "private_home"],
)
def test_a_sessions_venue_is_as_logged_or_the_runs_default(written, judged):
    from compliance.logs.schema import session_schema
    from compliance.service_layer.judging import venue_of as session_venue
    from tests.builders import session_of

    s = session_of("douniu", [], ["a", "b"])
    s.venue = written
    assert session_venue(s, "online") == judged
    assert session_venue(s, "vehicle") == (judged if written == "private_home" else "vehicle")
    props = session_schema()["$defs"]["Session"]["properties"]
    assert props["venue"]["default"] is None


def test_a_band_naming_an_unknown_venue_is_refused():
    from compliance.domain.rules import RuleBook
    from compliance.errors import RulesError
    from compliance.ruledata import add_jurisdiction_file

    doc = {
        "jurisdiction": {"code": "990000", "name_zh": "测试", "level": "province"},
        "band": [
            {
                "id": "b1",
                "instrument": "i1",
                "tier": "administrative",
                "venues": ["moon"],
                "when": {"metric": "capital", "min": 1},
            }
        ],
    }
    with pytest.raises(RulesError, match=r"t.toml band b1: venues must be a list of online, "):
        add_jurisdiction_file(RuleBook(), doc, "t.toml")
