"""Windows across stored sessions: organisers' criminal lines and 重庆's three-times rule."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.classifier import Classifier
from compliance.domain.ruleset import Resolver
from compliance.domain.windows import WindowFigures, judge_window
from compliance.service_layer import audit as services
from tests.sample_logs import douniu_rounds, session_dict


def write(path, sessions) -> str:
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sessions))
    return str(path)


def room(
    n,
    owner,
    day,
    *,
    fee=0,
    basis="fixed",
    base=10,
    grab=1,
    bets=(1,),
    where="430000",
    platform="p1",
    players=None,
    rounds=5,
):
    ids = players or [f"{owner}-u{n}-{i}" for i in range(4)]
    return session_dict(
        f"{owner}-{n:03d}",
        "douniu",
        ids,
        douniu_rounds(n, ids, rounds, base=base, grab=grab, bets=list(bets)),
        platform=platform,
        jurisdiction=where,
        point_value=1,
        started_at=f"{day}T20:00:00+08:00",
        owner={"id": owner, "room_fee": fee, "fee_basis": basis},
    )


def audit(url, path, **options):
    engine = make_engine(url)
    ensure_schema(engine)
    found = []
    summary = services.audit(
        SqlUnitOfWork(engine), [path], services.AuditOptions(**options), found.append
    )
    return summary, [f for f in found if f.session_id is None]


def by_subject(findings):
    return {f.subject: f for f in findings}


def test_a_room_owner_whose_rake_crosses_5000_in_the_window_is_criminal(any_db_url, tmp_path):
    regulars = ["a", "b", "c", "d"]
    sessions = [
        room(n, "boss", f"2026-0{1 + n % 5}-1{n}", fee=600, basis="stakes", players=regulars)
        for n in range(9)
    ]
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", sessions))
    boss = by_subject(windows)["owner:boss"]
    assert (boss.tier, boss.rule, boss.metric) == (
        "criminal",
        "interp-2005-gathering",
        "window_rake",
    )
    assert boss.value == 5400
    assert boss.statutory_penalty.startswith("以营利为目的，聚众赌博")
    assert sorted(boss.sessions) == sorted(s["session_id"] for s in sessions)
    assert boss.session_count == 9


def test_a_fixed_room_fee_is_not_rake(any_db_url, tmp_path):
    regulars = ["a", "b", "c", "d"]
    sessions = [room(n, "boss", "2026-03-01", fee=600, players=regulars) for n in range(9)]
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", sessions))
    assert by_subject(windows)["owner:boss"].tier == "below_threshold"


def test_a_platform_over_the_2010_lines_is_criminal_serious(any_db_url, tmp_path):
    big = [
        room(
            n,
            f"o{n}",
            "2026-02-0" + str(n + 1),
            fee=50,
            basis="results",
            base=100,
            grab=4,
            bets=(3,),
            rounds=20,
        )
        for n in range(3)
    ]
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", big))
    platform = by_subject(windows)["platform:p1"]
    assert (platform.tier, platform.rule) == ("criminal_serious", "online-2010-serious-platform")
    assert platform.elements[1] == (
        "以营利为目的: 抽头 150.00 yuan in the window (rounds[].rake, and owner.room_fee where "
        "fee_basis is stakes or results)"
    )
    assert platform.figures["window_capital"] >= 300000
    assert platform.statutory_penalty == "情节严重的，处五年以上十年以下有期徒刑，并处罚金"
    assert sorted(platform.sessions) == sorted(s["session_id"] for s in big)


def test_xingguo_online_douniu_room_before_2021_is_serious_under_the_law_of_that_date(
    any_db_url, tmp_path
):
    # 兴国: 赌资累计 549万余元, 抽头 22万余元, a WeChat 斗牛 room, convicted before 修正案十一.
    sessions = [
        room(
            n,
            "xingguo",
            f"2020-0{1 + n // 9}-{10 + n % 9}",
            fee=22000,
            basis="results",
            base=500,
            grab=4,
            bets=(3,),
            rounds=20,
            where="360000",
        )
        for n in range(10)
    ]
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", sessions), window_days=365)
    owner = by_subject(windows)["owner:xingguo"]
    assert owner.tier == "criminal_serious"
    assert owner.figures["window_rake"] == 220000
    assert owner.figures["window_capital"] > 5_000_000
    assert owner.statutory_penalty == "情节严重的，处三年以上十年以下有期徒刑，并处罚金"
    assert owner.judged_on.startswith("2020-")


def test_re_auditing_the_same_logs_does_not_change_any_window(any_db_url, tmp_path):
    sessions = [
        room(n, "boss", "2026-03-0" + str(1 + n), fee=600, basis="stakes") for n in range(5)
    ]
    path = write(tmp_path / "a.jsonl", sessions)
    _, first = audit(any_db_url, path)
    _, again = audit(any_db_url, path)
    assert [(f.subject, f.figures) for f in again] == [(f.subject, f.figures) for f in first]


def test_chongqing_counts_cumulative_win_loss_only_over_three_or_more_sessions(rule_book):
    classifier = Classifier(Resolver(rule_book))

    def player(sessions, net):
        return WindowFigures(
            kind="player",
            id="cq1",
            platform="p",
            jurisdiction="500000",
            start=date(2026, 1, 1),
            end=date(2026, 6, 29),
            sessions=sessions,
            net=Decimal(net),
            capital=Decimal(9000),
        )

    three = judge_window(classifier, player(3, -2500))
    assert (three.tier, three.rule, three.subject) == (
        "administrative",
        "cq-2006-large",
        "player:cq1",
    )
    assert three.matched == ["window_sessions ≥ 3", "window_win_loss ≥ 2000"]
    assert judge_window(classifier, player(3, 5000)).tier == "administrative_serious"
    assert judge_window(classifier, player(2, -2500)) is None
    assert judge_window(classifier, player(3, 1999)) is None


def test_organising_minors_is_an_aggravation_on_the_owners_window(any_db_url, tmp_path):
    sessions = [
        room(n, "boss", f"2026-03-0{1 + n}", fee=600, basis="stakes", players=["a", "b", "c", "d"])
        for n in range(9)
    ]
    sessions[0]["players"][1] = {"id": "b", "minor": True}
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", sessions))
    boss = by_subject(windows)["owner:boss"]
    assert boss.tier == "criminal"
    assert boss.aggravations == [
        "interp-2005-minors: 组织未成年人参与赌博，或者开设赌场吸引未成年人参与赌博的，从重处罚 "
        "(1 minor players in the window; 第五条)"
    ]


@pytest.mark.parametrize(
    "earlier", [5, 20], ids=["run-is-most-of-the-window", "run-is-a-small-part"]
)
def test_a_run_judges_the_windows_of_its_own_owners_and_players_over_every_stored_session(
    any_db_url, tmp_path, earlier
):
    monday = [
        room(n, "ann", "2026-03-02", fee=600, basis="stakes", players=["x", "a1", "a2", "a3"])
        for n in range(100, 100 + earlier)
    ]
    tuesday = [
        room(n, "bo", "2026-03-03", fee=600, basis="stakes", players=["x", "b1", "b2", "b3"])
        for n in range(5, 9)
    ]
    _, first = audit(any_db_url, write(tmp_path / "monday.jsonl", monday))
    run, second = audit(any_db_url, write(tmp_path / "tuesday.jsonl", tuesday))
    assert {"owner:ann", "platform:p1"} <= set(by_subject(first))
    judged = by_subject(second)
    assert {"owner:bo", "platform:p1"} <= set(judged)
    assert "owner:ann" not in judged
    assert not {s for s in judged if s.startswith("player:") and s[7:] in ("a1", "a2", "a3")}
    assert judged["platform:p1"].session_count == earlier + 4
    assert judged["owner:bo"].session_count == 4
    with SqlUnitOfWork(make_engine(any_db_url)) as uow:
        figures = uow.windows.figures({"p1"}, date(2026, 3, 1), date(2026, 3, 3), run.run_id)
    players = {f.id: f.sessions for f in figures if f.kind == "player"}
    assert players == {"x": earlier + 4, "b1": 4, "b2": 4, "b3": 4}


def quarterly(owner, first_year, n, **kw):
    months = [(first_year + (q * 3) // 12, 1 + (q * 3) % 12) for q in range(n)]
    return [
        room(i, owner, f"{y}-{m:02d}-10", fee=600, basis="stakes", players=list("abcd"), **kw)
        for i, (y, m) in enumerate(months)
    ]


def test_cumulative_rake_counts_back_the_limitation_period_not_180_days(any_db_url, tmp_path):
    """Old code: the default 180-day window kept two of the nine quarterly sessions."""
    path = write(tmp_path / "a.jsonl", quarterly("boss", 2024, 9))
    _, windows = audit(any_db_url, path)
    boss = by_subject(windows)["owner:boss"]
    assert (boss.tier, boss.rule, boss.session_count) == ("criminal", "interp-2005-gathering", 9)
    assert boss.window_start == "2021-01-10" and boss.window_end == "2026-01-10"
    assert boss.dispute_note is None


def test_cumulative_years_and_a_read_limit_shorten_the_window(any_db_url, tmp_path):
    path = write(tmp_path / "a.jsonl", quarterly("boss", 2024, 9))
    _, windows = audit(any_db_url, path, cumulative_years=1)
    assert by_subject(windows)["owner:boss"].tier == "below_threshold"
    _, windows = audit(any_db_url, path, window_days=180)
    boss = by_subject(windows)["owner:boss"]
    assert boss.tier == "below_threshold"
    assert "window cut short" in boss.dispute_note and "2025-07-15" in boss.dispute_note


def test_each_subject_s_window_ends_at_its_own_latest_session(any_db_url, tmp_path):
    """Old code: every window ended on the run's last day, 2026-07-10, and lost boss's year."""
    sessions = quarterly("boss", 2024, 9)[:5] + [room(50, "late", "2026-07-10")]
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", sessions), cumulative_years=1)
    boss = by_subject(windows)["owner:boss"]
    assert (boss.window_end, boss.session_count) == ("2025-01-10", 5)
    assert boss.figures["window_rake"] == 3000
    assert by_subject(windows)["owner:late"].window_end == "2026-07-10"


def test_a_platform_over_the_2010_lines_that_takes_nothing_is_not_criminal(any_db_url, tmp_path):
    big = [
        room(n, f"o{n}", "2026-02-0" + str(n + 1), base=100, grab=4, bets=(3,), rounds=20)
        for n in range(3)
    ]
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", big))
    platform = by_subject(windows)["platform:p1"]
    assert platform.figures["window_capital"] >= 300000
    assert platform.tier == "below_threshold"
    assert platform.elements_missing[0].startswith(
        "online-2010-serious-platform (criminal_serious) not applied: 以营利为目的 not shown"
    )
