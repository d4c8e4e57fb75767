"""内容摘要: the digests stamped on sessions before storing are `content_digest`'s, whatever
the values (kept money forms, zero's sign, any text), made once or again."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.db import digests
from compliance.db.session_rows import SESSION_COLUMNS, Floats

money = st.one_of(
    st.none(),
    st.sampled_from([Decimal("0"), Decimal("-0"), Decimal("-0.00"), Decimal("0.000")]),
    st.decimals(min_value=-(10**12), max_value=10**12, places=2),
    st.decimals(min_value=-(10**8), max_value=10**8, places=4),
    st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**15), max_value=10**15),
)
text = st.one_of(st.none(), st.text(max_size=8))
instants = st.builds(
    lambda at, minutes: at.replace(tzinfo=timezone(timedelta(minutes=minutes))),
    st.datetimes(min_value=datetime(2000, 1, 2), max_value=datetime(2099, 12, 30)),
    st.integers(-12 * 60, 14 * 60),
)
VALUES = {
    "started_at": st.one_of(instants, st.datetimes(min_value=datetime(2000, 1, 2))),
    "day": st.dates(min_value=date(2000, 1, 1)),
    "jurisdictions": st.lists(st.text(max_size=6), max_size=3),
    "headcount": st.integers(0, 10**20),
    "rounds": st.integers(0, 2**40),
    "source_line": st.integers(0, 10**9),
    "minors": st.integers(0, 9),
    "run_id": st.integers(1, 9),
    "source_offset": st.one_of(st.none(), st.integers(0, 10**12)),
    "line": st.one_of(st.none(), st.binary(max_size=8)),
}
MONEY = {"point_value", "scene_capital", "per_capita_capital", "rake", "fixed_fee"}
rows = st.tuples(*(money if c in MONEY else VALUES.get(c, text) for c in SESSION_COLUMNS))


@settings(max_examples=300)
@given(st.lists(rows, min_size=1, max_size=4))
def test_stamped_digests_are_the_content_digests(batch):
    twice = batch + batch  # the second time from the kept forms
    for row, done in zip(twice, digests.stamped(SESSION_COLUMNS, twice), strict=True):
        assert done[:-1] == row
        assert done[-1] == digests.content_digest(dict(zip(SESSION_COLUMNS, row, strict=True)))


def test_a_stamp_with_a_wide_point_value_and_an_instant_in_utc():
    row = dict.fromkeys(SESSION_COLUMNS)
    row.update(
        started_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        day=date(2026, 1, 2),
        jurisdictions=["440606", "云南"],
        point_value=Decimal("0.0125"),
        scene_capital=Decimal("-0.00"),
    )
    values = tuple(row[c] for c in SESSION_COLUMNS)
    for done in digests.stamped(SESSION_COLUMNS, [values, values]):
        assert done[-1] == digests.content_digest(row)


@given(st.lists(money, max_size=20))
def test_kept_floats_are_the_floats_of_the_values(values):
    floats = Floats()
    for value in values + values:
        if value is not None:
            got, want = floats[value], float(value)
            assert repr(got) == repr(want)
