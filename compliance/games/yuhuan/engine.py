"""玉环麻将: replay of 16-tile mahjong sessions with 財神 wildcards (seed 002).

Each round record carries the four final hands; the engine finds the
winner's best decomposition, scores 胡数 × 2^台 rounded up to tens and capped,
scores the other three without 底胡, and settles: each other player pays the
winner's total (the discarder alone under 承包) and the others settle their
differences. The bank passes on after every round except a 黄庄 without kongs
(连庄). Stakes are the agreed points per 胡 (`points_per_hu`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from compliance.domain.rounds import WRONG_BANKER, Integrity, RoundResult
from compliance.errors import DealError, DecodeError
from compliance.games.base import Engine, compare_claims, decode_rounds
from compliance.games.yuhuan.breaches import WINDS_ORDER, check_chows, check_win_flags, illegal
from compliance.games.yuhuan.fast import fast_settle, tables_for
from compliance.games.yuhuan.options import YuhuanOptions, round_up
from compliance.games.yuhuan.record import (
    YuhuanEvalHand,
    YuhuanRound,
    check_tile_supply,
    hand_context,
)
from compliance.games.yuhuan.score import (
    WAIT_NAMES,
    Scoring,
    best_scoring,
    loser_scoring,
    meld_tiles,
    settle,
)
from compliance.games.yuhuan.tiles import INDEX, TILES, chinese, flower_kind
from compliance.games.yuhuan.win import CONCEALED_KONG, KONG, MELD_SIZE
from compliance.logs.records import Session, Variant

MELD_TYPES = ("chow", "pung", "kong", "concealed_kong", "pair")


@dataclass(slots=True)
class RoundOutcome:
    """一局结算 in 胡: each player's score, the payments and any rule breach."""

    deltas: dict[str, int]
    scorings: dict[str, Scoring]
    winner: str | None = None
    chengbao: str | None = None
    has_kong: bool = False
    issues: list[Integrity] = field(default_factory=list)


def settle_round(
    rnd: YuhuanRound,
    o: YuhuanOptions,
    index: int,
    known: set[str] | None = None,
    itemise: bool = False,
) -> RoundOutcome:
    """Score every hand of a round and settle it; DealError if it cannot have been dealt."""
    where = f"round {index}"
    players = [h.player for h in rnd.hands]
    if len(players) != 4 or len(set(players)) != 4:
        raise DealError(f"{where}: needs four different players, got {players}")
    stranger = next((p for p in players if p not in known), None) if known is not None else None
    if stranger is not None:
        raise DealError(f"{where}: player {stranger!r} is not in the session")
    if sorted(h.wind for h in rnd.hands) != list(WINDS_ORDER):
        raise DealError(f"{where}: seat winds must be 1z 2z 3z 4z once each")
    seat = {h.player: h.wind for h in rnd.hands}
    if seat.get(rnd.banker) != "1z":
        raise DealError(f"{where}: the banker {rnd.banker!r} must sit 东 (1z)")
    win = rnd.win
    if win is not None and (
        win.player not in seat or (win.from_ is not None and win.from_ not in seat)
    ):
        raise DealError(f"{where}: the win names a player not at the table")
    if win is not None and win.from_ == win.player:
        raise DealError(f"{where}: {win.player} cannot win on his own discard")
    check_tile_supply(rnd, o, where)
    out = RoundOutcome({p: 0 for p in players}, {})
    contexts = {}
    for hand in rnd.hands:
        expected = 17 if win is not None and hand.player == win.player else 16
        ctx = hand_context(
            hand.tiles,
            hand.melds,
            hand.flowers,
            hand.wind,
            rnd.wildcard,
            f"{where}: {hand.player}",
            expected,
        )
        contexts[hand.player] = ctx
        out.has_kong |= any(m[0] in (KONG, CONCEALED_KONG) for m in ctx.exposed)
        check_chows(hand, seat, index, out.issues)
    if win is None:
        if rnd.tiles_left != o.huang_tiles:
            out.issues.append(
                illegal(
                    index,
                    f"no win but {rnd.tiles_left} tiles left, 黄庄 comes at {o.huang_tiles}",
                    players,
                )
            )
        return out
    if win.tile not in rnd.hands[players.index(win.player)].tiles:
        raise DealError(f"{where}: the winning tile {win.tile} is not in {win.player}'s tiles")
    ctx = contexts[win.player]
    ctx.win_tile = INDEX[win.tile]
    ctx.win_wild = win.tile == rnd.wildcard
    ctx.self_drawn = win.from_ is None
    ctx.kong_flower, ctx.robbed_kong = win.kong_flower, win.robbed_kong
    check_win_flags(rnd, win, ctx, o, index, out.issues)
    best = best_scoring(ctx, o, itemise)
    if best is None:
        out.issues.append(
            illegal(
                index,
                f"{win.player} declared a win with a hand that is not complete",
                (win.player,),
            )
        )
        return out
    out.winner = win.player
    out.scorings[win.player] = best
    for p in players:
        if p != win.player:
            out.scorings[p] = loser_scoring(contexts[p], o, itemise)
    if win.from_ is not None and rnd.tiles_left - o.huang_tiles <= o.chengbao_tiles:
        out.chengbao = win.from_
    out.deltas = settle(
        players, {p: s.total for p, s in out.scorings.items()}, out.winner, out.chengbao
    )
    return out


def explain(out: RoundOutcome) -> str:
    """Each player's score by item, for a mismatch's detail."""
    parts = []
    for p, s in out.scorings.items():
        hu_items = ", ".join(f"{i['item']} {i['hu']}" for i in s.items if "hu" in i)
        tai_items = ", ".join(f"{i['item']} {i['tai']}" for i in s.items if "tai" in i)
        role = "wins" if p == out.winner else "scores"
        parts.append(f"{p} {role} {s.total} = {s.hu} 胡 [{hu_items}] × 2^{s.tai} 台 [{tai_items}]")
    if out.chengbao:
        parts.append(f"承包: {out.chengbao} pays the winner's whole share")
    return "; ".join(parts) or "no win: all zero"


