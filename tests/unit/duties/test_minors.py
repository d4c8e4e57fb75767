"""Checks 5 and 6 on the instruments' own figures, one case each side of each figure and date."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from compliance.logs.platform_records import LedgerEvent
from tests.unit.duties.builders import P, account, breaches, pay, play, run

BORN_2007 = date(2007, 1, 1)  # 15 all through 2022


def test_a_payment_of_exactly_50_at_15_holds_and_50_01_breaches():
    held, _ = run([account(birth=BORN_2007)], events=[pay("e1", "2022-03-01 10:00", "50")])
    broke, _ = run([account(birth=BORN_2007)], events=[pay("e1", "2022-03-01 10:00", "50.01")])
    assert not breaches(held, "minor-pay-8-16-each-2019")
    [f] = breaches(broke, "minor-pay-8-16-each-2019")
    assert (f.value, f.cap, f.subject, [e.id for e in f.events]) == (
        Decimal("50.01"),
        Decimal(50),
        "account:a1",
        ["e1"],
    )
    assert f.instrument.startswith("国新出发〔2019〕34号") and f.article == "三"


def test_at_16_to_18_the_cap_is_100_a_payment():
    acc = account(birth=date(2005, 6, 1))  # 16 in 2022-03
    held, _ = run([acc], events=[pay("e1", "2022-03-01 10:00", "100")])
    broke, _ = run([acc], events=[pay("e1", "2022-03-01 10:00", "100.01")])
    assert not breaches(held, "minor-pay-16-18-each-2019")
    assert breaches(broke, "minor-pay-16-18-each-2019")


def test_no_payment_under_8_and_the_eighth_birthday_opens_the_50_band():
    acc = account(birth=date(2014, 3, 2))
    under, _ = run([acc], events=[pay("e1", "2022-03-01 23:59", "1")])
    eight, _ = run([acc], events=[pay("e1", "2022-03-02 00:00", "50")])
    assert [f.duty for f in breaches(under) if f.check == "minor_payments"] == [
        "minor-pay-under-8-2019"
    ]
    assert not breaches(eight, "minor-pay-under-8-2019")
    assert not breaches(eight, "minor-pay-8-16-each-2019")


def test_the_age_is_taken_in_beijing_time():
    acc = account(birth=date(2006, 1, 8))
    utc = UTC
    late = LedgerEvent(
        format="ledger/1",
        platform=P,
        id="e1",
        account="a1",
        type="recharge",
        at=datetime(2022, 1, 7, 16, 30, tzinfo=utc),
        yuan=Decimal("80"),
    )
    early = LedgerEvent(
        format="ledger/1",
        platform=P,
        id="e1",
        account="a1",
        type="recharge",
        at=datetime(2022, 1, 7, 15, 30, tzinfo=utc),
        yuan=Decimal("80"),
    )
    sixteen, _ = run([acc], events=[late])  # 00:30 on the 8th in Beijing: 16
    fifteen, _ = run([acc], events=[early])  # 23:30 on the 7th: still 15
    assert not breaches(sixteen) or all(f.check != "minor_payments" for f in breaches(sixteen))
    assert [f.duty for f in breaches(fifteen) if f.check == "minor_payments"] == [
        "minor-pay-8-16-each-2019"
    ]


def test_the_month_cap_sums_a_persons_accounts_and_the_per_account_reading_does_not():
    accs = [account("a1", BORN_2007, person="p1"), account("a2", BORN_2007, person="p1")]
    events = [
        pay(f"e{i}", f"2022-03-0{i} 10:00", "50", acc="a1" if i % 2 else "a2") for i in range(1, 5)
    ]
    held, _ = run(accs, events=events)
    assert not breaches(held, "minor-pay-8-16-month-2019")
    more = [*events, pay("e5", "2022-03-31 23:59", "0.01", acc="a2")]
    [f] = breaches(run(accs, events=more)[0], "minor-pay-8-16-month-2019")
    assert (f.subject, f.value, f.cap, f.date) == ("person:p1", Decimal("200.01"), 200, "2022-03")
    assert not breaches(run(accs, events=more, per_account=True)[0], "minor-pay-8-16-month-2019")
    april = [*events, pay("e5", "2022-04-01 00:00", "0.01", acc="a2")]
    assert not breaches(run(accs, events=april)[0], "minor-pay-8-16-month-2019")


def test_the_16_to_18_month_cap_is_400():
    acc = account(birth=date(2005, 6, 1))
    events = [pay(f"e{i}", f"2022-03-0{i} 10:00", "100") for i in range(1, 5)]
    assert not breaches(run([acc], events=events)[0], "minor-pay-16-18-month-2019")
    extra = [*events, pay("e9", "2022-03-09 10:00", "0.01")]
    assert breaches(run([acc], events=extra)[0], "minor-pay-16-18-month-2019")


def test_payments_before_2019_11_01_are_under_no_cap():
    acc = account(birth=date(2005, 1, 1))
    before = breaches(run([acc], events=[pay("e1", "2019-10-31 23:59", "500")])[0])
    after = breaches(run([acc], events=[pay("e1", "2019-11-01 00:00", "500")])[0])
    assert [f.check for f in before if f.check == "minor_payments"] == []
    assert [f.check for f in after if f.check == "minor_payments"] == ["minor_payments"] * 2


@given(
    st.lists(
        st.tuples(st.sampled_from(["a1", "a2", "a3"]), st.integers(1, 9000)),
        min_size=1,
        max_size=30,
    )
)
def test_a_month_sum_is_the_sum_of_its_payments_across_a_persons_accounts(payments):
    accs = [account(a, BORN_2007, person="p1") for a in ("a1", "a2", "a3")]
    events = [
        pay(f"e{i}", "2022-05-10 12:00", str(Decimal(fen) / 100), acc=a)
        for i, (a, fen) in enumerate(payments)
    ]
    total = sum(Decimal(fen) / 100 for _, fen in payments)
    found = breaches(run(accs, events=events)[0], "minor-pay-8-16-month-2019")
    assert bool(found) == (total > 200)
    if found:
        assert found[0].value == total


# ── 5. Hours ─────────────────────────────────────────────────────────────────────────


def hours(plays, birth=BORN_2007, **kw):
    found, _ = run([account(birth=birth)], plays=plays, **kw)
    return sorted(f.duty for f in breaches(found) if f.check == "minor_hours")


def test_20_59_on_a_friday_in_2022_holds_and_21_00_breaches():
    assert hours([play("2022-01-07 20:59")]) == []
    assert hours([play("2022-01-07 21:00")]) == ["minor-window-2021"]
    assert hours([play("2022-01-07 19:59")]) == ["minor-window-2021"]
    assert hours([play("2022-01-07 20:00", "2022-01-07 21:00")]) == []
    assert hours([play("2022-01-07 20:00", "2022-01-07 21:01")]) == ["minor-window-2021"]


def test_a_weekday_is_closed_and_a_statutory_holiday_open():
    assert hours([play("2022-01-10 20:30")]) == ["minor-window-2021"]  # Monday
    assert hours([play("2022-10-03 20:30")]) == []  # 国庆, a Monday


def test_an_adjusted_working_saturday_is_open_by_the_text_and_closed_by_company_practice():
    assert hours([play("2021-10-09 20:30")]) == []
    assert hours([play("2021-10-09 20:30")], adjusted_closed=True) == ["minor-window-2021"]


def test_the_minutes_outside_the_window_are_counted():
    found, _ = run([account(birth=BORN_2007)], plays=[play("2022-01-07 20:30", "2022-01-07 22:30")])
    [window] = [f for f in found if f.duty == "minor-window-2021"]
    [night] = [f for f in found if f.duty == "minor-night-statute"]
    assert (window.value, night.value) == (Decimal(90), Decimal(30))


def test_the_2021_window_starts_on_2021_09_01():
    assert hours([play("2021-08-31 20:30")]) == []  # Tuesday under the 2019 rules
    assert hours([play("2021-09-01 20:30")]) == ["minor-window-2021"]


def test_the_2019_night_and_day_totals():
    born = date(2005, 1, 1)
    assert hours([play("2020-06-02 21:59")], born) == []
    assert hours([play("2020-06-02 22:00")], born) == ["minor-night-2019"]
    assert hours([play("2020-06-02 12:00", "2020-06-02 13:30")], born) == []
    assert hours([play("2020-06-02 12:00", "2020-06-02 13:31")], born) == ["minor-daily-2019"]
    assert hours([play("2020-10-02 12:00", "2020-10-02 15:00")], born) == []  # 国庆: 3 h
    assert hours([play("2020-10-02 12:00", "2020-10-02 15:01")], born) == ["minor-daily-2019"]


def test_an_adult_is_under_no_hours_and_18_is_adult():
    assert hours([play("2022-01-10 23:00")], birth=date(2004, 1, 10)) == []
    assert hours([play("2022-01-09 23:00")], birth=date(2004, 1, 10)) == [
        "minor-night-statute",
        "minor-window-2021",
    ]


def test_a_day_the_calendar_does_not_cover_is_indeterminate_unless_the_weekday_decides():
    found, statuses = run([account(birth=date(2015, 1, 1))], plays=[play("2027-01-04 20:30")])
    assert [(f.status, f.missing) for f in found if f.check == "minor_hours"] == [
        ("indeterminate", "calendar")
    ]
    assert statuses["minor_hours"] == "indeterminate"
    assert hours([play("2027-01-08 20:30")], birth=date(2015, 1, 1)) == []  # a Friday


def test_a_session_crossing_midnight_is_judged_on_both_days():
    got = hours([play("2022-01-08 20:30", "2022-01-09 00:30")])
    assert got == ["minor-night-statute", "minor-window-2021"]
    found, _ = run([account(birth=BORN_2007)], plays=[play("2022-01-08 20:30", "2022-01-09 00:30")])
    [window] = [f for f in found if f.duty == "minor-window-2021"]
    assert window.value == Decimal(210)


def test_the_checks_state_is_per_account_and_month_not_per_event():
    start = datetime(2022, 1, 10, 23, 0)
    plays = [
        play((start + timedelta(days=d)).strftime("%Y-%m-%d %H:%M"), sid=f"s{d}") for d in range(60)
    ]
    found, _ = run([account(birth=BORN_2007)], plays=plays)
    window = [f for f in found if f.duty == "minor-window-2021"]
    assert [f.date for f in window] == ["2022-01", "2022-02", "2022-03"]
    assert sum(f.event_count for f in window) == 60
    assert all(len(f.events) <= 10 for f in window)
