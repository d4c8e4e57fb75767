"""No line can stop a run (issue 16): each hostile line is a stored reject, the rest is read."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import AuditRunRow, RejectRow, SessionRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.hostile import DEEP_PLACES, deep_at, good, line, of_game


def audit_into(url, paths, **options):
    engine = make_engine(url)
    ensure_schema(engine)
    found = []
    summary = services.audit(
        SqlUnitOfWork(engine),
        [str(p) for p in paths],
        services.AuditOptions(**options),
        found.append,
    )
    with engine.connect() as conn:
        rejects = conn.execute(
            select(RejectRow.line, RejectRow.session_id, RejectRow.reason).order_by(RejectRow.line)
        ).all()
        stored = conn.execute(select(SessionRow.session_id).order_by(SessionRow.session_id)).all()
        options_row = conn.execute(select(AuditRunRow.options)).scalars().all()
    engine.dispose()
    return summary, [tuple(r) for r in rejects], [r[0] for r in stored], options_row, found


@pytest.mark.parametrize("workers", [1, 2])
def test_deep_nesting_anywhere_is_a_reject_of_its_line_and_the_rest_is_read(
    any_db_url, tmp_path, workers
):
    first, last = dict(good(), session_id="first"), dict(good(), session_id="last")
    path = tmp_path / "deep.jsonl"
    path.write_text(
        line(first) + "".join(line(deep_at(p)) for p in DEEP_PLACES) + line(last),
        encoding="utf-8",
    )
    summary, rejects, stored, _, _ = audit_into(any_db_url, [path], workers=workers)
    assert (summary.sessions, summary.rejects) == (2, len(DEEP_PLACES))
    assert stored == ["first", "last"]
    assert [r[0] for r in rejects] == list(range(2, 2 + len(DEEP_PLACES)))
    assert all("internal error" not in r[2] for r in rejects), rejects
    assert [r[1] for r in rejects] == [f"deep-{p}" for p in DEEP_PLACES]


@pytest.mark.parametrize("value", ["NaN", "sNaN", "nan", "Infinity", "-inf"])
def test_a_point_value_that_is_no_finite_number_is_a_reject(any_db_url, tmp_path, value):
    path = tmp_path / "nan.jsonl"
    path.write_text(line(dict(good(), point_value=value)) + line(dict(good(), session_id="ok")))
    summary, rejects, stored, _, _ = audit_into(any_db_url, [path])
    assert (summary.sessions, summary.rejects) == (1, 1)
    assert rejects == [(1, good()["session_id"], "point_value must be a finite number")]
    assert stored == ["ok"]


def test_a_point_value_finer_than_its_column_is_a_reject_not_a_rounding(any_db_url, tmp_path):
    path = tmp_path / "fine.jsonl"
    path.write_text(
        line(dict(good(), point_value="99999999.99999"))
        + line(dict(good(), session_id="ok", point_value="0.0001"))
    )
    summary, rejects, stored, _, _ = audit_into(any_db_url, [path])
    assert (summary.sessions, summary.rejects) == (1, 1)
    assert rejects == [
        (
            1,
            good()["session_id"],
            "point_value has more than 4 decimal places (a ten-thousandth of a yuan)",
        )
    ]
    assert stored == ["ok"]


def test_sessions_dated_before_2000_or_after_the_runs_bound_are_rejects(any_db_url, tmp_path):
    path = tmp_path / "dates.jsonl"
    ancient = dict(good(), session_id="year-1", started_at="0001-01-01T00:00:00+08:00")
    future = dict(good(), session_id="far", started_at="9999-12-31T20:00:00+08:00")
    path.write_text(line(ancient) + line(future))
    summary, rejects, stored, options, _ = audit_into(any_db_url, [path])
    assert (summary.sessions, summary.rejects) == (0, 2)
    assert [r[1] for r in rejects] == ["year-1", "far"]
    assert "out of range" in rejects[0][2] and "before 2000-01-01" in rejects[0][2]
    latest = options[0]["latest_day"]
    assert f"nor after {latest}" in rejects[1][2]


def test_a_file_holding_only_a_session_of_year_one_is_a_reject_not_an_overflow(
    any_db_url, tmp_path
):
    path = tmp_path / "year1.jsonl"
    path.write_text(line(dict(good(), started_at="0001-01-01T00:00:00+00:00")))
    summary, rejects, _, _, _ = audit_into(any_db_url, [path], as_of=None)
    assert (summary.sessions, summary.rejects) == (0, 1)


def test_one_far_future_line_among_1500_leaves_the_window_findings_as_they_were(
    any_db_url, tmp_path
):
    honest = tmp_path / "honest.jsonl"
    write_log(SimulationSpec(sessions=1500, seed=5, rounds=(3, 5)), str(honest))
    tampered = tmp_path / "tampered.jsonl"
    far = dict(good(), session_id="far", started_at="9999-12-31T20:00:00+08:00")
    tampered.write_bytes(honest.read_bytes() + line(far).encode())

    def windows(path, url):
        summary, rejects, _, _, found = audit_into(url, [path])
        return summary, rejects, [f.to_dict() for f in found if f.session_id is None]

    before = windows(honest, any_db_url)
    engine = make_engine(any_db_url)
    with engine.begin() as conn:
        for table in (
            "window_findings",
            "findings",
            "player_metrics",
            "rejects",
            "sessions",
            "window_days",
            "window_people",
            "window_last_seen",  # the sums kept as sessions are stored
        ):
            conn.exec_driver_sql(f"DELETE FROM {table}")
    engine.dispose()
    after = windows(tampered, any_db_url)
    assert before[2] and after[2] == before[2]
    assert (after[0].sessions, after[0].rejects) == (1500, 1)
    assert after[1][0][:2] == (1501, "far")


def test_a_line_past_the_limit_is_a_reject_naming_its_length(any_db_url, tmp_path):
    path = tmp_path / "long.jsonl"
    long = dict(good(), session_id="long")
    long["players"][0]["name"] = "x" * 5000
    path.write_text(line(long) + line(dict(good(), session_id="ok")))
    summary, rejects, stored, options, _ = audit_into(any_db_url, [path], max_line_bytes=4096)
    assert (summary.sessions, summary.rejects) == (1, 1)
    assert rejects[0][0] == 1 and rejects[0][2].startswith("line longer than 4,096 bytes (")
    assert stored == ["ok"]
    assert options[0]["max_line_bytes"] == 4096


def test_a_ten_megabyte_name_is_a_reject_not_a_database_error(any_db_url, tmp_path):
    path = tmp_path / "name.jsonl"
    named = dict(good(), session_id="big-name")
    named["players"][0]["name"] = "名" * (10 << 20)
    path.write_text(line(named) + line(dict(good(), session_id="ok")), encoding="utf-8")
    summary, rejects, stored, _, _ = audit_into(any_db_url, [path])
    assert (summary.sessions, summary.rejects) == (1, 1)
    assert rejects[0][1] == "big-name"
    assert "length <= 256 - at `$.players[0].name`" in rejects[0][2]
    assert stored == ["ok"]


def _out_of_range() -> list[dict]:
    """One session per number that has no effect on the result but is out of range."""
    cases = []

    def case(name, session):
        cases.append(dict(session, session_id=name))

    banker_bet = good()
    banker_bet["rounds"][0]["seats"][0]["bet"] = 2**70
    case("douniu-banker-bet", banker_bet)
    buy_in = good()
    buy_in["players"][0]["buy_in"] = 2**70
    case("buy-in", buy_in)
    fee = good()
    fee["owner"] = {"id": "owner-1", "room_fee": 2**70}
    case("room-fee", fee)
    for code, options in [
        ("paigow", {"max_bet": 2**70}),
        ("bianselong", {"max_decks": 2**70}),
        ("bianselong", {"two_decks_from": -1}),
        ("yuhuan", {"full_flush_tai": -1}),
        ("yuhuan", {"kong_exposed_major": -16}),
        ("chihuoguo", {"post_multiplier": -2}),
    ]:
        session = of_game(code)
        session["variant"] = {**session.get("variant", {}), "options": options}
        case(f"{code}-{next(iter(options))}", session)
    chexuan = of_game("chexuan")
    for rnd in chexuan["rounds"]:
        for deal_round in rnd["betting"]:
            for action in deal_round:
                if action.get("amount"):
                    action["amount"] = -action["amount"]
    case("chexuan-negative-amount", chexuan)
    return cases


def test_numbers_out_of_range_are_rejects_naming_the_field(any_db_url, tmp_path):
    cases = _out_of_range()
    path = tmp_path / "range.jsonl"
    path.write_text("".join(line(s) for s in cases) + line(dict(good(), session_id="ok")))
    summary, rejects, stored, _, _ = audit_into(any_db_url, [path])
    assert (summary.sessions, summary.rejects) == (1, len(cases)), rejects
    assert stored == ["ok"]
    reasons = {sid: reason for _, sid, reason in rejects}
    assert "<= 1000 - at `$[0].seats[0].bet`" in reasons["douniu-banker-bet"]
    assert "`$.players[0].buy_in`" in reasons["buy-in"]
    assert "`$.owner.room_fee`" in reasons["room-fee"]
    for name in ("max_bet", "max_decks", "two_decks_from", "full_flush_tai", "post_multiplier"):
        (reason,) = [r for sid, r in reasons.items() if sid.endswith(name)]
        assert reason.startswith("bad variant options") and f"`$.{name}`" in reason, reason
    assert "amount" in reasons["chexuan-negative-amount"]
    assert "without an amount" not in reasons["chexuan-negative-amount"]


def test_a_point_value_named_twice_is_a_stored_reject(any_db_url, tmp_path):
    text = line(dict(good(), point_value="1"))
    twice = text.replace('"point_value": "1"', '"point_value": "1", "point_value": "1000"')
    path = tmp_path / "twice.jsonl"
    path.write_text(twice + line(dict(good(), session_id="ok")))
    summary, rejects, stored, _, _ = audit_into(any_db_url, [path])
    assert (summary.sessions, summary.rejects) == (1, 1)
    assert rejects == [
        (
            1,
            good()["session_id"],
            "a JSON object names 'point_value' twice (the last would win unseen)",
        )
    ]
    assert stored == ["ok"]