class Yuhuan(Engine):
    """玉环麻将 engine."""

    def replay(self, session: Session) -> Iterator[RoundResult]:
        o = self.options_for(session.variant)
        rounds = decode_rounds(session.rounds, YuhuanRound)
        known = {p.id for p in session.players}
        tables = tables_for(o)
        ring: list[str] = []
        at = 0
        for index, rnd in enumerate(rounds, 1):
            fast = fast_settle(rnd, o, index, known, tables)
            if fast is None:  # a fault to name, or a round to settle the long way
                out = settle_round(rnd, o, index, known)
                won, winner, has_kong, issues = out.deltas, out.winner, out.has_kong, out.issues
                table = [h.player for h in sorted(rnd.hands, key=lambda h: h.wind)]
            else:
                won, winner, has_kong, issues = fast.deltas, fast.winner, fast.has_kong, fast.issues
                table = list(fast.by_wind)
            if sorted(ring) != sorted(table):
                ring = table
                at = 0
            elif rnd.banker != ring[at]:
                issues.append(
                    Integrity(
                        index,
                        WRONG_BANKER,
                        f"banker {rnd.banker}, the rules give {ring[at]}",
                        (rnd.banker, ring[at]),
                    )
                )
                at = ring.index(rnd.banker)  # succession goes on from what the table did
            stake = o.points_per_hu
            deltas = {p: d * stake for p, d in won.items()}
            mismatch = compare_claims(index, deltas, rnd.claimed) if rnd.claimed != deltas else None
            if mismatch is not None:
                mismatch.detail += " — rules: " + explain(
                    settle_round(rnd, o, index, known, itemise=True)
                )
                issues.append(mismatch)
            yield RoundResult(
                index=index,
                deltas=deltas,
                stakes=dict.fromkeys(deltas, stake),
                banker=rnd.banker,
                rake=rnd.rake,
                issues=issues,
            )
            keeps = (winner is None and not has_kong) or (
                o.banker_keeps_on_win and winner == ring[at]
            )
            if not keeps:
                at = (at + 1) % 4

    def describe(
        self, hand: list[str] | dict[str, Any], variant: Variant | None = None
    ) -> dict[str, Any]:
        """A hand's best decomposition with every 胡 and 台 item, or a round's settlement."""
        o = self.options_for(variant)
        try:
            if isinstance(hand, dict) and "hands" in hand:
                return describe_round(msgspec.convert(hand, YuhuanRound), o)
            record = msgspec.convert(
                hand if isinstance(hand, dict) else {"tiles": hand}, YuhuanEvalHand
            )
        except msgspec.ValidationError as exc:
            raise DecodeError(f"invalid yuhuan hand: {exc}") from None
        return describe_hand(record, o)


def describe_hand(record: YuhuanEvalHand, o: YuhuanOptions) -> dict[str, Any]:
    if not record.tiles:
        raise DealError("no tiles")
    ctx = hand_context(
        record.tiles, record.melds, record.flowers, record.wind, record.wildcard, "hand", 17
    )
    win_tile = record.win_tile or record.tiles[-1]
    if win_tile not in record.tiles:
        raise DealError(f"hand: the winning tile {win_tile} is not among the tiles")
    ctx.win_tile = INDEX[win_tile]
    ctx.win_wild = win_tile == record.wildcard
    ctx.self_drawn, ctx.kong_flower, ctx.robbed_kong = (
        record.self_drawn,
        record.kong_flower,
        record.robbed_kong,
    )
    head = {
        "game": "yuhuan",
        "wildcard": record.wildcard,
        "flower": TILES[ctx.flower_kind],
        "wildcards_held": ctx.wildcards,
        "winning_tile": win_tile,
    }
    best = best_scoring(ctx, o, itemise=True)
    if best is None:
        return {**head, "win": False, "reason": "not five melds and a pair, even with the 財神"}
    return {**head, "win": True, **scoring_dict(best, o)}


def scoring_dict(s: Scoring, o: YuhuanOptions) -> dict[str, Any]:
    raw = s.hu << s.tai
    melds = []
    for i, meld in enumerate(s.melds):
        kind, tile, mask, exposed = meld
        entry = {
            "type": MELD_TYPES[kind],
            "tiles": [TILES[t] for t in meld_tiles(meld)],
            "name": chinese(tile),
            "exposed": exposed,
            "wild": [p for p in range(MELD_SIZE[kind]) if mask & (1 << p)],
        }
        if i == s.wait_meld:
            entry["winning"] = True
        melds.append(entry)
    out = {"melds": melds, "items": s.items, "hu": s.hu, "tai_raw": s.tai_raw, "tai": s.tai}
    if s.wait is not None:
        out["wait"] = WAIT_NAMES[s.wait]
    out.update(raw=raw, rounded=round_up(raw, o.round_to), total=s.total, capped=s.total == o.cap)
    return out


def describe_round(rnd: YuhuanRound, o: YuhuanOptions) -> dict[str, Any]:
    out = settle_round(rnd, o, 1, itemise=True)
    return {
        "game": "yuhuan",
        "wildcard": rnd.wildcard,
        "flower": TILES[flower_kind(INDEX[rnd.wildcard])],
        "winner": out.winner,
        "chengbao": out.chengbao,
        "scores": {p: scoring_dict(s, o) for p, s in out.scorings.items()},
        "deltas": {p: d * o.points_per_hu for p, d in out.deltas.items()},
        "issues": [i.detail for i in out.issues],
    }
