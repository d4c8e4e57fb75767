"""Checks 9 and 10 read from the session logs' rounds: golden cases on each side.

Check 9 (公通字〔2007〕3号 三, 与游戏输赢相关的佣金): a rake that is a share of the
winnings or is taken from winners only breaches; a fixed fee per seat or round holds.
Check 10: each player's settled points in a round against the mode's round cap
(100 holds, 101 breaches) and their day's |Δpoints| against the day cap.
"""

from __future__ import annotations

from datetime import date

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.duties.engine import DutyAudit, DutyOptions, Sitting
from compliance.domain.duties.fees import rake_of
from compliance.domain.duties.rows import DutyBook
from compliance.logs.round_money import RoundMoney, SeatMoney, round_money
from tests.unit.duties.builders import BOOK, P, at, breaches, mode


def seats(*triples):
    """A 斗牛-style round: (player, claimed, seat rake or None)."""
    return RoundMoney(seats=[SeatMoney(p, c, r) for p, c, r in triples])


def table(claimed, rake=None):
    """A round of the other games: the claimed map and the round's rake."""
    return RoundMoney(claimed=claimed, rake=rake)


def sitting(rounds, owner="o1", fee=0, basis="fixed", start="2022-03-01 20:00", sid="s1", **more):
    return Sitting(
        platform=P,
        session_id=sid,
        game=more.pop("game", "m1"),
        started_at=at(start),
        rounds=rounds,
        room_id="r1",
        owner=owner,
        room_fee=fee,
        fee_basis=basis,
        **more,
    )


def run(sittings, config=None, ledger=True):
    audit = DutyAudit(BOOK, DutyOptions(date(2022, 6, 1)), [], config, ledger)
    for s in sittings:
        audit.sitting(s)
    return audit.finish(), audit.statuses()


def fee_duties(sittings):
    found, statuses = run(sittings)
    return sorted(f.duty for f in breaches(found) if f.check == "outcome_fees"), statuses


# A share of winnings, 5 % rounded down, per seat (斗牛): the losers pay nothing.
SHARE_SEATS = [
    seats(("a", -200, None), ("b", 190, 10), ("c", 39 - 1, 1)),
    seats(("a", 57, 3), ("b", -30, None), ("c", -30, None)),
    seats(("a", -100, None), ("b", 400 - 20, 20), ("c", -300, None)),
]
# Two points from every seat that won, whatever it won.
WINNERS_FLAT = [
    seats(("a", -200, None), ("b", 198, 2), ("c", 0, None)),
    seats(("a", 48, 2), ("b", -30, None), ("c", -20, None)),
    seats(("a", -100, None), ("b", 398, 2), ("c", -300, None)),
]
# One point from every seat, winner or loser: a fixed fee.
FIXED_SEATS = [
    seats(("a", -201, 1), ("b", 199, 1), ("c", -1, 1)),
    seats(("a", 49, 1), ("b", -31, 1), ("c", -21, 1)),
]
# 3 % of what the round's winners won, on top of the claims.
SHARE_ROUNDS = [
    table({"a": 100, "b": -100}, 3),
    table({"a": -250, "b": 150, "c": 100}, 7),
    table({"a": 1000, "b": -1000}, 30),
]
FIXED_ROUNDS = [table({"a": 100, "b": -100}, 5), table({"a": -900, "b": 900}, 5)]


