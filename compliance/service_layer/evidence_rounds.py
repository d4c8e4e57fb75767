"""回合重演: one stored session's log line read again and every round replayed from its cards,
for an evidence pack: each seat's cards or tiles and what the hand is, the stake that
counted, the settlement the rules give against what the log claimed, and the player's
figures in points and in yuan.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

import msgspec

from compliance.domain.metrics import player_metrics, tally
from compliance.errors import ComplianceError
from compliance.games import get_game
from compliance.logs.reader import MAX_LINE_BYTES, decode_session, duplicate_key
from compliance.streams import BOM, open_log

MAX_DESCRIBED = 8  # a seat of more cards is a whole hand of play (掼蛋, 升级), not one hand
METRICS = ("single_stake", "round_win_loss", "session_win_loss", "net", "total_staked", "capital")


def lines_at(path: str, numbers: Iterable[int]) -> tuple[dict[int, bytes], str | None]:
    """The lines of a log at these numbers (1-based), read in one pass; and why not, if the
    file cannot be read."""
    wanted = set(numbers)
    found: dict[int, bytes] = {}
    if not wanted:
        return found, None
    last = max(wanted)
    try:
        with open_log(path) as fh:
            for number, raw in enumerate(fh, 1):
                if number in wanted:
                    if number == 1 and raw.startswith(BOM):
                        raw = raw[len(BOM) :]
                    found[number] = raw.rstrip(b"\r\n")
                if number >= last:
                    break
    except OSError as exc:
        return found, f"{path}: {exc.strerror or exc}"
    except (EOFError, ValueError) as exc:
        return found, f"{path}: {exc}"
    return found, None


def lines_at_offsets(path: str, offsets: dict[int, int]) -> tuple[dict[int, bytes], str | None]:
    """Lines of a plain file read at their offsets: line number → bytes."""
    found: dict[int, bytes] = {}
    try:
        with open(path, "rb") as fh:
            for number, offset in sorted(offsets.items(), key=lambda kv: kv[1]):
                fh.seek(offset)
                raw = fh.readline(MAX_LINE_BYTES + 1)
                if offset == 0 and raw.startswith(BOM):
                    raw = raw[len(BOM) :]
                found[number] = raw.rstrip(b"\r\n")
    except OSError as exc:
        return found, f"{path}: {exc.strerror or exc}"
    return found, None


def line_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def replay(raw: bytes) -> dict[str, Any]:
    """The session's rounds replayed, or `error` saying why they could not be."""
    try:
        twice = duplicate_key(raw)
        if twice:
            return {"error": twice}
        session = decode_session(raw)
        game = get_game(session.game)
        results = list(game.replay(session))
        records = msgspec.json.decode(session.rounds) if session.rounds else []
    except (ComplianceError, msgspec.DecodeError, RecursionError, ValueError) as exc:
        return {"error": str(exc).splitlines()[0]}
    ids = [p.id for p in session.players]
    point_value = session.point_value
    rounds = [
        _round(game, session, record if isinstance(record, dict) else {}, result)
        for record, result in zip(records, results, strict=False)
    ]
    totals = tally(results, ids)
    figures = []
    for pid in ids:
        t = totals.players[pid]
        row: dict[str, Any] = {
            "player": pid,
            "points": {
                "max_stake": t.max_stake,
                "max_round_swing": t.max_round_swing,
                "net": t.net,
                "staked": t.staked,
                "won": t.won,
            },
        }
        if point_value is not None:
            m = player_metrics(pid, t, point_value)
            row["yuan"] = {k: _plain(getattr(m, k)) for k in METRICS}
        figures.append(row)
    return {
        "game": session.game,
        "point_value": _plain(point_value) if point_value is not None else None,
        "rounds": rounds,
        "figures": figures,
        "rake_points": totals.rake,
    }


def _round(game, session, record: dict[str, Any], result) -> dict[str, Any]:
    seats = seats_of(record)
    claimed = {p: s["claimed"] for p, s in seats.items() if isinstance(s.get("claimed"), int)}
    hands = {}
    for pid, seat in seats.items():
        cards = seat.get("cards") or seat.get("tiles") or seat.get("hand")
        if isinstance(cards, list) and _is_hand(cards):
            hands[pid] = {"cards": cards, "is": describe(game, cards, session.variant)}
    players = sorted(set(result.deltas) | set(claimed))
    return {
        "round": result.index,
        "banker": result.banker,
        "rake": result.rake,
        "players": [
            {
                "player": pid,
                "cards": hands.get(pid, {}).get("cards"),
                "hand": hands.get(pid, {}).get("is"),
                "stake": result.stakes.get(pid),
                "settled": result.deltas.get(pid),
                "claimed": claimed.get(pid),
                "differs": pid in claimed and claimed[pid] != result.deltas.get(pid),
            }
            for pid in players
        ],
        "issues": [
            {"check": i.check, "detail": i.detail, "claimed": i.claimed, "expected": i.expected}
            for i in result.issues
        ],
        "record": record,
    }


def seats_of(record: Any) -> dict[str, dict[str, Any]]:
    """Each player's entries of a round record, from `{"player": …}` objects at any depth
    and from objects keyed by player under `claimed`, `hands`, `chips` or `antes`."""
    seats: dict[str, dict[str, Any]] = {}

    def walk(node: Any, depth: int) -> None:
        if depth > 20:
            return
        if isinstance(node, dict):
            pid = node.get("player")
            if isinstance(pid, str):
                seats.setdefault(pid, {}).update({k: v for k, v in node.items() if k != "player"})
            for key in ("claimed", "hands", "chips", "antes"):
                keyed = node.get(key)
                if isinstance(keyed, dict):
                    for p, v in keyed.items():
                        seats.setdefault(str(p), {}).setdefault(
                            "hand" if key == "hands" else key, v
                        )
            for value in node.values():
                walk(value, depth + 1)
        elif isinstance(node, list):
            for value in node:
                walk(value, depth + 1)

    walk(record, 0)
    return seats


def _is_hand(cards: Any) -> bool:
    return (
        isinstance(cards, list)
        and 0 < len(cards) <= MAX_DESCRIBED
        and all(isinstance(c, str) for c in cards)
    )


def describe(game, cards: list[str], variant) -> str | None:
    """What a hand is, in a few words (`bull_5 牛五 ×1`), or None where the game says nothing."""
    try:
        d = game.describe(list(cards), variant)
    except Exception:  # noqa: BLE001 - a hand the describer refuses is shown without words
        return None
    words = [str(d[k]) for k in ("rank", "name", "name_zh", "kind") if d.get(k) not in (None, "")]
    if d.get("multiplier") not in (None, 1):
        words.append(f"×{d['multiplier']}")
    return " ".join(dict.fromkeys(words)) or None


def _plain(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")
