"""计算期间: calendar windows, 累计's limitation period, and 重庆's six months per subject."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from compliance.domain.classifier import Classifier
from compliance.domain.ledger import Entry, Ledger, judge_ledger
from compliance.domain.periods import (
    limitation_years,
    max_prison_years,
    months_back,
    span_start,
    valid_window,
)
from compliance.domain.ruleset import Resolver
from compliance.domain.tiers import Tier
from compliance.ruledata import load_book


@pytest.mark.parametrize(
    "end, start",
    [
        (date(2026, 8, 31), date(2026, 2, 28)),
        (date(2024, 8, 31), date(2024, 2, 29)),
        (date(2026, 3, 31), date(2025, 9, 30)),
        (date(2026, 3, 1), date(2025, 9, 1)),
        (date(2026, 1, 15), date(2025, 7, 15)),
    ],
)
def test_six_calendar_months_back_is_the_same_day_clamped_to_month_end(end, start):
    assert span_start("6 months", end) == months_back(end, 6) == start
    assert 181 <= (end - start).days <= 184


def test_a_year_back_from_a_leap_day_is_the_last_of_february():
    assert span_start("1 year", date(2024, 2, 29)) == date(2023, 2, 28)
    assert valid_window("cumulative") and valid_window("2 years")
    assert not valid_window("180 days") and not valid_window("six months")


def test_the_limitation_period_follows_the_maximum_sentence():
    assert [limitation_years(n) for n in (3, 4, 5, 9, 10, 15)] == [5, 5, 10, 10, 15, 15]
    assert max_prison_years("开设赌场的，处五年以下有期徒刑、拘役或者管制，并处罚金") == 5
    assert max_prison_years("情节严重的，处三年以上十年以下有期徒刑，并处罚金") == 10
    assert max_prison_years("处十日以上十五日以下拘留") is None


@pytest.fixture(scope="module")
def classifier():
    return Classifier(Resolver(load_book()))


def chongqing_player(days_before_last: list[int], net: int, last=date(2026, 8, 31)) -> Ledger:
    entries = [
        Entry(last - timedelta(days=d), "500000", 1, 300_000, net=100 * net)
        for d in days_before_last
    ]
    return Ledger("player", "cq1", "p", last, None, entries)


def test_a_session_184_days_back_is_inside_chongqings_six_calendar_months(classifier):
    """Old code: a fixed 180-day window dropped the first session, so two sessions and no line."""
    found = judge_ledger(classifier, chongqing_player([184, 90, 0], -800))
    assert (found.tier, found.rule, found.session_count) == ("administrative", "cq-2006-large", 3)
    assert found.window_start == "2026-02-28"
    assert judge_ledger(classifier, chongqing_player([185, 90, 0], -800)) is None


def test_the_read_limit_cutting_a_window_short_is_said(classifier):
    cut = chongqing_player([100, 90, 0], -800)
    cut.read_from = date(2026, 6, 1)
    assert judge_ledger(classifier, cut) is None
    owner = Ledger(
        "owner",
        "boss",
        "p",
        date(2026, 8, 31),
        date(2026, 6, 1),
        [Entry(date(2026, 7, 1), "430000", 1, 10_000, rake=600_000)],
    )
    found = judge_ledger(classifier, owner)
    assert (found.tier, found.rule) == ("criminal", "interp-2005-gathering")
    assert "window cut short: interp-2005-gathering counts from 2021-08-31" in found.dispute_note
    assert "5 years: the limitation period of 刑法 art. 87 for a maximum of 3 years" in (
        found.dispute_note
    )


def test_cumulative_years_override_the_limitation_period(classifier):
    owner = Ledger(
        "owner",
        "boss",
        "p",
        date(2026, 8, 31),
        None,
        [
            Entry(date(2024, 8, 1), "430000", 1, 10_000, rake=300_000),
            Entry(date(2026, 8, 1), "430000", 1, 10_000, rake=300_000),
        ],
    )
    assert judge_ledger(classifier, owner).tier == "criminal"
    assert judge_ledger(classifier, owner, years=1).tier == "below_threshold"
    assert Tier.CRIMINAL > Tier.ADMINISTRATIVE_SERIOUS