@pytest.mark.parametrize(
    "rounds, owner, fee, basis, expected",
    [
        pytest.param(SHARE_SEATS, "o1", 0, "fixed", ["fee-share-2007"], id="seat-share-breaches"),
        pytest.param(
            WINNERS_FLAT, "o1", 0, "fixed", ["fee-winners-2007"], id="winners-only-breaches"
        ),
        pytest.param(FIXED_SEATS, "o1", 0, "fixed", [], id="fixed-per-seat-holds"),
        pytest.param(SHARE_ROUNDS, "o1", 0, "fixed", ["fee-share-2007"], id="round-share-breaches"),
        pytest.param(FIXED_ROUNDS, "o1", 0, "fixed", [], id="fixed-per-round-holds"),
        pytest.param(FIXED_ROUNDS, "o1", 10, "fixed", [], id="room-fee-fixed-holds"),
        pytest.param(
            FIXED_ROUNDS, "o1", 10, "results", ["fee-declared-results-2007"], id="on-results"
        ),
        pytest.param(
            FIXED_ROUNDS, "o1", 10, "stakes", ["fee-declared-stakes-2007"], id="on-stakes"
        ),
        pytest.param(
            [table({"a": 1, "b": -1})], "o1", 0, "results", [], id="results-but-nothing-charged"
        ),
        pytest.param([table({"a": 1, "b": -1})], "o1", 0, "fixed", [], id="no-rake-holds"),
    ],
)
def test_a_fee_tied_to_the_result_breaches_and_a_fixed_one_holds(
    rounds, owner, fee, basis, expected
):
    got, statuses = fee_duties([sitting(rounds, owner, fee, basis)])
    assert got == expected
    assert statuses["outcome_fees"] == ("breached" if expected else "held")


def test_the_share_found_is_the_rooms_percentage():
    assert rake_of(sitting(SHARE_ROUNDS)).share() == pytest.approx(3, abs=0.5)  # type: ignore[union-attr]
    found, _ = run([sitting(SHARE_SEATS)])
    (f,) = breaches(found)
    assert (f.subject, f.account, f.metric, f.date) == (
        "room:r1",
        "o1",
        "rake_percent_of_winnings",
        "2022-03",
    )
    assert 4.5 <= f.value <= 5.2
    assert [e.id for e in f.events] == ["s1#1"]


def test_a_rooms_sessions_of_one_month_are_one_finding():
    found, _ = run([sitting(SHARE_ROUNDS, sid=f"s{n}") for n in range(3)])
    (f,) = breaches(found)
    assert f.event_count == 3 and [e.id for e in f.events] == ["s0#1", "s1#1", "s2#1"]


def test_a_round_paid_by_a_seat_that_did_not_win_is_not_a_share_of_winnings():
    rounds = [*SHARE_SEATS, seats(("a", -11, 1), ("b", 11, None), ("c", 0, None))]
    got, _ = fee_duties([sitting(rounds)])
    assert got == []
    found, statuses = run([sitting(rounds)])
    assert statuses["outcome_fees"] == "indeterminate"
    assert [f.missing for f in found if f.check == "outcome_fees"] == ["the rake's basis"]


def test_a_round_rake_spared_in_a_drawn_round_is_not_read_as_from_winners_only():
    rounds = [*FIXED_ROUNDS, table({"a": 0, "b": 0}, 0), table({"a": 40, "b": -40}, 5)]
    found, statuses = run([sitting(rounds)])
    assert breaches(found) == []
    assert [f.missing for f in found if f.check == "outcome_fees"] == ["the rake's basis"]
    assert statuses["outcome_fees"] == "indeterminate"


def test_a_session_whose_rounds_do_not_decode_is_left_to_the_audits_reject():
    found, statuses = run([sitting(None, owner=None)])
    assert [f for f in found if f.check == "outcome_fees"] == []
    assert "outcome_fees" not in statuses


def test_a_session_with_no_owner_and_no_rake_is_indeterminate_naming_what_is_missing():
    found, statuses = run([sitting([table({"a": 1, "b": -1})], owner=None)])
    (f,) = [f for f in found if f.check == "outcome_fees"]
    assert (f.status, f.missing, f.event_count) == (
        "indeterminate",
        "session fee data (owner.room_fee, a round's rake)",
        1,
    )
    assert statuses["outcome_fees"] == "indeterminate"


def test_a_single_round_of_rake_cannot_tell_a_fixed_fee_from_a_share():
    found, _ = run([sitting([table({"a": 100, "b": -100}, 5)])])
    assert [f.missing for f in found if f.check == "outcome_fees"] == ["more rounds"]


