"""犯规: the breaches of a 玉环麻将 round that a well-formed log can show (illegal actions).

Shared by the reference `settle_round` and the replay's fast path, so both word
them alike.
"""

from __future__ import annotations

from collections.abc import Mapping

from compliance.domain.rounds import ILLEGAL_ACTION, Integrity
from compliance.games.yuhuan.options import YuhuanOptions
from compliance.games.yuhuan.record import YuhuanRound, YuhuanWin
from compliance.games.yuhuan.score import HandContext
from compliance.games.yuhuan.win import CONCEALED_KONG, KONG

WINDS_ORDER = ("1z", "2z", "3z", "4z")


def illegal(index: int, detail: str, players) -> Integrity:
    return Integrity(round=index, check=ILLEGAL_ACTION, detail=detail, players=tuple(players))


def check_chows(hand, seat: Mapping[str, str], index: int, issues: list[Integrity]) -> None:
    """吃牌只能吃上家: a chow is claimed only from the player before you."""
    before = WINDS_ORDER[(WINDS_ORDER.index(hand.wind) - 1) % 4]
    for meld in hand.melds:
        if meld.type == "chow" and meld.from_ is not None and seat.get(meld.from_) != before:
            issues.append(
                illegal(
                    index,
                    f"{hand.player} chowed {''.join(meld.tiles)} from {meld.from_}, not from 上家",
                    (hand.player,),
                )
            )


def check_win_flags(
    rnd: YuhuanRound,
    win: YuhuanWin,
    ctx: HandContext,
    o: YuhuanOptions,
    index: int,
    issues: list[Integrity],
) -> None:
    """杠上开花 only self-drawn after a kong or 杠花; 拉杠 only on another's tile; no win after 黄庄.

    `win` is the round's win (`rnd.win`, known to be there).
    """
    if win.kong_flower and (
        win.from_ is not None
        or not (ctx.flowers or any(m[0] in (KONG, CONCEALED_KONG) for m in ctx.exposed))
    ):
        issues.append(
            illegal(
                index,
                f"{win.player} claims 杠上开花 without a self-drawn replacement after a kong or 杠花",
                (win.player,),
            )
        )
        ctx.kong_flower = False
    if win.robbed_kong and win.from_ is None:
        issues.append(
            illegal(index, f"{win.player} claims 拉杠 on a self-drawn tile", (win.player,))
        )
        ctx.robbed_kong = False
    if rnd.tiles_left < o.huang_tiles:
        issues.append(
            illegal(
                index,
                f"a win with {rnd.tiles_left} tiles left, after 黄庄 at {o.huang_tiles}",
                (win.player,),
            )
        )
