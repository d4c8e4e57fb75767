"""Golden cases from the seed article (seed 000) and legal.md, judged on the shipped data."""

from __future__ import annotations

import pytest

from compliance.domain.classifier import Classifier, ClassifierOptions
from compliance.domain.ruleset import Resolver
from tests.builders import figures, session


@pytest.fixture(scope="module")
def classify(rule_book):
    classifier = Classifier(Resolver(rule_book))

    def judge(facts, **options):
        if options:
            resolver = Resolver(rule_book, options.get("versions"))
            return Classifier(resolver, ClassifierOptions(**options)).classify(facts)
        return classifier.classify(facts)

    return judge


def only(findings):
    assert len(findings) == 1, findings
    return findings[0]


def test_hunan_douniu_stake_of_60_in_2026_is_very_serious_under_the_2025_statute(classify):
    f = only(classify(session(figures(stake=60), day="2026-03-01")))
    assert (f.tier, f.metric, f.value, f.boundary) == (
        "administrative_very_serious",
        "single_stake",
        60,
        "single_stake ≥ 50",
    )
    assert (
        f.statutory_penalty == "情节严重的，处十日以上十五日以下拘留，并处一千元以上五千元以下罚款"
    )
    assert "第八十二条" in f.statutory_citation


def test_the_same_session_on_2025_12_31_shows_the_old_statute_range(classify):
    f = only(classify(session(figures(stake=60), day="2025-12-31")))
    assert f.tier == "administrative_very_serious"
    assert (
        f.statutory_penalty == "情节严重的，处十日以上十五日以下拘留，并处五百元以上三千元以下罚款"
    )
    assert "第七十条" in f.statutory_citation


@pytest.mark.parametrize(
    ("game_class", "stake", "tier"),
    [
        ("banker_card", 5, "administrative"),
        ("banker_card", 20, "administrative_serious"),
        ("banker_card", 49, "administrative_serious"),
        ("banker_card", 50, "administrative_very_serious"),
        ("mahjong", 19, "below_threshold"),
        ("mahjong", 20, "administrative"),
        ("mahjong", 50, "administrative_serious"),
        ("mahjong", 100, "administrative_very_serious"),
    ],
    ids=lambda v: str(v),
)
def test_hunan_lines_give_the_figure_at_a_meeting_point_to_the_higher_tier(
    classify, game_class, stake, tier
):
    facts = session(figures(stake=stake, capital=stake), game_class=game_class)
    assert only(classify(facts)).tier == tier


def test_hunan_banker_in_douniu_is_very_serious_whatever_the_amount(classify):
    f = only(classify(session(figures(stake=1, banker_rounds=2))))
    assert (f.tier, f.metric, f.boundary) == (
        "administrative_very_serious",
        "role",
        "role = banker",
    )


def test_hunan_win_loss_per_player_by_default_and_per_table_as_an_option(classify):
    players = [figures("a", stake=1, win_loss=6000), figures("b", stake=1, win_loss=-6000)]
    facts = session(*players, game_class="mahjong")
    assert [f.tier for f in classify(facts)] == ["administrative_serious"] * 2
    small = [figures(p, stake=1, win_loss=w) for p, w in (("a", 3000), ("b", 3000), ("c", -6000))]
    facts = session(*small, game_class="mahjong")
    assert [f.tier for f in classify(facts)][:2] == ["administrative"] * 2
    assert [f.tier for f in classify(facts, win_loss_scope="table")][:2] == [
        "administrative_serious"
    ] * 2


@pytest.mark.parametrize(
    ("per_capita", "tier"),
    [
        (999, "below_threshold"),
        (1000, "administrative"),
        (3000, "administrative"),
        (5000, "administrative_serious"),
    ],
)
def test_hubei_per_capita_tiers(classify, per_capita, tier):
    facts = session(figures(stake=10, capital=per_capita), where="420000", game_class="mahjong")
    assert only(classify(facts)).tier == tier


def test_hubei_kin_play_is_exempt_whatever_the_amount(classify):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b", "c")]
    findings = classify(session(*players, where="hubei", kin="王家", game_class="mahjong"))
    assert {f.tier for f in findings} == {"exempt"}
    assert findings[0].would_be == "administrative_serious"
    assert findings[0].exemptions


def test_rake_defeats_the_kin_exemption(classify):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b", "c")]
    findings = classify(session(*players, where="hubei", kin="王家", rake=50, game_class="mahjong"))
    assert {f.tier for f in findings} == {"administrative_serious"}