def test_a_duty_book_without_check_9s_rows_does_not_run_it():
    older = DutyBook([d for d in BOOK.duties if d.check != "outcome_fees"])
    audit = DutyAudit(older, DutyOptions(date(2022, 6, 1)), [], None, True)
    audit.sitting(sitting(SHARE_ROUNDS, owner=None))
    audit.sitting(sitting([table({"a": 1, "b": -1})], owner=None, sid="s2"))
    assert [f for f in audit.finish() if f.check == "outcome_fees"] == []
    assert "outcome_fees" not in audit.statuses()


def test_before_the_2007_notice_no_row_is_in_force():
    got, _ = fee_duties([sitting(SHARE_ROUNDS, start="2007-01-24 20:00")])
    assert got == []
    got, _ = fee_duties([sitting(SHARE_ROUNDS, start="2007-01-25 00:00")])
    assert got == ["fee-share-2007"]


def test_the_rounds_money_is_read_from_every_shape_and_absent_rake_stays_absent():
    raw = msgspec.json.encode(
        [
            {"banker": "a", "base": 1, "seats": [{"player": "a", "claimed": -5, "cards": []}]},
            {"claimed": {"a": 3, "b": -3}, "rake": 0, "hands": {"a": ["S1"]}},
        ]
    )
    first, second = round_money(raw)  # type: ignore[misc]
    assert first.results() == {"a": -5} and not first.seat_rake and first.rake is None
    assert second.results() == {"a": 3, "b": -3} and second.rake == 0
    assert round_money(b'[{"seats": 3}]') is None


# ── Check 10 from the sessions' rounds ───────────────────────────────────────────────


@pytest.mark.parametrize(
    "points, expected",
    [
        pytest.param(100, [], id="100-holds"),
        pytest.param(101, ["point-cap-round-sessions-2007"], id="101-breaches"),
        pytest.param(-101, ["point-cap-round-sessions-2007"], id="a-loss-of-101-breaches"),
    ],
)
def test_a_rounds_settled_points_above_the_round_cap_breach(points, expected):
    found, statuses = run([sitting([table({"a": points, "b": -min(abs(points), 100)})])], [mode()])
    got = [f.duty for f in breaches(found) if f.check == "point_caps"]
    assert got == expected
    assert statuses["point_caps"] == ("breached" if expected else "held")


def test_a_days_points_over_the_sessions_are_summed_against_the_day_cap():
    def day(n, start):
        return sitting([table({"a": 100, "b": -100})] * n, start=start, sid=start)

    held, _ = run([day(6, "2022-03-01 10:00"), day(4, "2022-03-01 23:00")], [mode()])
    assert breaches(held) == []
    over, _ = run([day(6, "2022-03-01 10:00"), day(5, "2022-03-01 23:00")], [mode()])
    assert sorted((f.duty, f.subject, f.value) for f in breaches(over)) == [
        ("point-cap-day-sessions-2007", "account:a", 1100),
        ("point-cap-day-sessions-2007", "account:b", 1100),
    ]
    next_day, _ = run([day(6, "2022-03-01 10:00"), day(5, "2022-03-02 00:00")], [mode()])
    assert breaches(next_day) == []


def test_sessions_of_a_mode_the_configuration_lacks_are_indeterminate():
    other = Sitting(P, "s9", "zz", at("2022-03-01 20:00"), [table({"a": 1})], owner="o")
    found, _ = run([other], [mode()])
    assert [f.missing for f in found if f.check == "point_caps"] == ["platform-config mode zz"]
    found, _ = run([other], None)
    assert ("point_caps", "platform-config") in {(f.check, f.missing) for f in found}


def test_a_mode_that_stakes_no_points_needs_no_cap():
    found, _ = run([sitting([table({"a": 10**6, "b": -(10**6)})])], [mode(stakes=False)])
    assert breaches(found) == []


# ── Check 10: modes mapped to games and presets by the configuration ───────────────
OVER = [table({"a": 150, "b": -150})]  # 150 points a round: over a cap of 100


