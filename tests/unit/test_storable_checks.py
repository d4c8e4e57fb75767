"""可存储: the checks a judged session passes before storage, at their edges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from compliance.domain.rounds import PlayerTally, SessionTally
from compliance.domain.storable import MAX_YUAN, check_figures, check_times, escape_nul
from compliance.errors import LogError


def at(hours: int, minutes: int = 0) -> datetime:
    sign = 1 if hours >= 0 else -1
    offset = timedelta(hours=hours) + sign * timedelta(minutes=minutes)
    return datetime(2026, 3, 1, 20, tzinfo=timezone(offset))


@pytest.mark.parametrize("when", [at(14), at(-12), at(5, 45), datetime(2026, 3, 1, tzinfo=UTC)])
def test_every_zone_in_use_is_stored(when):
    check_times(started_at=when)


@pytest.mark.parametrize("when", [at(14, 1), at(-12, 1), at(23, 59), at(-23, 59)])
def test_an_offset_no_clock_uses_is_refused_naming_the_field(when):
    with pytest.raises(LogError, match="^ended_at has the zone offset"):
        check_times(started_at=None, ended_at=when)


def tally(**player) -> SessionTally:
    return SessionTally({"a": PlayerTally(**player)})


def test_a_figure_just_below_10_to_the_15_yuan_is_stored_and_one_at_it_is_not():
    check_figures(tally(net=-(MAX_YUAN - 1)), Decimal(1))
    with pytest.raises(LogError, match="^net beyond any real game: 1.00e\\+15 yuan for player a"):
        check_figures(tally(net=-MAX_YUAN), Decimal(1))
    summary = SessionTally({}, rake=MAX_YUAN // 100)
    with pytest.raises(LogError, match="^rake beyond any real game"):
        check_figures(summary, Decimal(100))


def test_a_nul_is_escaped_and_the_text_cut_to_its_column():
    assert escape_nul("plain", 3) == "plain"
    assert escape_nul("a\x00b") == "a\\u0000b"
    assert escape_nul("\x00\x00", 8) == "\\u0000\\…"
