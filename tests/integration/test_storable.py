"""No line can stop a run: what a database would refuse is a reject, alike on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import RejectRow, SessionRow
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.conftest import SAMPLES

GOOD = json.loads((SAMPLES / "douniu.jsonl").read_text().splitlines()[0])


def with_player(**fields) -> dict:
    return dict(GOOD, players=[dict(GOOD["players"][0], **fields), *GOOD["players"][1:]])


def with_card(card: str) -> dict:
    first = GOOD["rounds"][0]
    seat = dict(first["seats"][0], cards=[card, *first["seats"][0]["cards"][1:]])
    return dict(GOOD, rounds=[dict(first, seats=[seat, *first["seats"][1:]]), *GOOD["rounds"][1:]])


def hot_pot_ante(tmp_path, ante: int) -> dict:
    log = tmp_path / "hot-pot.jsonl"
    write_log(SimulationSpec(games=("chihuoguo",), sessions=1, seed=3), str(log))
    session = json.loads(log.read_text().splitlines()[0])
    first = session["rounds"][0]
    first["antes"] = dict.fromkeys(first.get("antes") or [session["players"][0]["id"]], ante)
    return session


HOSTILE = {
    "nul in the session id": (lambda _: dict(GOOD, session_id="s\x00id"), "session_id holds"),
    "nul in a player id": (
        lambda _: json.loads(json.dumps(GOOD).replace('"hn1"', '"h\\u0000n1"')),
        "players[0].id holds",
    ),
    "nul in a player name": (lambda _: with_player(name="a\x00b"), "players[0].name holds"),
    "nul in a player's place": (
        lambda _: with_player(jurisdiction="43\x00"),
        "players[0].jurisdiction holds",
    ),
    "nul in the room": (lambda _: dict(GOOD, room_id="r\x00"), "room_id holds"),
    "nul in the platform": (lambda _: dict(GOOD, platform="p\x00"), "platform holds"),
    "nul in the place": (lambda _: dict(GOOD, jurisdiction="430000\x00"), "jurisdiction holds"),
    "nul in the owner": (
        lambda _: dict(GOOD, owner={"id": "o\x00", "room_fee": 10}),
        "owner.id holds",
    ),
    "nul in a card": (lambda _: with_card("S\x00"), ""),
    "a room fee of 2^70 on stakes": (
        lambda _: dict(GOOD, owner={"id": "o", "room_fee": 2**70, "fee_basis": "stakes"}),
        "invalid session: Expected `int` <= 1000000000000000 - at `$.owner.room_fee`",
    ),
    "a room fee of 10^15 points at 10 yuan on stakes": (
        lambda _: dict(
            GOOD,
            point_value="10",
            owner={"id": "o", "room_fee": 10**15, "fee_basis": "stakes"},
        ),
        "rake beyond any real game",
    ),
    "a hot-pot ante of 10^17": (
        lambda tmp: hot_pot_ante(tmp, 10**17),
        "invalid round: Expected `int` <= 1000000000000000 - at `$[0].antes[...]`",
    ),
    "a hot-pot ante of 10^12 points at 10,000 yuan": (
        lambda tmp: dict(hot_pot_ante(tmp, 10**12), point_value="10000"),
        "round_win_loss beyond any real game",
    ),
    "a start at +23:59": (
        lambda _: dict(GOOD, started_at="2026-03-01T20:00:00+23:59"),
        "started_at has the zone offset +23:59",
    ),
    "an end at -23:59": (
        lambda _: dict(GOOD, ended_at="2026-03-01T23:00:00-23:59"),
        "ended_at has the zone offset -23:59",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_a_line_no_column_could_hold_is_one_reject_and_the_run_goes_on(any_db_url, tmp_path, case):
    build, reason = HOSTILE[case]
    bad = dict(build(tmp_path))
    if "\x00" not in bad["session_id"]:
        bad["session_id"] = "hostile"
    log = tmp_path / "hostile.jsonl"
    log.write_text(json.dumps(bad) + "\n" + json.dumps(GOOD) + "\n")
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    summary = services.audit(SqlUnitOfWork(engine), [str(log)], services.AuditOptions())
    assert (summary.sessions, summary.rejects) == (1, 1)
    with engine.connect() as conn:
        (line, sid, stored_reason), *others = conn.execute(
            select(RejectRow.line, RejectRow.session_id, RejectRow.reason)
        ).all()
        stored = conn.execute(select(SessionRow.session_id)).scalars().all()
    assert not others and line == 1 and stored == [GOOD["session_id"]]
    assert stored_reason.startswith(reason) and "\x00" not in stored_reason + sid
    assert sid == bad["session_id"].replace("\x00", "\\u0000")
    engine.dispose()


def test_a_nul_in_a_reject_is_stored_escaped_and_cut_to_the_column(any_db_url, tmp_path):
    log = tmp_path / "nul.jsonl"
    log.write_text(json.dumps(dict(GOOD, session_id="\x00" * 128, game="no\x00game")) + "\n")
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    summary = services.audit(SqlUnitOfWork(engine), [str(log)], services.AuditOptions())
    assert summary.rejects == 1
    with engine.connect() as conn:
        sid, reason = conn.execute(select(RejectRow.session_id, RejectRow.reason)).one()
    assert sid == ("\\u0000" * 22)[:127] + "…"
    assert reason.startswith("unknown game") and "\x00" not in reason
    engine.dispose()


def test_a_rejects_own_texts_have_their_nul_escaped():
    from compliance.logs.reader import Reject
    from compliance.service_layer.judging import storable_reject

    raw = Reject("a.jsonl", 3, "s\x00", "bad \x00 here")
    assert storable_reject(raw) == Reject("a.jsonl", 3, "s\\u0000", "bad \\u0000 here")
