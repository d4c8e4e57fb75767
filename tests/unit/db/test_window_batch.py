"""批内累计: a batch's window sums in Python are the SQL's integers, or are left to the SQL."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from compliance.db.window_batch import (
    LIMIT,
    NotWholeCents,
    cents,
    last_seen_moves,
    sums,
)
from compliance.domain.audited import AuditedPlayer, AuditedSession
from compliance.domain.metrics import PlayerMetrics, SessionMetrics

D1, D2, D3 = date(2026, 3, 1), date(2026, 3, 2), date(2026, 3, 3)


def player(pid: str, capital: str, net: str, place: str | None = "430000") -> AuditedPlayer:
    m = PlayerMetrics(pid, *(Decimal(0),) * 3, Decimal(net), Decimal(0), Decimal(capital), 3, 1)
    return AuditedPlayer(pid, pid, place, None, m)


def session(sid: str, day: date, owner: str | None, players, *, fee="1.50", scene="30.25"):
    m = SessionMetrics(len(players), Decimal(scene), Decimal(0), Decimal(0), Decimal("0.75"), 3)
    return AuditedSession(
        "p1", sid, "douniu", "r", owner, datetime(2026, 3, 1, 20), day, "430000", "online",
        3, Decimal(1), m, players, "log", 1, minors=1, fixed_fee=Decimal(fee) if fee else None,
    )  # fmt: skip


def test_whole_cents_are_the_integers_sql_rounds_to():
    assert cents(Decimal("12.34")) == 1234
    assert cents(Decimal("-0.05")) == -5
    assert cents(Decimal("1.500")) == 150
    assert cents(None) == 0
    assert cents(7) == 700
    for finer in (Decimal("0.005"), Decimal("12.345"), Decimal("NaN"), Decimal("Infinity")):
        with pytest.raises(NotWholeCents):
            cents(finer)
    with pytest.raises(NotWholeCents):
        cents(Decimal(LIMIT) / 100)


def test_a_batch_sums_per_subject_day_place_and_venue():
    found = sums(
        [
            session("s1", D1, "boss", [player("a", "10.00", "-2.50"), player("b", "5", "2.5")]),
            session("s2", D1, "boss", [player("a", "1.25", "1", place=None)], fee=None),
            session("s3", D2, None, [player("a", "2", "0")], scene="4"),
        ]
    )
    assert found is not None
    assert found.days == {
        ("p1", "owner", "boss", D1, "430000", "online"): [2, 6050, 0, 150, 150, 2],
        ("p1", "platform", "p1", D1, "430000", "online"): [2, 6050, 0, 150, 150, 2],
        ("p1", "platform", "p1", D2, "430000", "online"): [1, 400, 0, 75, 150, 1],
        ("p1", "player", "a", D1, "430000", ""): [1, 1000, -250, 0, 0, 0],
        ("p1", "player", "b", D1, "430000", ""): [1, 500, 250, 0, 0, 0],
        ("p1", "player", "a", D1, "", ""): [1, 125, 100, 0, 0, 0],
        ("p1", "player", "a", D2, "430000", ""): [1, 200, 0, 0, 0, 0],
    }
    assert found.spans == {
        ("p1", "owner", "boss", "a"): (D1, D1, 2),
        ("p1", "owner", "boss", "b"): (D1, D1, 1),
        ("p1", "platform", "p1", "a"): (D1, D2, 3),
        ("p1", "platform", "p1", "b"): (D1, D1, 1),
    }


def test_a_batch_with_money_finer_than_a_cent_is_left_to_the_sql():
    fine = session("s1", D1, "boss", [player("a", "1", "0")], fee="0.005")
    assert sums([session("s0", D1, "boss", [player("b", "1", "0")]), fine]) is None


def test_a_pair_seen_later_moves_its_last_day_and_one_seen_earlier_does_not():
    spans = {
        ("p1", "owner", "boss", "new"): (D2, D3, 2),
        ("p1", "owner", "boss", "later"): (D3, D3, 1),
        ("p1", "owner", "boss", "earlier"): (D1, D1, 1),
        ("p1", "owner", "boss", "same"): (D2, D2, 1),
    }
    before = {
        ("p1", "owner", "boss", "later"): (D1, D2, 4),
        ("p1", "owner", "boss", "earlier"): (D2, D2, 1),
        ("p1", "owner", "boss", "same"): (D1, D2, 2),
    }
    assert last_seen_moves(spans, before) == {
        ("p1", "owner", "boss", D3): 2,
        ("p1", "owner", "boss", D2): -1,
    }
