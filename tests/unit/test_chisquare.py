"""卡方检验 held to published tables and to what the statistic must do."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compliance.domain.chisquare import goodness_of_fit, upper_tail

# Critical values of χ² (NIST/SEMATECH e-Handbook, table 1.3.6.7.4): P(χ²_df ≥ x) = α.
CRITICAL = {
    0.05: [3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307],
    0.01: [6.635, 9.210, 11.345, 13.277, 15.086, 16.812, 18.475, 20.090, 21.666, 23.209],
    0.001: [10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.125, 27.877, 29.588],
}
LARGE_DF = {(30, 0.05): 43.773, (50, 0.01): 76.154, (100, 0.001): 149.449}


@pytest.mark.parametrize("alpha", sorted(CRITICAL))
def test_the_upper_tail_at_the_published_critical_values_is_alpha(alpha):
    for df, x in enumerate(CRITICAL[alpha], 1):
        assert upper_tail(x, df) == pytest.approx(alpha, rel=2e-3), (df, x)


def test_large_degrees_of_freedom_and_closed_forms():
    for (df, alpha), x in LARGE_DF.items():
        assert upper_tail(x, df) == pytest.approx(alpha, rel=2e-3)
    for x in (0.1, 1.0, 5.0, 30.0):
        assert upper_tail(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert upper_tail(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
    assert upper_tail(0.0, 3) == 1.0


@given(st.integers(1, 60), st.floats(0.01, 200), st.floats(0.01, 200))
def test_the_tail_falls_as_the_statistic_rises(df, a, b):
    low, high = sorted((a, b))
    assert 0.0 <= upper_tail(high, df) <= upper_tail(low, df) <= 1.0


def test_a_fair_pool_passes_and_a_loaded_one_fails_at_one_in_a_thousand():
    published = {"common": 0.7, "rare": 0.25, "legendary": 0.05}
    fair = goodness_of_fit({"common": 703, "rare": 247, "legendary": 50}, published)
    assert (fair.df, fair.n) == (2, 1000) and not fair.rejects(0.001)
    loaded = goodness_of_fit({"common": 760, "rare": 230, "legendary": 10}, published)
    assert loaded.statistic == pytest.approx(
        (760 - 700) ** 2 / 700 + (230 - 250) ** 2 / 250 + (10 - 50) ** 2 / 50
    )
    assert loaded.rejects(0.001)


def test_rare_items_are_pooled_and_an_unpublished_item_fails_outright():
    published = {"a": 0.9, "b": 0.098, "c": 0.001, "d": 0.001}
    result = goodness_of_fit({"a": 905, "b": 93, "c": 1, "d": 1}, published)
    assert result.pooled == ("c", "d") and result.df == 2
    unknown = goodness_of_fit({"a": 900, "x": 1}, published)
    assert unknown.p_value == 0.0 and math.isinf(unknown.statistic)
