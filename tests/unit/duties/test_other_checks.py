"""Checks 1, 2, 10, 15 and 21 on their figures and dates, and what absent inputs give."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from compliance.domain.duties.engine import NEEDS_ACCOUNTS, NEEDS_CONFIG, NEEDS_LEDGER
from compliance.domain.duties.rows import CHECKS
from tests.unit.duties.builders import (
    account,
    at,
    breaches,
    cap,
    confirm,
    features,
    keep,
    mode,
    pay,
    play,
    run,
    settle,
)


def duties(found, check):
    return sorted(f.duty for f in breaches(found) if f.check == check)


# ── 1. Unverified play ───────────────────────────────────────────────────────────────


def test_unverified_play_breaches_and_verification_after_the_session_is_too_late():
    late = account(verified_at=at("2022-03-01 12:00"))
    assert duties(run([late], plays=[play("2022-03-01 11:59")])[0], "unverified_play") == [
        "real-name-2021"
    ]
    assert duties(run([late], plays=[play("2022-03-01 12:00")])[0], "unverified_play") == []
    pending = account(status="pending")
    [f] = breaches(run([pending], plays=[play("2022-03-01 12:00")])[0])
    assert (f.subject, f.value, f.events[0].id) == ("account:a1", Decimal(1), "s1")


def test_guests_are_unverified_from_2021_09_01_and_under_the_guest_rules_before():
    guest = account(kind="guest", status="unverified")
    assert duties(run([guest], plays=[play("2021-08-31 12:00")])[0], "unverified_play") == []
    assert duties(run([guest], plays=[play("2021-09-01 12:00")])[0], "unverified_play") == [
        "real-name-2021"
    ]
    player = account(status="unverified")
    assert duties(run([player], plays=[play("2021-08-31 12:00")])[0], "unverified_play") == [
        "real-name-2019"
    ]
    assert duties(run([player], plays=[play("2019-10-31 12:00")])[0], "unverified_play") == []


def test_an_account_missing_from_the_file_or_its_verification_is_indeterminate():
    found, statuses = run(
        [account(status=None)], plays=[play("2022-03-01 12:00"), play("2022-03-01 12:00", acc="zz")]
    )
    missing = sorted(f.missing for f in found if f.check == "unverified_play")
    assert missing == ["accounts", "verification"]
    assert statuses["unverified_play"] == "indeterminate"


# ── 2. Guest rules (2019-11-01 to 2021-08-31) ────────────────────────────────────────


def guest(id="g1", devices=("dev1",)):
    return account(id, kind="guest", status="unverified", devices=devices)


def test_a_guest_may_play_60_minutes_not_61():
    held = run(
        [guest()],
        plays=[
            play("2020-06-01 12:00", "2020-06-01 12:30", acc="g1"),
            play("2020-06-01 13:00", "2020-06-01 13:30", acc="g1", sid="s2"),
        ],
    )
    broke = run([guest()], plays=[play("2020-06-01 12:00", "2020-06-01 13:01", acc="g1")])
    assert duties(held[0], "guest_rules") == []
    [f] = breaches(broke[0], "guest-hour-2019")
    assert (f.value, f.cap) == (Decimal(61), Decimal(60))


def test_a_guest_may_not_pay():
    found, _ = run([guest()], events=[pay("e1", "2020-06-01 12:00", "6", acc="g1")])
    assert duties(found, "guest_rules") == ["guest-payment-2019"]
    later, _ = run([guest()], events=[pay("e1", "2021-09-01 12:00", "6", acc="g1")])
    assert duties(later, "guest_rules") == []


def test_one_device_gets_guest_mode_once_in_15_days():
    accs = [guest("g1"), guest("g2")]
    first = play("2020-06-01 12:00", "2020-06-01 12:10", acc="g1")
    again = play("2020-06-15 11:59", "2020-06-15 12:05", acc="g2", sid="s2")
    later = play("2020-06-16 12:00", "2020-06-16 12:05", acc="g2", sid="s2")
    [f] = breaches(run(accs, plays=[first, again])[0], "guest-device-2019")
    assert (f.subject, f.account, f.events[0].id) == ("device:dev1", "g2", "s2")
    assert not breaches(run(accs, plays=[first, later])[0], "guest-device-2019")


# ── 10. Point caps ───────────────────────────────────────────────────────────────────


def test_a_round_at_the_cap_holds_and_one_point_more_breaches():
    config = [mode(round_cap=100, day_cap=1000)]
    held = run([account()], events=[settle("r1", "2022-03-01 12:00", -100)], config=config)
    broke = run([account()], events=[settle("r1", "2022-03-01 12:00", -101)], config=config)
    assert duties(held[0], "point_caps") == []
    [f] = breaches(broke[0], "point-cap-round-2007")
    assert (f.value, f.cap, f.events[0].units) == (Decimal(101), Decimal(100), -101)


def test_the_day_sums_each_rounds_swing_on_one_beijing_day():
    config = [mode(round_cap=100, day_cap=1000)]
    rounds = [settle(f"r{i}", "2022-03-01 12:00", 100 if i % 2 else -100) for i in range(10)]
    assert duties(run([account()], events=rounds, config=config)[0], "point_caps") == []
    more = [*rounds, settle("r10", "2022-03-01 23:59", 1)]
    assert duties(run([account()], events=more, config=config)[0], "point_caps") == [
        "point-cap-day-2007"
    ]
    next_day = [*rounds, settle("r10", "2022-03-02 00:00", 1)]
    assert duties(run([account()], events=next_day, config=config)[0], "point_caps") == []


def test_a_point_mode_without_both_caps_breaches_and_a_mode_not_listed_is_indeterminate():
    config = [mode("m1", round_cap=100, day_cap=None), mode("cards", None, None, stakes=False)]
    found, _ = run(
        [account()], events=[settle("r1", "2022-03-01 12:00", 5, mode="m9")], config=config
    )
    [f] = breaches(found, "point-caps-configured-2007")
    assert (f.subject, f.detail) == ("mode:m1", "mode m1 has no day_cap")
    assert [
        f.missing for f in found if f.status == "indeterminate" and f.check == "point_caps"
    ] == ["platform-config mode m9"]


# ── 15. Single-recharge cap and confirmations ────────────────────────────────────────


def test_a_recharge_at_the_cap_holds_and_a_fen_more_breaches():
    adult = account(birth=date(1990, 1, 1))
    events = [pay("e1", "2022-03-01 12:00", "648"), confirm("c1", "e1", "2022-03-01 12:00")]
    assert duties(run([adult], events=events, config=[cap("648")])[0], "recharge_cap") == []
    events = [pay("e1", "2022-03-01 12:00", "648.01"), confirm("c1", "e1", "2022-03-01 12:00")]
    [f] = breaches(run([adult], events=events, config=[cap("648")])[0])
    assert (f.duty, f.value, f.cap, f.confidence) == (
        "recharge-cap-2016",
        Decimal("648.01"),
        Decimal(648),
        "L",
    )


def test_every_payment_needs_a_confirmation_before_or_after_it_in_the_file():
    adult = account(birth=date(1990, 1, 1))
    events = [
        confirm("c1", "e1", "2022-03-01 12:00"),
        pay("e1", "2022-03-01 12:00", "6"),
        pay("e2", "2022-03-01 12:00", "6"),
        confirm("c2", "e2", "2022-03-01 12:00"),
        pay("e3", "2022-03-01 12:00", "6"),
    ]
    [f] = breaches(run([adult], events=events, config=[cap("648")])[0])
    assert (f.duty, f.value, [e.id for e in f.events]) == (
        "recharge-confirmation-2016",
        Decimal(1),
        ["e3"],
    )
    before = [pay("e1", "2017-04-30 23:59", "6")]
    assert not breaches(run([adult], events=before, config=[cap("648")])[0])


def test_without_a_configured_cap_the_cap_is_indeterminate():
    adult = account(birth=date(1990, 1, 1))
    found, _ = run(
        [adult],
        events=[pay("e1", "2022-03-01 12:00", "6"), confirm("c1", "e1", "2022-03-01 12:01")],
        config=[],
    )
    assert [(f.status, f.missing) for f in found if f.check == "recharge_cap"] == [
        ("indeterminate", "platform-config recharge_cap")
    ]


# ── 21. Retention ────────────────────────────────────────────────────────────────────

ON = date(2024, 6, 30)  # after the 2023 draft, for its advisory
HELD = [keep(k, ON - timedelta(days=200), ON) for k in ("consumption",)] + [
    keep("sessions", date(2021, 12, 30), ON),
    keep("logins", date(2021, 12, 30), ON),
]


def retention(recharges_oldest, extra=(), feats=None):
    config = [keep("recharges", recharges_oldest, ON), *HELD, *extra, feats or features()]
    found, _ = run([account()], config=config, today=ON)
    return sorted(f.duty for f in breaches(found) if f.check == "retention"), found


def test_the_drafts_two_years_are_an_advisory_only_from_its_publication():
    found, _ = run(
        [account()],
        config=[keep("recharges", date(2023, 12, 21) - timedelta(days=200), date(2023, 12, 21))],
        today=ON,
    )
    assert not [f for f in breaches(found) if f.duty == "retain-recharges-draft-2023"]


def test_recharges_kept_exactly_180_days_hold_and_179_breach():
    assert retention(ON - timedelta(days=180))[0] == ["retain-recharges-draft-2023"]
    got, found = retention(ON - timedelta(days=179))
    assert got == ["retain-recharges-2009", "retain-recharges-draft-2023"]
    [f] = [f for f in found if f.duty == "retain-recharges-2009"]
    assert (f.value, f.cap) == (Decimal(179), Decimal(180))
    [draft] = [f for f in found if f.duty == "retain-recharges-draft-2023"]
    assert draft.severity == "advisory"


def test_session_logs_six_months_back_to_the_same_day():
    assert retention(ON - timedelta(days=800))[0] == []
    short = [keep("sessions", date(2023, 12, 31), ON)]
    found, _ = run(
        [account()],
        config=[
            keep("recharges", ON - timedelta(days=800), ON),
            *HELD[:1],
            *short,
            HELD[2],
            features(),
        ],
        today=ON,
    )
    assert duties(found, "retention") == ["retain-network-logs-csl"]


def test_a_platform_younger_than_the_period_holds_what_it_has():
    young = keep("recharges", date(2022, 5, 1), ON, since=date(2022, 5, 1))
    found, _ = run([account()], config=[young, *HELD, features()], today=ON)
    assert duties(found, "retention") == []


def test_transfer_and_draw_logs_are_due_only_where_the_feature_exists():
    base = ON - timedelta(days=800)
    assert retention(base)[0] == []
    got, found = retention(base, feats=features(transfers=True, draws=True))
    missing = sorted(
        f.missing for f in found if f.status == "indeterminate" and f.check == "retention"
    )
    assert missing == ["platform-config retention draws", "platform-config retention transfers"]
    got, _ = retention(
        base, [keep("transfers", ON - timedelta(days=10), ON)], features(transfers=True)
    )
    assert got == ["retain-transfers-2009"]


# ── Absent inputs ────────────────────────────────────────────────────────────────────


def test_a_check_whose_input_is_not_given_is_indeterminate_never_held():
    found, statuses = run(plays=[play("2022-03-01 12:00")], with_accounts=False, ledger=False)
    missing = {(f.check, f.missing) for f in found}
    assert missing == {
        *((c, "accounts") for c in NEEDS_ACCOUNTS),
        *((c, "ledger") for c in NEEDS_LEDGER),
        *((c, "platform-config") for c in NEEDS_CONFIG),
    }
    assert {c for c, _ in missing} == set(CHECKS) - {
        "service_gaps",
        "outcome_fees",
        "mirrored_gains",
    }  # sessions suffice
    assert set(statuses.values()) == {"indeterminate"}
    assert all(f.status == "indeterminate" and f.reason for f in found)
