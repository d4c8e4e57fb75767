"""每局输赢与抽水: what each round paid each player and the rake it took, read from any
game's round records without replaying them.

Every game's round carries its `claimed` result, either per seat (`seats[].claimed`:
斗牛, 扯旋, 牌九) or as a map of player to points (the other five games), and may
carry `rake`: per seat in 斗牛 (withheld from `claimed`), per round in the others (on
top of `claimed`). Other fields are skipped unread. A `rake` that is absent stays
`None`, so that "no rake written" can be told from "a rake of 0".
"""

from __future__ import annotations

import msgspec

from compliance.logs.bounds import Points, SignedPoints


class SeatMoney(msgspec.Struct, frozen=True, gc=False):
    """座位: a seat's player, what the platform paid it and the rake it paid."""

    player: str = ""
    claimed: SignedPoints = 0
    rake: Points | None = None


class RoundMoney(msgspec.Struct, frozen=True, gc=False):
    """一局: the seats or the claimed map, and the round's own rake."""

    seats: list[SeatMoney] = []
    claimed: dict[str, SignedPoints] = {}
    rake: Points | None = None

    def results(self) -> dict[str, int]:
        """Each player's settled points in the round (what was paid, after any seat rake)."""
        if self.seats:
            out: dict[str, int] = {}
            for s in self.seats:
                out[s.player] = out.get(s.player, 0) + s.claimed
            return out
        return dict(self.claimed)

    @property
    def seat_rake(self) -> bool:
        """The rake is written per seat (斗牛) rather than per round."""
        return any(s.rake is not None for s in self.seats)


_decoder = msgspec.json.Decoder(list[RoundMoney])


def round_money(raw: msgspec.Raw | bytes) -> list[RoundMoney] | None:
    """The rounds' money, or None where the rounds do not decode (the audit rejects the
    session, naming why: the duties need not say it again)."""
    try:
        return _decoder.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return None
