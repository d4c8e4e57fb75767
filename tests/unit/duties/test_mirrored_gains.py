"""Check 18's mirrored gains as duty findings: a dumping pair and a group found with their
accounts, rooms, sessions and amounts; friends, team games and heads-up play not."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from decimal import Decimal

from compliance.domain.duties.calendar import SHANGHAI
from compliance.domain.duties.collect import Collector
from compliance.domain.duties.engine import DutyAudit, DutyOptions
from compliance.domain.duties.mirrored_gains import judge_mirrored, tables
from tests.unit.duties.builders import BOOK, P, breaches, play

START = datetime(2025, 3, 1, 20, 0, tzinfo=SHANGHAI)


def session(n, room, nets, game="douniu"):
    at = START + timedelta(hours=n)
    return [(P, f"s{n:04d}", room, game, at, player, Decimal(net)) for player, net in nets]


def dumping(rng, mule, boss, start, count=12):
    rows = []
    for i in range(count):
        lost = rng.randint(150, 400)
        a, b = rng.randint(-5, 5), rng.randint(-5, 5)
        nets = [(mule, -lost), (boss, lost - a - b), (f"x{i}", a), (f"y{i}", b)]
        rows += session(start + i, f"room{i % 4}", sorted(nets))
    return rows


def friends(rng, start, count=60, game="douniu"):
    rows = []
    for i in range(count):
        nets = [rng.randint(-300, 300) for _ in range(3)]
        four = zip(["f1", "f2", "f3", "f4"], [*nets, -sum(nets)], strict=True)
        rows += session(start + i, f"room{i % 3}", list(four), game)
    return rows


def judged(rows):
    audit = DutyAudit(BOOK, DutyOptions(date(2025, 12, 1)), None, None, False)
    audit.play(play("2025-03-01 20:00"))
    audit.mirrored_gains(lambda: iter(sorted(rows, key=lambda r: (r[0], r[1], r[5]))))
    found = audit.finish()
    return [f for f in found if f.check == "mirrored_gains"], audit.statuses()


def test_a_dumping_pair_is_a_signal_with_its_accounts_rooms_sessions_and_amounts():
    rng = random.Random(1)
    found, statuses = judged(dumping(rng, "mule", "boss", 0) + friends(rng, 100))
    [f] = breaches(found)
    assert f.severity == "signal" and f.duty == "mirrored-gains-2007" and f.confidence == "L"
    assert f.subject == "accounts:boss+mule" and f.account == "boss"
    assert f.event_count == 12 and len(f.events) == 10
    assert f.value is not None and f.value >= Decimal(1000) and f.cap == Decimal(1000)
    assert all(e.id.startswith("s") and e.yuan and e.yuan > 0 for e in f.events)
    assert f.detail.startswith("signal, not a violation")
    assert "boss gained" in f.detail and "room0, room1, room2, room3" in f.detail
    assert statuses["mirrored_gains"] == "breached"


def test_a_group_feeding_one_account_is_one_finding():
    rng = random.Random(2)
    rows = dumping(rng, "m1", "boss", 0) + dumping(rng, "m2", "boss", 20)
    rows += dumping(rng, "m3", "boss", 40)
    [f] = breaches(judged(rows)[0])
    assert f.subject == "accounts:boss+m1+m2+m3" and f.account == "boss"
    assert f.event_count == 36


def test_friends_team_games_and_small_sums_are_not_flagged():
    rng = random.Random(3)
    found, statuses = judged(friends(rng, 0, 300))
    assert breaches(found) == [] and statuses["mirrored_gains"] == "held"
    team = []
    for i in range(30):
        team += session(
            i, f"r{i % 3}", [("a", 500), ("b", 500), ("c", -500), ("d", -500)], "guandan"
        )
    assert breaches(judged(team)[0]) == []
    small = [r[:6] + (r[6] / 100,) for r in dumping(rng, "mule", "boss", 0)]
    assert breaches(judged(small)[0]) == []


def test_a_session_with_an_unknown_net_is_left_out():
    rows = session(0, "r", [("a", 1), ("b", -1)]) + [(P, "s9", "r", "douniu", START, "c", None)]
    assert list(tables(rows, set()))[0].session_id == "s0000"
    assert len(list(tables(rows, set()))) == 1


def test_the_search_reads_the_sessions_twice_and_holds_nothing_else():
    calls = []

    def read():
        calls.append(1)
        return iter(dumping(random.Random(4), "mule", "boss", 0))

    collect = Collector()
    judge_mirrored(BOOK, date(2025, 12, 1), read, collect, [P])
    assert len(calls) == 2 and len(collect.breaches) == 1
