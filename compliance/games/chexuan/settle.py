"""尾大吃皮: settling a 扯旋 showdown from the chips each player put in.

Seed 001: players are taken in order of tail strength ("按照尾牌大小排序，尾牌最大
的先操作"); each compares with those after him; from a loser a winner takes
at most his own stake ("從單個玩家手中贏得的籌碼不超過自己的下注數"), and what a
loser has already paid cannot be taken again; folded chips go to the remaining
player with the strongest tail; equal winners share ("平均分給a、b玩家").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter


@dataclass(slots=True)  # not frozen: a frozen dataclass is four times as dear to make
class Contender:
    """A player at the showdown: special-hand rank, head and tail strength."""

    player: str
    special: int
    head: int
    tail: int
    head_cards: tuple[int, int] = (0, 0)

    @property
    def hand(self) -> tuple[int, int, int]:
        return (self.special, self.head, self.tail)


def outcome(a: Contender, b: Contender, tail_decides: bool = False) -> int:
    """比大小: +1 if a wins, -1 if b wins, 0 for a draw.

    "頭和尾都比人家大或者…一個平一個大，就贏了；頭和尾都比人家小，就輸了，一大一小則平了";
    with `tail_decides` the later passage's reading: one bigger, one smaller goes by the tail.
    """
    if a.special != b.special:
        return 1 if a.special > b.special else -1
    head = (a.head > b.head) - (a.head < b.head)
    tail = (a.tail > b.tail) - (a.tail < b.tail)
    if head == tail or tail == 0:
        return head
    if head == 0:
        return tail
    return tail if tail_decides else 0


def tail_order(contenders: Sequence[Contender]) -> list[Contender]:
    return sorted(contenders, key=lambda c: (c.special, c.tail, c.head), reverse=True)


def head_order(contenders: Sequence[Contender]) -> list[Contender]:
    """The seed's four-player method: by head, its bigger card, its smaller card, then tail."""
    return sorted(contenders, key=lambda c: (c.special, c.head, c.head_cards, c.tail), reverse=True)


def groups_of(ordered: Sequence[Contender], by_head: bool = False) -> list[list[Contender]]:
    """Runs of contenders with identical hands: they draw each other and share what they win."""
    groups: list[list[Contender]] = []
    for c in ordered:
        key = (c.hand, c.head_cards) if by_head else c.hand
        last = groups[-1][0] if groups else None
        if last is not None and ((last.hand, last.head_cards) if by_head else last.hand) == key:
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


def _tail_groups(contenders: Sequence[Contender]) -> list[list[Contender]]:
    """`groups_of(tail_order(contenders))`, each hand's key made once."""
    keyed = sorted(
        [((c.special, c.tail, c.head), c) for c in contenders], key=itemgetter(0), reverse=True
    )
    groups: list[list[Contender]] = []
    last = None
    for key, c in keyed:
        if key == last:
            groups[-1].append(c)
        else:
            groups.append([c])
            last = key
    return groups


def share(
    players: Sequence[str], caps: dict[str, int], amount: int, by_stake: bool = False
) -> dict[str, int]:
    """分钱: split `amount` among tied winners, each at most his own stake.

    Equal shares by default; in proportion to stake as an option. Points that
    do not divide go one each to the players in settlement order.
    """
    amount = min(amount, sum(caps[p] for p in players))
    got = dict.fromkeys(players, 0)
    if amount <= 0:
        return got
    if by_stake:
        total = sum(caps[p] for p in players)
        for p in players:
            got[p] = amount * caps[p] // total
    left = amount - sum(got.values())
    room = [p for p in players if caps[p] > got[p]]
    while left > 0 and room:
        each = left // len(room)
        if each == 0:
            for p in room[:left]:
                got[p] += 1
            break
        for p in list(room):
            give = min(each, caps[p] - got[p])
            got[p] += give
            left -= give
            if got[p] == caps[p]:
                room.remove(p)
    return got


def settle_transfers(
    chips: dict[str, int],
    contenders: Sequence[Contender],
    folded: Sequence[str],
    *,
    tail_decides: bool = False,
    by_head: bool = False,
    share_by_stake: bool = False,
) -> dict[tuple[str, str], int]:
    """Who pays whom: (loser, winner) → chips; what nobody may take stays with its owner."""
    left = dict(chips)
    paid: dict[tuple[str, str], int] = defaultdict(int)

    def pay(loser: str, winners: Sequence[str]) -> None:
        for p, amount in share(winners, chips, left[loser], share_by_stake).items():
            if amount:
                left[loser] -= amount
                paid[loser, p] += amount

    ordered = head_order(contenders) if by_head else tail_order(contenders)
    groups = groups_of(ordered, by_head)
    for i, group in enumerate(groups):
        for later in groups[i + 1 :]:
            for q in later:
                result = outcome(group[0], q, tail_decides)
                if result > 0:
                    pay(q.player, [c.player for c in group])
                elif result < 0:
                    for c in group:
                        pay(c.player, [q.player])
    for f in folded:
        for group in groups_of(tail_order(contenders)):
            if left[f] <= 0:
                break
            pay(f, [c.player for c in group])
    return dict(paid)


def settle_showdown(
    chips: dict[str, int], contenders: Sequence[Contender], folded: Sequence[str], **rules: bool
) -> dict[str, int]:
    """Deltas for every player in `chips` (see `settle_transfers`)."""
    deltas = dict.fromkeys(chips, 0)
    for (loser, winner), amount in settle_transfers(chips, contenders, folded, **rules).items():
        deltas[loser] -= amount
        deltas[winner] += amount
    return deltas


def showdown_deltas(
    chips: dict[str, int],
    contenders: Sequence[Contender],
    folded: Sequence[str],
    *,
    tail_decides: bool = False,
    by_head: bool = False,
    share_by_stake: bool = False,
) -> dict[str, int]:
    """`settle_showdown` in one pass: deltas summed as the chips move, a lone winner's take
    without `share`, the tail order's groups worked out once for every folded player."""
    left = dict(chips)
    deltas = dict.fromkeys(chips, 0)

    def pay(loser: str, winners: list[str]) -> None:
        if len(winners) == 1:
            winner = winners[0]
            amount = min(left[loser], chips[winner])
            if amount > 0:
                left[loser] -= amount
                deltas[loser] -= amount
                deltas[winner] += amount
            return
        for p, amount in share(winners, chips, left[loser], share_by_stake).items():
            if amount:
                left[loser] -= amount
                deltas[loser] -= amount
                deltas[p] += amount

    by_tail = _tail_groups(contenders)
    groups = groups_of(head_order(contenders), True) if by_head else by_tail
    for i, group in enumerate(groups):
        a = group[0]
        names = [c.player for c in group]
        for later in groups[i + 1 :]:
            for b in later:
                if a.special != b.special:  # `outcome(a, b, tail_decides)`, inline
                    result = 1 if a.special > b.special else -1
                else:
                    head = (a.head > b.head) - (a.head < b.head)
                    tail = (a.tail > b.tail) - (a.tail < b.tail)
                    if head == tail or tail == 0:
                        result = head
                    elif head == 0:
                        result = tail
                    else:
                        result = tail if tail_decides else 0
                if result > 0:
                    pay(b.player, names)
                elif result < 0:
                    for p in names:
                        pay(p, [b.player])
    if folded:
        tail_groups = [[c.player for c in group] for group in by_tail]
        for f in folded:
            for names in tail_groups:
                if left[f] <= 0:
                    break
                pay(f, names)
    return deltas
