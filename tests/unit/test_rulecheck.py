"""规则检查 and 规则比较: the shipped data passes; files with one fault are caught."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal

import pytest

from compliance.domain.rulecheck import Interval, check_book
from compliance.domain.rulediff import condition_words, diff_books, diff_dates
from compliance.domain.ruleedit import BoundSetting, set_bound
from compliance.domain.rules import Comparison, Multiplier
from compliance.domain.tiers import Tier
from compliance.errors import BadValueError, RulesError
from compliance.service_layer.rules import read_files, with_patch
from tests.rule_files import falling, hunan_with, hunan_with_text, overlapping


def test_the_shipped_data_has_no_problem(rule_book):
    assert check_book(rule_book) == []


def test_a_band_reaching_into_the_next_tier_is_an_overlap(rule_book, tmp_path):
    problems = check_book(with_patch(rule_book, [overlapping(tmp_path)]))
    assert [p.describe() for p in problems] == [
        "overlap: hn-2015-general-stake, hn-2015-general-serious: single_stake [50, 60] is in "
        "both administrative [20, 60] and administrative_serious [50, 100]"
    ]


def test_a_tier_that_falls_as_the_amount_rises_is_caught(rule_book, tmp_path):
    problems = check_book(with_patch(rule_book, [falling(tmp_path)]))
    assert [p.describe() for p in problems if p.check == "tier_order"] == [
        "tier_order: hn-2015-general-very-serious, hn-2015-general-stake: single_stake: "
        "administrative_very_serious at [10, 15) lies below administrative at [20, 50]; "
        "tiers must rise with the amount",
        "tier_order: hn-2015-general-very-serious, hn-2015-general-serious: single_stake: "
        "administrative_very_serious at [10, 15) lies below administrative_serious at [50, 100]; "
        "tiers must rise with the amount",
    ]


def test_figures_between_two_lines_are_a_gap(rule_book, tmp_path):
    path = hunan_with(
        tmp_path,
        '{ metric = "single_stake", min = 50, max = 100 }',
        '{ metric = "single_stake", above = 50, max = 100 }',
    )
    path = hunan_with_text(
        path,
        '{ metric = "single_stake", min = 20, max = 50 }',
        '{ metric = "single_stake", min = 20, below = 50 }',
    )
    problems = check_book(with_patch(rule_book, [path]))
    assert [p.describe() for p in problems] == [
        "gap: hn-2015-general-stake, hn-2015-general-serious: single_stake [50, 50] is in no "
        "band between administrative [20, 50) and administrative_serious (50, 100]"
    ]


@pytest.mark.parametrize(
    ("low", "high", "meets"),
    [
        (Comparison("m", min=Decimal(20), max=Decimal(50)), Comparison("m", min=Decimal(50)), True),
        (
            Comparison("m", min=Decimal(20), below=Decimal(50)),
            Comparison("m", min=Decimal(50)),
            False,
        ),
        (
            Comparison("m", min=Decimal(20), max=Decimal(50)),
            Comparison("m", above=Decimal(50)),
            False,
        ),
    ],
    ids=["以下 meets 以上 at 50", "不满 50 then 以上", "以下 50 then 超过"],
)
def test_the_boundary_rule_lets_one_figure_sit_in_both_tiers(low, high, meets):
    both = Interval.of(low).meet(Interval.of(high))
    assert (both is not None) == meets


def test_rival_versions_both_default_and_in_force_together_are_caught(rule_book):
    instruments = dict(rule_book.instruments)
    for iid in ("hn-2007-rules", "hn-2015-discretion"):
        instruments[iid] = dataclasses.replace(
            instruments[iid], version_group="hn", effective_to=None
        )
    problems = check_book(dataclasses.replace(rule_book, instruments=instruments))
    assert [p.describe() for p in problems] == [
        "versions: hn-2007-rules, hn-2015-discretion: both default in version group hn and "
        "in force together"
    ]


def test_unknown_game_classes_and_rows_without_source_are_caught(rule_book):
    book = dataclasses.replace(
        rule_book, multipliers=[Multiplier("430000", "zhajinhua_class", Decimal(2), source="")]
    )
    assert [p.describe() for p in check_book(book)] == [
        "source: multiplier 430000 zhajinhua_class: multiplier without a source",
        "unknown_game_class: multiplier 430000 zhajinhua_class: unknown game class 'zhajinhua_class'",
    ]


def test_a_file_without_a_source_is_refused_naming_the_row(tmp_path):
    path = hunan_with(
        tmp_path,
        'source = "seed 000 (澎湃新闻 法治课 article); legal.md (b) 湖南 row 2 (seed, not re-verified)"',
        "",
    )
    with pytest.raises(RulesError, match="instrument hn-2015-discretion: missing source"):
        read_files([path])


def test_diff_names_the_band_and_the_field_that_changed(rule_book, tmp_path):
    changes = diff_books(rule_book, with_patch(rule_book, [overlapping(tmp_path)]))
    assert [line for c in changes for line in c.lines()] == [
        "~ bands hn-2015-general-stake",
        "    condition: (single_stake ≥ 20 and ≤ 50) or (session_win_loss ≥ 2000 and < 5000) → "
        "(single_stake ≥ 20 and ≤ 60) or (session_win_loss ≥ 2000 and < 5000)",
    ]


def test_diff_of_two_dates_shows_the_2025_statute_coming_into_force(rule_book):
    changes = diff_dates(rule_book, date(2025, 12, 31), date(2026, 1, 1), "000000")
    assert [(c.kind, c.table, c.key) for c in changes] == [
        ("removed", "instruments", "zhian-2005"),
        ("added", "instruments", "zhian-2025"),
        ("removed", "penalties", "zhian-2005-general"),
        ("removed", "penalties", "zhian-2005-serious"),
        ("added", "penalties", "zhian-2025-general"),
        ("added", "penalties", "zhian-2025-serious"),
        ("removed", "aggravations", "mps-2005-repeat"),
        ("removed", "aggravations", "zhian-2005-repeat"),
        ("added", "aggravations", "zhian-2025-repeat"),
    ]


def test_the_same_book_has_no_difference(rule_book):
    assert diff_books(rule_book, rule_book) == []


def test_a_bound_set_on_the_command_line_moves_that_line_only(rule_book):
    book = set_bound(rule_book, BoundSetting.parse("hn-2015-general-stake.single_stake.max=100"))
    band = next(b for b in book.bands if b.id == "hn-2015-general-stake")
    assert condition_words(band.condition) == (
        "(single_stake ≥ 20 and ≤ 100) or (session_win_loss ≥ 2000 and < 5000)"
    )
    assert [c.key for c in diff_books(rule_book, book)] == ["hn-2015-general-stake"]


@pytest.mark.parametrize(
    "text",
    [
        "hn-2015-general-stake.single_stake=100",
        "hn-2015-general-stake.single_stake.max=lots",
        "no-such-band.single_stake.max=100",
        "hn-2015-general-stake.capital.max=100",
    ],
)
def test_a_bad_setting_is_a_bad_value(rule_book, text):
    with pytest.raises(BadValueError):
        set_bound(rule_book, BoundSetting.parse(text))


def test_a_rival_version_is_checked_in_its_own_right(rule_book):
    bands = list(rule_book.bands)
    at = next(i for i, b in enumerate(bands) if b.id == "sh-capital-200")
    bands.append(
        dataclasses.replace(
            bands[at],
            id="sh-capital-150-serious",
            tier=Tier.ADMINISTRATIVE_SERIOUS,
            condition=Comparison("capital", min=Decimal(150), max=Decimal(300)),
        )
    )
    problems = check_book(dataclasses.replace(rule_book, bands=bands))
    assert [p.rows for p in problems] == [("sh-capital-200", "sh-capital-150-serious")]