def test_shunde_2016_about_145_a_head_against_5151_is_below_the_line_with_the_ratio(classify):
    players = [
        figures(p, stake=10, capital=c) for p, c in (("a", 180), ("b", 200), ("c", 100), ("d", 100))
    ]
    findings = classify(
        session(*players, where="440606", day="2016-02-03", game="yuhuan", game_class="mahjong")
    )
    f = findings[0]
    assert f.tier == "below_threshold"
    assert f.next_metric == "per_capita_wage_ratio"
    assert float(f.next_boundary) == 0.10
    assert float(f.margin_to_next) == pytest.approx(0.10 - 145 / 5151, abs=1e-4)


def test_guangzhou_2013_without_a_wage_figure_is_indeterminate_naming_the_wage(classify):
    players = [figures(p, stake=2, capital=c) for p, c in (("a", 257), ("b", 26), ("c", 126))]
    f = classify(session(*players, where="440100", day="2013-06-01", game_class="climbing"))[0]
    assert (f.kind, f.missing) == ("indeterminate", "wage_indicator")
    assert "广州" in f.reason


def test_chengdu_five_yuan_mahjong_is_an_offence_under_the_1989_ordinance(classify):
    f = classify(session(figures(stake=5, capital=575), where="510100", game_class="mahjong"))[0]
    assert f.tier == "administrative"
    assert f.instrument.startswith("sc-1989")


def test_shaanxi_below_its_serious_line_is_indeterminate_for_want_of_a_line(classify):
    f = only(classify(session(figures(stake=5, capital=150), where="610000", game_class="mahjong")))
    assert (f.kind, f.missing) == ("indeterminate", "threshold")


def test_shaanxi_serious_line_says_the_figure_is_disputed(classify):
    f = only(classify(session(figures(stake=5, capital=200), where="610000", game_class="mahjong")))
    assert (f.tier, f.disputed) == ("administrative_serious", True)
    assert "河南" in f.dispute_note


def test_no_jurisdiction_is_indeterminate(classify):
    f = only(classify(session(figures(stake=60), where=None)))
    assert (f.kind, f.missing) == ("indeterminate", "jurisdiction")


def test_each_player_is_judged_where_he_lives(classify):
    players = [figures("a", stake=60), figures("b", stake=60)]
    facts = session(*players, where="430000", homes={"b": "360000"})
    a, b = classify(facts)
    assert (a.jurisdiction, b.jurisdiction) == ("430000", "360000")
    assert a.tier == "administrative_very_serious"
    assert b.tier == "administrative"


def test_guangzhou_2013_with_a_wage_figure_supplied_is_below_the_line(rule_book):
    from dataclasses import replace
    from decimal import Decimal

    from compliance.domain.rules import Wage

    book = replace(
        rule_book,
        wages=[*rule_book.wages, Wage("440100", 2012, Decimal(5313), "user supplied", "L")],
    )
    players = [figures(p, stake=2, capital=c) for p, c in (("a", 257), ("b", 26), ("c", 126))]
    f = Classifier(Resolver(book)).classify(
        session(*players, where="440100", day="2013-06-01", game_class="climbing")
    )[0]
    assert f.tier == "below_threshold"
    assert f.next_metric == "per_capita_wage_ratio"
    assert float(f.margin_to_next) == pytest.approx(0.10 - 136.33 / 5313, abs=1e-3)


def test_an_organiser_funded_prize_is_exempt_with_its_reason(classify):
    from dataclasses import replace

    facts = replace(session(figures(stake=60)), organiser_prize=True)
    f = only(classify(facts))
    assert f.tier == "exempt"
    assert f.exemptions[0].startswith("interp-2005-organiser-prize: 组织者出资设立的奖金")


def test_a_public_place_is_listed_as_an_aggravation(classify):
    from dataclasses import replace

    facts = replace(session(figures(stake=60)), venue="public_place")
    f = only(classify(facts))
    assert f.aggravations == ["mps-2005-public-place: 在公共场所赌博的，可以从重处罚 (三)"]


def test_shanghai_uses_the_default_100_line_and_says_it_is_disputed(classify):
    f = only(classify(session(figures(stake=5, capital=150), where="上海", game_class="mahjong")))
    assert (f.tier, f.instrument, f.disputed) == ("administrative", "sh-discretion-trial", True)


def test_shanghai_200_line_is_selectable(classify):
    facts = session(figures(stake=5, capital=150), where="上海", game_class="mahjong")
    f = only(classify(facts, versions={"sh-discretion": "sh-discretion-200"}))
    assert f.tier == "below_threshold"
