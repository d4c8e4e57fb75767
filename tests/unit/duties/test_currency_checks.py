"""Checks 7, 8, 11, 12, 14 and 16: what moves points or currency out, between users, in
without money or by chance for money; minors in trades and draws; service gaps."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from compliance.logs.platform_records import DrawOdds, LedgerEvent
from tests.unit.duties.builders import P, account, at, breaches, features, play, run

ADULT = account(birth=date(1990, 1, 1))


def ev(id, type, when="2022-03-01 12:00", acc="a1", **kw):
    return LedgerEvent(
        format="ledger/1", platform=P, id=id, account=acc, type=type, at=at(when), **kw
    )


def found(events, accounts=(ADULT,), config=None, check=None):
    got, _ = run(list(accounts), events=events, config=config)
    return sorted(f.duty for f in breaches(got) if check is None or f.check == check)


def test_a_withdrawal_is_a_cash_out_and_a_refund_is_not():
    assert found([ev("w1", "withdrawal", yuan=Decimal("100"))], check="cash_out") == [
        "cashout-withdrawal-2007"
    ]
    assert found([ev("r1", "refund", yuan=Decimal("100"))], check="cash_out") == []
    assert (
        found([ev("w1", "withdrawal", when="2007-01-24 12:00", yuan=Decimal(1))], check="cash_out")
        == []
    )


def test_points_for_goods_breach_and_props_for_goods_are_a_signal():
    points = found([ev("g1", "redemption", units=500, currency="points")], check="cash_out")
    props = found([ev("g1", "redemption", units=5, currency="prop")], check="cash_out")
    assert points == ["cashout-redemption-points-2007"]
    assert props == ["cashout-redemption-props-2016"]
    got, _ = run([ADULT], events=[ev("g1", "redemption", units=5, currency="prop")])
    assert [f.severity for f in breaches(got)] == ["signal"]


def test_a_transfer_of_points_between_users_breaches_whatever_the_features():
    move = ev("t1", "transfer", units=100, currency="points", counterpart="a2")
    assert found([move], config=[features(transfers=True)], check="transfers") == [
        "transfer-points-2007"
    ]
    to_self = ev("t1", "transfer", units=100, currency="points", counterpart="a1")
    assert found([to_self], check="transfers") == []


def test_a_currency_transfer_breaches_only_where_transfers_are_no_feature():
    move = ev("t1", "transfer", units=100, currency="diamond", counterpart="a2")
    assert found([move], config=[features(transfers=False)], check="transfers") == [
        "transfer-currency-2009"
    ]
    assert found([move], config=[features(transfers=True)], check="transfers") == []
    got, _ = run([ADULT], events=[move], config=[])
    assert [(f.status, f.missing) for f in got if f.check == "transfers"] == [
        ("indeterminate", "platform-config features")
    ]


def test_a_grant_of_currency_breaches_from_2009_06_04():
    assert found([ev("g1", "grant", units=10, currency="diamond")], check="unbought_currency") == [
        "grant-currency-2009"
    ]
    early = ev("g1", "grant", when="2009-06-03 12:00", units=10, currency="diamond")
    assert found([early], check="unbought_currency") == []


def test_a_paid_draw_breaches_and_draws_need_published_odds():
    odds = DrawOdds(
        format="platform-config/1", platform=P, pool="box", item="gold", probability=Decimal("0.01")
    )
    paid = ev("d1", "draw", yuan=Decimal("6"), result="gold")
    assert found([paid], config=[odds], check="paid_draws") == ["paid-draw-2009"]
    assert found([paid], config=[], check="paid_draws") == [
        "draw-odds-published-2016",
        "paid-draw-2009",
    ]
    free = ev("d1", "draw", result="gold")
    assert found([free], config=[odds], check="paid_draws") == []


def test_a_minor_in_a_transfer_or_draw_is_a_draft_advisory_from_2023_12_22():
    minor = account(birth=date(2010, 1, 1))
    move = ev(
        "t1", "transfer", when="2023-12-22 00:00", units=1, currency="diamond", counterpart="a2"
    )
    got, _ = run([minor], events=[move], config=[features(transfers=True)])
    [f] = [f for f in breaches(got) if f.check == "minor_trades"]
    assert (f.duty, f.severity) == ("minor-trades-draft-2023", "advisory")
    before = ev(
        "t1", "transfer", when="2023-12-21 23:59", units=1, currency="diamond", counterpart="a2"
    )
    assert found([before], [minor], [features(transfers=True)], check="minor_trades") == []


def test_30_days_without_a_session_is_a_service_gap_and_29_is_not():
    def gaps(*days):
        got, _ = run([ADULT], plays=[play(f"{d} 12:00", sid=d) for d in days])
        return [(f.duty, f.value, f.severity) for f in breaches(got) if f.check == "service_gaps"]

    assert gaps("2022-03-01", "2022-03-31") == []  # 29 days between
    assert gaps("2022-03-01", "2022-04-01") == [("service-gap-2009", Decimal(30), "signal")]


def test_a_payer_other_than_the_account_holder_is_a_signal():
    named = account(birth=date(1990, 1, 1))
    named = named.__class__(
        **{**{f: getattr(named, f) for f in named.__struct_fields__}, "real_name": "n1"}
    )
    same = ev("e1", "recharge", yuan=Decimal(6), units=60, currency="diamond", payer="n1")
    other = ev("e1", "recharge", yuan=Decimal(6), units=60, currency="diamond", payer="n2")
    assert found([same], [named], check="payer_name") == []
    got, _ = run([named], events=[other])
    [f] = [f for f in breaches(got) if f.check == "payer_name"]
    assert (f.duty, f.severity, f.value) == ("payer-name-signal", "signal", Decimal(6))
    unnamed, _ = run([ADULT], events=[other])
    assert [f.missing for f in unnamed if f.check == "payer_name"] == ["real_name"]


def test_a_recharge_at_another_unit_price_is_a_signal():
    first = ev("e1", "recharge", yuan=Decimal(6), units=60, currency="diamond")
    same = ev("e2", "recharge", yuan=Decimal(30), units=300, currency="diamond")
    cheaper = ev("e3", "recharge", yuan=Decimal(30), units=330, currency="diamond")
    assert found([first, same], check="unit_price") == []
    got, _ = run([ADULT], events=[first, same, cheaper])
    [f] = [f for f in breaches(got) if f.check == "unit_price"]
    assert (f.subject, f.value, f.cap, f.events[0].id) == (
        "currency:diamond",
        Decimal("0.0909"),
        Decimal("0.1000"),
        "e3",
    )


def test_the_drafts_rewards_and_recharge_limit_are_advisories_from_2023_12_22():
    login = ev(
        "g1", "grant", when="2024-01-02 08:00", units=5, currency="diamond", reason="login_streak"
    )
    gift = ev("g2", "grant", when="2024-01-02 08:00", units=5, currency="diamond", reason="event")
    got, _ = run([ADULT], events=[login, gift], config=[], today=date(2024, 1, 2))
    advisories = sorted(
        (f.duty, f.subject, f.severity) for f in breaches(got) if f.check == "draft_advisories"
    )
    assert advisories == [
        ("draft-login-reward-2023", "account:a1", "advisory"),
        ("draft-recharge-limit-2023", "platform:plat", "advisory"),
    ]
    early = ev(
        "g1", "grant", when="2023-12-21 08:00", units=5, currency="diamond", reason="first_recharge"
    )
    got, _ = run([ADULT], events=[early], config=[], today=date(2023, 12, 21))
    assert [f for f in breaches(got) if f.check == "draft_advisories"] == []
