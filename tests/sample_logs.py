"""The sample logs in data/samples/, built from seeded deals and settled by the engine.

`python -m tests.sample_logs` rewrites the files; a test checks the committed
files equal what this module builds, so the samples never drift from the rules.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec

from compliance.games.cards import STANDARD_52, shuffled
from compliance.games.douniu import GAME as DOUNIU
from compliance.logs.reader import decode_session

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def douniu_rounds(
    seed: int,
    players: list[str],
    n: int,
    base: int,
    grab: int,
    bets: list[int],
    rake: int = 0,
) -> list[dict[str, Any]]:
    """Rounds dealt from seeded shuffles, banker by the 牛九 rule, claims as the rules pay."""
    rng = random.Random(seed)
    rounds: list[dict[str, Any]] = []
    banker = players[0]
    for _ in range(n):
        deck = shuffled(STANDARD_52, rng)
        seats = [
            {
                "player": p,
                "cards": deck[5 * i : 5 * i + 5],
                "bet": bets[i % len(bets)],
                "claimed": 0,
            }
            for i, p in enumerate(players)
        ]
        rnd = {"banker": banker, "base": base, "grab": grab, "seats": seats}
        rounds.append(rnd)
        banker = _settle_last(rounds, players, rake)
    return rounds


def _settle_last(rounds: list[dict[str, Any]], players: list[str], rake: int) -> str:
    session = decode_session(json.dumps(session_dict("x", "douniu", players, rounds)).encode())
    results = list(DOUNIU.replay(session))
    last = rounds[-1]
    for seat in last["seats"]:
        delta = results[-1].deltas[seat["player"]]
        seat["rake"] = min(rake, delta) if delta > 0 and rake else 0
        if not seat["rake"]:
            del seat["rake"]
        seat["claimed"] = delta - seat.get("rake", 0)
    due = [i for i in results[-1].issues if i.check == "wrong_banker"]
    assert not due
    from compliance.games.douniu import DouniuRound, hand_scores, next_banker

    rnd = msgspec.convert(last, DouniuRound)
    return next_banker(rnd, hand_scores(len(rounds), rnd, set(players)))


def session_dict(
    sid: str,
    game: str,
    players: list[str] | list[dict[str, Any]],
    rounds: list[dict[str, Any]],
    **header: Any,
) -> dict[str, Any]:
    people = [p if isinstance(p, dict) else {"id": p} for p in players]
    return {
        "format": "stakelog/1",
        "session_id": sid,
        "platform": header.pop("platform", "demo-platform"),
        "game": game,
        "started_at": header.pop("started_at", "2026-03-01T20:00:00+08:00"),
        "players": people,
        "rounds": rounds,
        **header,
    }


def _ids(players: list[dict[str, Any]]) -> list[str]:
    return [p["id"] for p in players]


def douniu_samples() -> list[dict[str, Any]]:
    """The sessions of data/samples/douniu.jsonl, each showing one thing."""
    hunan = [{"id": f"hn{i}", "name": f"湖南玩家{i}"} for i in range(1, 5)]
    stake60 = douniu_rounds(1, _ids(hunan), 6, base=10, grab=2, bets=[1, 3, 2, 1])
    family = [{"id": f"k{i}", "kin_group": "王家"} for i in range(1, 5)]
    hubei = [{"id": f"hb{i}"} for i in range(1, 6)]
    shunde = [{"id": f"sd{i}"} for i in range(1, 5)]
    mixed = [
        {"id": "m1", "jurisdiction": "hunan"},
        {"id": "m2", "jurisdiction": "江西"},
        {"id": "m3", "jurisdiction": "CN-SN"},
        {"id": "m4", "jurisdiction": "440606"},
    ]
    tampered = douniu_rounds(5, _ids(hunan), 4, base=5, grab=1, bets=[1, 2])
    seat = tampered[2]["seats"][1]
    seat["claimed"] += 30
    tampered[2]["seats"][0]["claimed"] -= 30
    room = {"id": "owner-1", "room_fee": 10}
    return [
        session_dict(
            "hn-2026-03-01",
            "douniu",
            hunan,
            stake60,
            jurisdiction="430000",
            point_value=1,
            room_id="r-88",
            owner=room,
            venue="online",
        ),
        session_dict(
            "hn-2025-12-31",
            "douniu",
            hunan,
            stake60,
            jurisdiction="hunan",
            point_value=1,
            room_id="r-88",
            owner=room,
            venue="online",
            started_at="2025-12-31T20:00:00+08:00",
        ),
        session_dict(
            "hb-family",
            "douniu",
            family,
            douniu_rounds(2, _ids(family), 8, base=5, grab=1, bets=[1, 2]),
            jurisdiction="湖北",
            point_value=1,
            venue="private_home",
        ),
        session_dict(
            "hb-high",
            "douniu",
            hubei,
            douniu_rounds(3, _ids(hubei), 20, base=20, grab=2, bets=[1, 2, 3]),
            jurisdiction="hubei",
            point_value=1,
            venue="online",
        ),
        session_dict(
            "sd-teahouse",
            "douniu",
            shunde,
            douniu_rounds(4, _ids(shunde), 6, base=1, grab=1, bets=[1, 2]),
            jurisdiction="440606",
            point_value=1,
            venue="public_place",
            started_at="2016-02-03T20:00:00+08:00",
        ),
        session_dict(
            "hn-tampered",
            "douniu",
            hunan,
            tampered,
            jurisdiction="430000",
            point_value=1,
            room_id="r-89",
            venue="online",
        ),
        session_dict(
            "mixed-room",
            "douniu",
            mixed,
            douniu_rounds(6, _ids(mixed), 10, base=10, grab=1, bets=[1, 2, 3], rake=2),
            point_value="0.5",
            room_id="r-90",
            owner={"id": "owner-2"},
            venue="online",
        ),
        session_dict(
            "no-point-value",
            "douniu",
            hunan,
            douniu_rounds(7, _ids(hunan), 3, base=10, grab=1, bets=[1]),
            jurisdiction="430000",
            venue="online",
        ),
    ]


def bad_lines() -> list[str]:
    """One good session and three lines that must become rejects."""
    players = [f"b{i}" for i in range(1, 4)]
    good = session_dict(
        "good-1",
        "douniu",
        players,
        douniu_rounds(8, players, 2, base=10, grab=1, bets=[1]),
        jurisdiction="430000",
        point_value=1,
    )
    dup = session_dict(
        "dup-card",
        "douniu",
        players,
        douniu_rounds(9, players, 2, base=10, grab=1, bets=[1]),
        jurisdiction="430000",
        point_value=1,
    )
    dup["rounds"][1]["seats"][1]["cards"][0] = dup["rounds"][1]["seats"][0]["cards"][0]
    unknown = session_dict(
        "mystery-game", "zhajinhua", players, [], jurisdiction="430000", point_value=1
    )
    truncated = json.dumps(good, ensure_ascii=False)[:150].replace("good-1", "cut-1")
    return [
        json.dumps(good, ensure_ascii=False),
        truncated,
        json.dumps(dup, ensure_ascii=False),
        json.dumps(unknown, ensure_ascii=False),
    ]


def render() -> dict[str, str]:
    return {
        "douniu.jsonl": "".join(json.dumps(s, ensure_ascii=False) + "\n" for s in douniu_samples()),
        "bad.jsonl": "".join(line + "\n" for line in bad_lines()),
    }


if __name__ == "__main__":
    for name, text in render().items():
        (SAMPLES / name).write_text(text, encoding="utf-8")
        print(f"wrote {SAMPLES / name}")
