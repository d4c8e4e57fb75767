"""Checks 4, 17, 18 (coin traders) and 20: golden cases on each side of each figure of
their rows in data/duties.toml; every finding is a signal and says so."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.logs.platform_records import LedgerEvent
from tests.unit.duties.builders import BOOK, P, account, at, breaches

TODAY = date(2026, 6, 1)


def ev(id, type, when, acc="a1", **kw):
    return LedgerEvent(format="ledger/1", platform=P, id=id, account=acc, type=type, at=when, **kw)


def audit(accounts=(), events=(), sessions=(), today=TODAY):
    a = DutyAudit(BOOK, DutyOptions(today), list(accounts), None, True)
    for s in sessions:
        a.session(P, *s)
    for e in events:
        a.event(e)
    return a.finish(), a


def signals(findings, check):
    found = [f for f in breaches(findings) if f.check == check]
    for f in found:
        assert f.severity == "signal"
        assert "signal, not a violation" in f.detail
    return found


# ── 4. resale ─────────────────────────────────────────────────────────────────────
START = at("2025-01-01 12:00")
OWN = dict(device="phone-1", region="广东", payer="name-a1")


def history(acc="a1", **own):
    own = OWN | own
    return [
        ev(f"{acc}-l0", "login", START, acc=acc, device=own["device"], region=own["region"]),
        ev(f"{acc}-p0", "recharge", START, acc=acc, yuan=6, payer=own["payer"]),
    ]


def change(acc="a1", device_day=40, payer_day=50, region_day=60, **new):
    new = {"device": "phone-x", "region": "云南", "payer": "name-buyer"} | new

    def day(n):
        return timedelta(days=n) if isinstance(n, int) else n

    return [
        ev(f"{acc}-l1", "login", START + day(device_day), acc=acc, device=new["device"]),
        ev(f"{acc}-p1", "recharge", START + day(payer_day), acc=acc, yuan=6, payer=new["payer"]),
        ev(f"{acc}-l2", "login", START + day(region_day), acc=acc, region=new["region"]),
    ]


PERSON = account("a1", person="p1", devices=["phone-1"])


def test_device_payer_and_region_all_new_within_30_days_is_a_resale_signal():
    found, _ = audit([PERSON], history() + change(device_day=40, region_day=70))
    [f] = signals(found, "account_resale")
    assert (f.subject, f.person, f.value, f.cap) == ("account:a1", "p1", 30, 30)
    assert [e.id for e in f.events] == ["a1-l1", "a1-p1", "a1-l2"]
    assert f.confidence == "M" and f.check_no == 4
    minute = timedelta(days=70, minutes=1)
    later, _ = audit([PERSON], history() + change(device_day=40, region_day=minute))
    assert signals(later, "account_resale") == []


def test_a_change_before_the_account_settled_30_days_is_not_resale():
    found, _ = audit([PERSON], history() + change(device_day=30, payer_day=31, region_day=32))
    assert len(signals(found, "account_resale")) == 1
    early, _ = audit([PERSON], history() + change(device_day=29, payer_day=31, region_day=32))
    assert signals(early, "account_resale") == []


def test_a_new_phone_alone_or_a_move_with_a_new_phone_is_not_resale():
    phone = [ev("n", "login", START + timedelta(days=40), device="phone-2", region="广东")]
    found, a = audit([PERSON], history() + phone)
    assert signals(found, "account_resale") == []
    assert a.statuses()["account_resale"] == "held"
    moved = change()[0:1] + change()[2:]
    found, _ = audit([PERSON], history() + moved)
    assert signals(found, "account_resale") == []


def test_a_registered_device_is_the_accounts_own():
    found, _ = audit(
        [account("a1", person="p1", devices=["phone-1", "phone-x"])], history() + change()
    )
    assert signals(found, "account_resale") == []


def test_a_changed_account_without_a_person_key_is_indeterminate():
    found, _ = audit([account("a1")], history() + change())
    assert signals(found, "account_resale") == []
    [f] = [f for f in found if f.check == "account_resale"]
    assert (f.status, f.missing) == ("indeterminate", "accounts person")


def test_resale_before_the_statute_is_not_signalled():
    old = [
        ev(e.id, e.type, e.at - timedelta(days=3 * 365), acc=e.account, **_fields(e))
        for e in history() + change()
    ]
    found, _ = audit([PERSON], old)
    assert signals(found, "account_resale") == []


def _fields(e):
    return {k: getattr(e, k) for k in ("yuan", "device", "region", "payer") if getattr(e, k)}


# ── 17. agents at their own tables ───────────────────────────────────────────────
AGENT = account("ag", kind="agent", person="pa")


def table(sid, when, players=("ag", "b", "c", "d"), owner="ag", room="r1"):
    return (sid, room, owner, players, at(when))


def card(id, sid, when, acc="ag"):
    return ev(
        id, "room_card_use", at(when), acc=acc, units=-1, currency="room_card", session_id=sid
    )


def test_an_agent_at_two_own_tables_within_30_days_is_a_signal_and_one_is_not():
    sessions = [table("s1", "2025-03-01 20:00"), table("s2", "2025-03-31 20:00", room="r2")]
    found, _ = audit(
        [AGENT],
        [card("c1", "s1", "2025-03-01 19:59"), card("c2", "s2", "2025-03-31 19:59")],
        sessions,
    )
    [f] = signals(found, "agent_tables")
    assert (f.subject, f.person, f.value, f.check_no) == ("account:ag", "pa", 2, 17)
    assert f.rooms == ["r1", "r2"] and f.accounts == ["ag"]
    assert {e.id for e in f.events} == {"s1", "s2", "c1", "c2"}
    assert f.confidence == "L"
    one, _ = audit([AGENT], [card("c1", "s1", "2025-03-01 19:59")], sessions[:1])
    assert signals(one, "agent_tables") == []


def test_own_tables_30_days_and_a_minute_apart_are_not_a_signal():
    sessions = [table("s1", "2025-03-01 20:00"), table("s2", "2025-03-31 20:01")]
    found, _ = audit(
        [AGENT],
        [card("c1", "s1", "2025-03-01 19:59"), card("c2", "s2", "2025-03-31 20:00")],
        sessions,
    )
    assert signals(found, "agent_tables") == []


def test_an_agent_who_opens_rooms_for_others_and_plays_elsewhere_is_not_a_signal():
    sessions = [
        table("s1", "2025-03-01 20:00", players=("b", "c", "d", "e")),
        table("s2", "2025-03-02 20:00", players=("b", "c", "d", "e")),
        table("s3", "2025-03-03 20:00", owner="b"),
        table("s4", "2025-03-04 20:00", owner="b"),
    ]
    cards = [card("c1", "s1", "2025-03-01 19:00"), card("c2", "s2", "2025-03-02 19:00")]
    cards += [
        card("c3", "s3", "2025-03-03 19:00", acc="b"),
        card("c4", "s4", "2025-03-04 19:00", acc="b"),
    ]
    found, a = audit([AGENT, account("b")], cards, sessions)
    assert signals(found, "agent_tables") == []
    assert a.statuses()["agent_tables"] == "held"


def test_a_player_at_his_own_tables_is_not_check_17s():
    sessions = [table("s1", "2025-03-01 20:00"), table("s2", "2025-03-02 20:00")]
    cards = [card("c1", "s1", "2025-03-01 19:00"), card("c2", "s2", "2025-03-02 19:00")]
    found, _ = audit([account("ag")], cards, sessions)
    assert signals(found, "agent_tables") == []


# ── 18. coin traders ──────────────────────────────────────────────────────────────
def gifts(n, units=2000, to="t", when="2025-05-01 10:00", step=timedelta(hours=1)):
    return [
        ev(
            f"g{i}",
            "transfer",
            at(when) + i * step,
            acc=f"s{i}",
            units=units,
            currency="diamond",
            counterpart=to,
        )
        for i in range(n)
    ]


def out(units, when="2025-05-07 23:00", type="transfer", **kw):
    extra = {"counterpart": "buyer"} if type == "transfer" else {}
    return ev("o1", type, at(when), acc="t", units=units, currency="diamond", **extra | kw)


def test_eight_small_transfers_in_then_one_of_their_sum_out_is_a_coin_trader_signal():
    found, _ = audit([account("t", person="pt")], gifts(8) + [out(12800)])
    [f] = signals(found, "coin_traders")
    assert (f.subject, f.person, f.check_no) == ("account:t", "pt", 18)
    assert (f.value, f.cap) == (Decimal("0.8"), Decimal("0.8"))
    assert f.accounts == sorted(["buyer", *(f"s{i}" for i in range(8))])
    assert f.events[0].id == "o1" and len(f.events) == 9
    assert f.confidence == "L"
    below, _ = audit([], gifts(8) + [out(12799)])
    assert signals(below, "coin_traders") == []


def test_seven_senders_or_transfers_of_2001_are_not_many_small_ones():
    few, _ = audit([], gifts(7) + [out(14000)])
    assert signals(few, "coin_traders") == []
    big, _ = audit([], gifts(8, units=2001) + [out(16008)])
    assert signals(big, "coin_traders") == []


def test_the_outflow_counts_the_seven_days_before_its_day_and_a_withdrawal_is_one():
    found, _ = audit([], gifts(8, when="2025-05-01 10:00") + [out(12800, when="2025-05-08 01:00")])
    assert len(signals(found, "coin_traders")) == 1
    late, _ = audit([], gifts(8, when="2025-05-01 10:00") + [out(12800, when="2025-05-09 01:00")])
    assert signals(late, "coin_traders") == []
    paid, _ = audit([], gifts(8) + [out(12800, type="withdrawal", yuan=1280)])
    [f] = signals(paid, "coin_traders")
    assert f.events[0].type == "withdrawal_out"


def test_gifts_from_friends_with_no_large_outflow_and_a_heavy_payer_are_not_traders():
    birthday, _ = audit([], gifts(20, units=100) + [out(500)])
    assert signals(birthday, "coin_traders") == []
    heavy = [
        ev(f"r{i}", "recharge", at("2025-05-01 10:00"), acc="t", yuan=648, units=6480)
        for i in range(10)
    ]
    found, _ = audit([], heavy + gifts(1, units=50000) + [out(60000)])
    assert signals(found, "coin_traders") == []


def test_an_outflow_before_the_transfers_in_is_not_followed_by_them():
    found, _ = audit([], [out(12800, when="2025-04-30 23:00")] + gifts(8))
    assert signals(found, "coin_traders") == []


# ── 20. fraud flags ───────────────────────────────────────────────────────────────
def flag(when="2025-06-01 10:00"):
    return ev("f1", "fraud_flag", at(when), acc="a1")


def test_a_flag_without_a_measure_within_7_days_is_a_signal():
    found, _ = audit([account("a1", person="p1")], [flag()])
    [f] = signals(found, "fraud_reverification")
    assert (f.subject, f.person, f.check_no, f.confidence) == ("account:a1", "p1", 20, "M")
    assert [e.id for e in f.events] == ["f1"]
    for kind in ("reverification", "restriction"):
        answered, a = audit([], [flag(), ev("m", kind, at("2025-06-08 10:00"))])
        assert signals(answered, "fraud_reverification") == []
        assert a.statuses()["fraud_reverification"] == "held"
    late, _ = audit([], [flag(), ev("m", "reverification", at("2025-06-08 10:01"))])
    assert [f.value for f in signals(late, "fraud_reverification")] == [7]


def test_a_measure_before_the_flag_does_not_answer_it_and_a_recent_flag_is_not_due():
    found, _ = audit([], [ev("m", "restriction", at("2025-05-31 10:00")), flag()])
    assert len(signals(found, "fraud_reverification")) == 1
    recent, _ = audit([], [flag("2026-05-26 10:00")], today=date(2026, 6, 1))
    assert signals(recent, "fraud_reverification") == []
    due, _ = audit([], [flag("2026-05-24 10:00")], today=date(2026, 6, 1))
    assert len(signals(due, "fraud_reverification")) == 1


def test_flags_before_the_statute_are_not_signalled():
    found, _ = audit([], [flag("2022-11-30 10:00")])
    assert signals(found, "fraud_reverification") == []


def test_without_a_ledger_the_signals_are_indeterminate():
    a = DutyAudit(BOOK, DutyOptions(TODAY), [account("a1")], None, False)
    found = a.finish()
    missing = {f.check for f in found if f.status == "indeterminate" and f.missing == "ledger"}
    assert {"account_resale", "agent_tables", "coin_traders", "fraud_reverification"} <= missing


# ── bounded state ───────────────────────────────────────────────────────────────────
def test_the_signals_state_stays_bounded_over_a_long_ledger():
    start = at("2025-01-01 12:00")
    events = [
        ev(
            f"g{d}-{i}",
            "transfer",
            start + timedelta(days=d, minutes=i),
            acc=f"s{i}",
            units=10,
            currency="diamond",
            counterpart="t",
        )
        for d in range(200)
        for i in range(20)
    ]
    events += [
        ev(f"l{d}", "login", start + timedelta(days=d), acc="t", device=f"d{d}", region="x")
        for d in range(200)
    ]
    _, a = audit([], events)
    buckets = a.signals.coins.days[(P, "t")]
    assert len(buckets) <= 8 and all(len(b.senders) <= 8 for b in buckets.values())
    assert len(a.signals.resale.profiles[(P, "t")].values["device"]) == 16
