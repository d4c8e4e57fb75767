"""假名化: keyed digests replace every player id and name, the same under one key."""

from __future__ import annotations

import pytest

from compliance.domain.findings import fingerprint
from compliance.domain.pseudonym import Pseudonyms

KEY, OTHER = b"k" * 32, b"o" * 32
TAMPERED = {
    "kind": "integrity",
    "platform": "p1",
    "subject": "session",
    "session_id": "s1",
    "round": 3,
    "check": "settlement_mismatch",
    "detail": "u7 claimed -440, rules give -430; u77 and xu7 untouched",
    "players": ["u7"],
    "claimed": {"u7": -440},
    "expected": {"u7": -430},
}


def test_ids_are_stable_under_one_key_and_differ_under_another():
    one, again, other = Pseudonyms(KEY), Pseudonyms(KEY), Pseudonyms(OTHER)
    assert one.id("u7") == again.id("u7") != other.id("u7")
    assert one.id("u7") != one.id("u8")
    assert one.id("u7").startswith("p-") and len(one.id("u7")) == 18
    assert one.name("张三") == again.name("张三") != one.name("李四")
    assert one.name("") == ""
    assert one.key_fingerprint == Pseudonyms(KEY).key_fingerprint != other.key_fingerprint


def test_a_short_key_is_refused():
    with pytest.raises(ValueError, match="at least 16 bytes"):
        Pseudonyms(b"short")


def test_a_finding_loses_every_player_id_even_in_its_detail_text():
    p = Pseudonyms(KEY)
    masked = p.finding(TAMPERED)
    u7 = p.id("u7")
    assert masked["players"] == [u7]
    assert masked["claimed"] == {u7: -440} and masked["expected"] == {u7: -430}
    assert masked["detail"] == f"{u7} claimed -440, rules give -430; u77 and xu7 untouched"
    assert TAMPERED["players"] == ["u7"]  # the original is left alone


def test_a_players_finding_changes_subject_player_and_name_and_so_its_fingerprint():
    p = Pseudonyms(KEY)
    row = {
        "kind": "threshold",
        "platform": "p1",
        "subject": "player:u7",
        "player": "u7",
        "name": "张三",
        "session_id": "s1",
        "rule": "r",
        "tier": "administrative",
    }
    masked = p.finding(row)
    assert (masked["subject"], masked["player"]) == (f"player:{p.id('u7')}", p.id("u7"))
    assert masked["name"] == p.name("张三")
    assert fingerprint(masked) == fingerprint(Pseudonyms(KEY).finding(row)) != fingerprint(row)
    owner = {**row, "subject": "owner:o1", "player": None}
    assert p.finding(owner)["subject"] == "owner:o1"
