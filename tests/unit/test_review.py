"""复核与豁免: which findings a waiver covers, and which review status a finding has."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compliance.domain.review import Review, Scope, Waiver, covering, finding_day, status_of

SESSION = {
    "kind": "threshold",
    "platform": "p1",
    "subject": "player:u7",
    "player": "u7",
    "session_id": "s1",
    "room_id": "r3",
    "owner_id": "o2",
    "jurisdiction": "430000",
    "rule": "hn-2015-general-stake",
    "tier": "administrative",
    "date": "2026-03-10",
}
WINDOW = {
    "kind": "threshold",
    "platform": "p1",
    "subject": "owner:o2",
    "session_id": None,
    "owner_id": "o2",
    "jurisdiction": "430000",
    "rule": "online-2010-owner",
    "tier": "criminal",
    "date": "2026-03-31",
    "window_start": "2026-01-01",
    "window_end": "2026-03-31",
}
AT = datetime(2026, 4, 1, tzinfo=UTC)


def waiver(scope: Scope, starts=date(2026, 1, 1), until=date(2026, 12, 31), revoked=None):
    return Waiver(1, scope, "checked", "li", starts, until, AT, revoked)


@pytest.mark.parametrize(
    ("scope", "session", "window"),
    [
        (Scope(platform="p1"), True, True),
        (Scope(platform="p2"), False, False),
        (Scope(room="r3"), True, False),
        (Scope(owner="o2"), True, True),
        (Scope(owner="o9"), False, False),
        (Scope(player="u7"), True, False),
        (Scope(band="hn-2015-general-stake"), True, False),
        (Scope(band="online-2010-owner"), False, True),
        (Scope(jurisdiction="430000"), True, True),
        (Scope(jurisdiction="330000"), False, False),
        (Scope(platform="p1", player="u7", jurisdiction="430000"), True, False),
        (Scope(platform="p1", player="u8"), False, False),
    ],
)
def test_a_scope_covers_what_matches_every_part_it_sets(scope, session, window):
    assert waiver(scope).covers(SESSION) is session
    assert waiver(scope).covers(WINDOW) is window


def test_an_integrity_finding_is_matched_by_its_band_of_kind_and_check():
    tampered = {**SESSION, "kind": "integrity", "check": "payout", "rule": None}
    assert waiver(Scope(band="integrity/payout")).covers(tampered)
    assert not waiver(Scope(band="integrity/banker")).covers(tampered)


def test_the_findings_own_date_decides_first_and_last_day_included():
    on = waiver(Scope(platform="p1"), date(2026, 3, 10), date(2026, 3, 31))
    assert on.covers(SESSION) and on.covers(WINDOW)
    assert not waiver(Scope(platform="p1"), date(2026, 3, 11)).covers(SESSION)
    assert not waiver(Scope(platform="p1"), until=date(2026, 3, 9)).covers(SESSION)
    assert not waiver(Scope(platform="p1"), until=date(2026, 3, 30)).covers(WINDOW)
    assert finding_day(WINDOW) == date(2026, 3, 31)


def test_a_revoked_waiver_covers_nothing_and_states_are_by_day():
    gone = waiver(Scope(platform="p1"), revoked=AT)
    assert not gone.covers(SESSION)
    assert gone.state(date(2026, 6, 1)) == "revoked"
    w = waiver(Scope(platform="p1"), date(2026, 2, 1), date(2026, 2, 28))
    assert [w.state(date(2026, m, 15)) for m in (1, 2, 3)] == ["future", "active", "expired"]


def test_the_oldest_covering_waiver_is_named():
    first, second = waiver(Scope(platform="p1")), waiver(Scope(player="u7"))
    assert covering([first, second], SESSION) is first
    assert covering([second], WINDOW) is None


def review(status: str, tier: str | None) -> Review:
    return Review("f" * 32, status, tier, "note", "li", AT)


def test_a_status_holds_at_the_same_or_a_lower_tier_and_a_higher_tier_reopens_it():
    assert status_of(None, SESSION) == ("open", False)
    assert status_of(review("dismissed", "administrative"), SESSION) == ("dismissed", False)
    lower = {**SESSION, "tier": "below_threshold"}
    assert status_of(review("dismissed", "administrative"), lower) == ("dismissed", False)
    higher = {**SESSION, "tier": "administrative_serious"}
    assert status_of(review("dismissed", "administrative"), higher) == ("open", True)
    tampered = {**SESSION, "kind": "integrity", "tier": None}
    assert status_of(review("confirmed", None), tampered) == ("confirmed", False)


@given(st.dates(date(2020, 1, 1), date(2030, 1, 1)), st.integers(0, 400), st.integers(0, 400))
def test_a_waiver_covers_exactly_the_days_of_its_span(day, before, length):
    starts = date.fromordinal(day.toordinal() - before)
    until = date.fromordinal(starts.toordinal() + length)
    finding = {**SESSION, "date": day.isoformat()}
    assert waiver(Scope(platform="p1"), starts, until).covers(finding) is (starts <= day <= until)
