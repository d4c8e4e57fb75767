"""Check 9 on the ledger's room cards (公通字〔2007〕3号 三, 以虚拟货币等方式变相收取): the
cards used for a session against each player's result in it. Cards taken only from
winners, or in proportion to their winnings, breach; the same cards from every seat, or
from one seat alone (the opener), hold; a session not in the logs is indeterminate."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.domain.duties.rows import DutyBook
from compliance.logs.platform_records import LedgerEvent
from tests.unit.duties.builders import BOOK, P, at, breaches


def card(id, account, session="s1", units=-1, when="2022-03-01 20:00"):
    return LedgerEvent(
        format="ledger/1",
        platform=P,
        id=id,
        account=account,
        type="room_card_use",
        at=at(when),
        units=units,
        currency="room_card",
        session_id=session,
    )


def results(nets, session="s1", start="2022-03-01 20:00", room="r1"):
    """A session's stored results: (platform, session, room, game, start, player, net)."""
    return [
        (P, session, room, "m1", at(start), player, None if net is None else Decimal(net))
        for player, net in sorted(nets.items())
    ]


def judge(events, rows, book=BOOK):
    audit = DutyAudit(book, DutyOptions(date(2022, 6, 1)), [], None, True)
    for n, e in enumerate(events, 1):
        audit.event(e, n)
    audit.room_card_fees(lambda: rows)
    found = audit.finish()
    fees = [f for f in found if f.check == "outcome_fees"]
    return fees, audit.statuses().get("outcome_fees")


NETS = {"a": 120, "b": 30, "c": -50, "d": -100}


@pytest.mark.parametrize(
    "uses, expected",
    [
        pytest.param({"a": 1, "b": 1}, ["fee-cards-winners-2007"], id="winners-only-breaches"),
        pytest.param({"a": 4, "b": 1}, ["fee-cards-share-2007"], id="share-of-winnings-breaches"),
        pytest.param({"a": 1, "b": 1, "c": 1, "d": 1}, [], id="every-seat-the-same-holds"),
        pytest.param({"a": 4}, [], id="one-seat-alone-the-opener-holds"),
        pytest.param({"c": 4}, [], id="a-loser-opening-holds"),
        pytest.param({"agent": 1}, [], id="an-account-not-seated-holds"),
    ],
)
def test_room_cards_against_each_players_result(uses, expected):
    events = [card(f"e{i}", acc, units=-n) for i, (acc, n) in enumerate(uses.items())]
    fees, status = judge(events, results(NETS))
    assert sorted(f.duty for f in breaches(fees)) == expected
    assert status == ("breached" if expected else "held")
    assert not [f for f in fees if f.status == "indeterminate"]


def test_a_breach_names_the_room_the_payers_and_their_card_uses():
    events = [card("e1", "a", units=-4), card("e2", "b", units=-1)]
    fees, _ = judge(events, results(NETS))
    (f,) = fees
    assert (f.subject, f.metric, f.date) == ("room:r1", "cards_percent_of_winnings", "2022-03")
    assert 2 <= f.value < 4  # 4 of 120 and 1 of 30: about 3.3 %
    assert f.accounts == ["a", "b"]
    assert [e.id for e in f.events] == ["e1", "e2"]
    assert f.instrument.startswith("公通字〔2007〕3号")


def test_cards_varying_neither_way_are_indeterminate():
    fees, status = judge([card("e1", "a"), card("e2", "c")], results(NETS))
    assert [f.missing for f in fees] == ["the room cards' basis"]
    assert status == "indeterminate"


def test_a_card_use_naming_a_session_absent_from_the_logs_is_indeterminate_never_clean():
    events = [card("e1", "a", session="s1"), card("e2", "b", session="gone")]
    fees, status = judge(events, results(NETS))
    (f,) = fees
    assert f.status == "indeterminate"
    assert f.missing == "session logs of the sessions room_card_use names"
    assert f.event_count == 1
    assert status == "indeterminate"


def test_a_session_without_a_point_value_is_indeterminate():
    fees, _ = judge([card("e1", "a"), card("e2", "b")], results({"a": None, "b": None}))
    assert [f.missing for f in fees] == ["point_value of the sessions room cards were used for"]


def test_no_card_uses_reads_no_sessions():
    def unread():
        raise AssertionError("the sessions were read")

    audit = DutyAudit(BOOK, DutyOptions(date(2022, 6, 1)), [], None, True)
    audit.room_card_fees(unread)
    assert not [f for f in audit.finish() if f.check == "outcome_fees"]


@pytest.mark.parametrize(
    "start, expected",
    [
        pytest.param("2007-01-24 20:00", [], id="before-the-notice"),
        pytest.param("2007-01-25 20:00", ["fee-cards-winners-2007"], id="from-the-notice"),
    ],
)
def test_the_notice_binds_from_2007_01_25(start, expected):
    events = [card("e1", "a", when=start), card("e2", "b", when=start)]
    fees, _ = judge(events, results(NETS, start=start))
    assert sorted(f.duty for f in breaches(fees)) == expected


def test_a_database_seeded_before_the_card_rows_does_not_run_them():
    old = DutyBook([d for d in BOOK.duties if not d.id.startswith("fee-cards-")])
    fees, status = judge([card("e1", "x", session="gone")], results(NETS), book=old)
    assert fees == [] and status is None


def test_workers_parts_merge_to_one_pass():
    events = [card("e1", "a", units=-4), card("e2", "b"), card("e3", "a", session="s2")]
    rows = results(NETS) + results({"a": 10, "b": -10}, session="s2")
    one, _ = judge(events, rows)
    driver = DutyAudit(BOOK, DutyOptions(date(2022, 6, 1)), [], None, True)
    for part in ([events[1]], [events[0], events[2]]):
        worker = DutyAudit(BOOK, DutyOptions(date(2022, 6, 1)), [], None, True)
        for e in part:
            worker.event(e, int(e.id[1:]))
        driver.absorb(worker.part())
    driver.room_card_fees(lambda: rows)
    assert [f for f in driver.finish() if f.check == "outcome_fees"] == one


@settings(max_examples=60, deadline=None)
@given(
    nets=st.lists(st.integers(-10_000, 10_000), min_size=2, max_size=8),
    fee=st.integers(1, 5),
    opener=st.booleans(),
)
def test_a_fixed_per_seat_card_fee_never_breaches(nets, fee, opener):
    """The same cards from every seat, whatever its result (an opener's extra card too)."""
    seated = {f"p{i}": net for i, net in enumerate(nets)}
    events = [card(f"e{i}", p, units=-fee) for i, p in enumerate(seated)]
    if opener:
        events.append(card("open", "p0", units=-1))
    fees, status = judge(events, results(seated))
    assert breaches(fees) == []
    assert status in ("held", "indeterminate") if opener else status == "held"