def caps_met(config, **session):
    found, _ = run([sitting(OVER, **session)], config)
    return sorted({(f.duty, f.boundary) for f in breaches(found) if f.check == "point_caps"}), [
        f.missing for f in found if f.check == "point_caps" and f.status == "indeterminate"
    ]


def test_a_mode_named_otherwise_covers_the_game_it_names():
    """`douniu-points` with `game: douniu` holds douniu sessions to its caps; without the
    mapping, the same session is of no configured mode."""
    mapped = [mode("douniu-points", 100, game="douniu")]
    got, missing = caps_met(mapped, game="douniu")
    assert got == [("point-cap-round-sessions-2007", "at most 100 points a round in douniu-points")]
    assert missing == []
    assert caps_met([mode("douniu-points", 100)], game="douniu") == (
        [],
        ["platform-config mode douniu"],
    )
    assert caps_met([mode("douniu-points", 200, game="douniu")], game="douniu") == ([], [])


def test_a_preset_picks_its_mode_and_a_mode_for_every_preset_takes_the_rest():
    config = [
        mode("douniu-cards", stakes=False, game="douniu", presets=["card-room"]),
        mode("douniu-points", 100, game="douniu"),
    ]
    assert caps_met(config, game="douniu", preset="card-room") == ([], [])
    assert caps_met(config, game="douniu", preset="points-room")[0] == [
        ("point-cap-round-sessions-2007", "at most 100 points a round in douniu-points")
    ]
    assert caps_met(config, game="douniu")[0] != []  # no preset: the mode for every preset


def test_a_game_mapped_only_for_other_presets_falls_back_to_its_code():
    config = [mode("douniu-cards", stakes=False, game="douniu", presets=["card-room"])]
    assert caps_met(config, game="douniu", preset="other") == ([], ["platform-config mode douniu"])
    config.append(mode("douniu", 100))
    assert caps_met(config, game="douniu", preset="other")[0] == [
        ("point-cap-round-sessions-2007", "at most 100 points a round in douniu")
    ]
    assert caps_met(config, game="douniu", preset="card-room") == ([], [])


def test_a_mode_named_as_a_game_but_mapped_to_another_does_not_cover_it():
    config = [mode("douniu", 100, game="paigow")]
    assert caps_met(config, game="douniu") == ([], ["platform-config mode douniu"])
    assert caps_met(config, game="paigow")[0] != []


def test_a_mapped_modes_day_is_summed_under_the_mode():
    config = [mode("points", 1000, 1000, game="douniu"), mode("m1", 1000, 1000)]
    rounds = [table({"a": 300, "b": -300})] * 2
    found, _ = run(
        [
            sitting(rounds, game="douniu", sid="s1"),
            sitting(rounds, game="douniu", sid="s2"),
            sitting(rounds, game="m1", sid="s3"),
        ],
        config,
    )
    got = sorted((f.subject, f.value, f.boundary) for f in breaches(found))
    assert [(s, v) for s, v, _ in got] == [("account:a", 1200), ("account:b", 1200)]
    assert all("points" in b for _, _, b in got)


# ── Properties ───────────────────────────────────────────────────────────────────────

results = st.lists(st.integers(-5000, 5000), min_size=2, max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.lists(results, min_size=2, max_size=12), st.integers(1, 50))
def test_a_fee_the_same_for_every_seat_never_breaches(tables, fee):
    rounds = [seats(*((f"p{i}", v - fee, fee) for i, v in enumerate(t))) for t in tables]
    got, _ = fee_duties([sitting(rounds)])
    assert got == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(200, 100_000), min_size=2, max_size=12), st.integers(1, 20))
def test_a_share_of_the_winnings_is_found_with_its_rate(wins, percent):
    rounds = [table({"a": w, "b": -w}, w * percent // 100) for w in wins]
    figures = rake_of(sitting(rounds))
    assert figures is not None
    if not figures.varies:
        return  # every round won the same: a fixed fee and a share look alike
    share = figures.share()
    assert share is not None and abs(share - percent) < 1
    assert fee_duties([sitting(rounds)])[0] == ["fee-share-2007"]
