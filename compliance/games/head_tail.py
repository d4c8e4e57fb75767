"""分牌: a four-card hand split into head (头) and tail (尾), as 扯旋 and 牌九 play it."""

from __future__ import annotations

from typing import Protocol

from compliance.errors import DealError
from compliance.games.base import ILLEGAL_ACTION, Integrity


class SplitSeat(Protocol):
    """A seat with a logged split (read-only, as the frozen seat Structs are)."""

    @property
    def player(self) -> str: ...

    @property
    def cards(self) -> list[str]: ...

    @property
    def head(self) -> list[str] | None: ...

    @property
    def tail(self) -> list[str] | None: ...


def logged_split(index: int, seat: SplitSeat, missing: str) -> tuple[list[str], list[str]]:
    """The logged head and tail; DealError when they are not two and two of his cards."""
    if seat.head is None:
        raise DealError(f"round {index}: {seat.player} {missing}")
    tail = seat.tail if seat.tail is not None else [c for c in seat.cards if c not in seat.head]
    if len(seat.head) != 2 or len(tail) != 2 or sorted(seat.head + tail) != sorted(seat.cards):
        raise DealError(f"round {index}: {seat.player}'s split does not match his cards")
    return seat.head, tail


def smaller_head(index: int, player: str, head, tail) -> Integrity | None:
    """A head below its tail is swapped, as the server does, and reported."""
    if head.strength >= tail.strength:
        return None
    return Integrity(
        index,
        ILLEGAL_ACTION,
        f"{player} split with the head {head.name} smaller than the tail {tail.name}; "
        "swapped as the server does",
        (player,),
    )
