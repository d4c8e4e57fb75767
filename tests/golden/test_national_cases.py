"""National law where no province speaks, and where it does not reach (issue #17, part 1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from compliance.domain.classifier import Classifier
from compliance.domain.ruleset import Resolver
from tests.builders import figures, session

MAINLAND = [
    "110000", "120000", "130000", "140000", "150000", "210000", "220000", "230000",
    "310000", "320000", "330000", "340000", "350000", "360000", "370000", "410000",
    "420000", "430000", "440000", "450000", "460000", "500000", "510000", "520000",
    "530000", "540000", "610000", "620000", "630000", "640000", "650000",
]  # fmt: skip


@pytest.fixture(scope="module")
def resolver(rule_book):
    return Resolver(rule_book)


@pytest.fixture(scope="module")
def classify(resolver):
    return Classifier(resolver).classify


def test_all_31_mainland_divisions_and_the_three_regions_are_known_by_name_and_alias(resolver):
    for code in MAINLAND:
        j = resolver.lookup(code)
        assert j.level == "province" and resolver.within_mainland(j), code
        iso = next(a for a in j.aliases if a.startswith("CN-"))
        assert {resolver.lookup(n).code for n in (j.name_zh, j.name_en, iso, *j.aliases)} == {code}
    for code, iso in (("710000", "CN-TW"), ("810000", "CN-HK"), ("820000", "CN-MO")):
        j = resolver.lookup(iso)
        assert (j.code, j.level, resolver.within_mainland(j)) == (code, "region", False)


@pytest.mark.parametrize(
    ("written", "code"),
    [("430102", "430000"), ("440105", "440100"), ("440607", "440600"), ("120101", "120000")],
)
def test_a_code_without_a_file_resolves_up_to_its_city_or_province(resolver, written, code):
    assert resolver.lookup(written).code == code
    assert resolver.resolved_up(written)
    assert not resolver.resolved_up(code)


@pytest.mark.parametrize("written", ["990000", "001234", "4301", "000001"])
def test_a_code_of_no_province_stays_unknown(resolver, written):
    with pytest.raises(Exception, match="unknown jurisdiction"):
        resolver.lookup(written)


def test_an_unknown_county_is_judged_under_its_province_and_says_it_was_resolved_up(classify):
    (f,) = classify(session(figures(stake=60), where="430102"))
    assert (f.tier, f.jurisdiction) == ("administrative_very_serious", "430000")
    assert (
        f.jurisdiction_name == "湖南省 (430102 resolved up by its first 2 digits to 湖南省 430000)"
    )


def test_a_player_in_tianjin_is_indeterminate_naming_the_missing_provincial_standard(classify):
    (f,) = classify(session(figures(stake=60), where="120000"))
    assert (f.kind, f.missing, f.jurisdiction) == ("indeterminate", "threshold", "120000")
    assert f.reason == (
        "no provincial standard of 赌资较大 on file for 天津市 120000 in force on 2026-03-01; "
        "the national lines apply"
    )


def test_a_tianjin_county_says_it_was_resolved_up_in_the_reason(classify):
    (f,) = classify(session(figures(stake=60), where="120101"))
    assert f.reason.endswith("(120101 resolved up by its first 2 digits to 天津市 120000)")


@pytest.mark.parametrize("where", ["710000", "香港", "CN-MO", "810101"])
def test_taiwan_hong_kong_and_macao_are_outside_mainland_law(classify, where):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b")]
    findings = classify(session(*players, where=where, kin="王家"))
    assert {(f.kind, f.missing) for f in findings} == {("indeterminate", "mainland_law")}
    assert "is outside mainland law" in findings[0].reason


def test_the_national_kin_exemption_applies_where_no_province_has_a_line(classify):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b", "c")]
    findings = classify(session(*players, where="CN-TJ", kin="王家", game_class="mahjong"))
    assert {(f.tier, f.jurisdiction) for f in findings} == {("exempt", "120000")}
    assert findings[0].exemptions[0].startswith("mps-2005-kin: 不以营利为目的，亲属之间")


def test_the_national_kin_exemption_applies_with_no_jurisdiction_named(classify):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b", "c")]
    findings = classify(session(*players, where=None, kin="王家", game_class="mahjong"))
    assert {(f.tier, f.jurisdiction) for f in findings} == {("exempt", "000000")}
    assert findings[0].exemptions[0].startswith("mps-2005-kin:")


def test_rake_defeats_the_national_kin_exemption_with_no_jurisdiction(classify):
    players = [figures(p, stake=100, capital=8000) for p in ("a", "b")]
    findings = classify(session(*players, where=None, kin="王家", rake=50))
    assert {(f.kind, f.missing) for f in findings} == {("indeterminate", "jurisdiction")}


def test_the_organiser_prize_exemption_applies_with_no_jurisdiction_named(classify):
    facts = replace(session(figures(stake=60), where=None), organiser_prize=True)
    (f,) = classify(facts)
    assert (f.tier, f.jurisdiction) == ("exempt", "000000")
    assert f.exemptions[0].startswith("interp-2005-organiser-prize:")


def test_no_jurisdiction_says_the_national_lines_apply(classify):
    (f,) = classify(session(figures(stake=60), where=None))
    assert (f.kind, f.missing, f.jurisdiction) == ("indeterminate", "jurisdiction", None)
    assert f.reason.startswith("the log names no jurisdiction and --jurisdiction was not given")
    assert "the national lines apply" in f.reason


def test_jilin_owners_get_the_national_criminal_lines_beside_the_provincial_one(resolver):
    from datetime import date

    owner = {b.id for b in resolver.ruleset("220000", date(2026, 3, 1)).bands_for("owner")}
    assert {"jl-2014-provider-serious", "interp-2005-gathering"} <= owner
    assert "online-2010-serious-owner" in owner
    assert resolver.ruleset("810000", date(2026, 3, 1)).bands_for("owner") == ()


def test_below_the_lines_cites_why_small_play_is_not_punished(classify):
    (f,) = classify(session(figures(stake=5, capital=50), where="110000", game_class="mahjong"))
    assert f.tier == "below_threshold"
    assert f.citation.startswith("少量财物输赢的娱乐活动不予处罚: ")
    assert "公安部关于办理赌博违法案件适用法律若干问题的通知 九" in f.citation
    assert "赌博刑事案件具体应用法律若干问题的解释 第九条" in f.citation
    assert f.citation.endswith("少量 measured by the 赌资较大 lines of 北京市")


def test_a_below_threshold_band_keeps_its_own_citation_first(classify):
    facts = session(figures(stake=10, capital=300), where="420000", game_class="mahjong")
    (f,) = classify(facts)
    assert (f.tier, f.rule) == ("below_threshold", "hb-2017-mahjong-entertainment")
    first, _, rest = f.citation.partition("; 少量财物输赢")
    assert first.startswith("湖北省公安厅法治总队")
    assert "通知 九" in rest
