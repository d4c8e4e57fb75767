"""快查: a whole hand checked on integer card codes; anything unusual goes to the reference.

`clean_hand` answers for one hand: the seats and the finishing order when the deal, the
tribute and every play are what the rules allow (the reference checks of `engine` and
`play` would find nothing), else None, and the hand is checked again by the reference,
which names the breach. A hand is held as one integer: seven bits per card of the 54,
a count plus a guard bit (64), so a play takes its cards away with one subtraction, and
a card played more often than held clears its guard bit. What a play makes of the table
is read once per table reading and cards (its shape by `shapes.readings`, the reading
that beats the table by `combos.pick`) and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from compliance.games.cards import ALL_CARDS, JOKERS, rank_of
from compliance.games.guandan import combos, shapes
from compliance.games.guandan.decode import Play, RawHand, play_of
from compliance.games.guandan.options import GuandanOptions
from compliance.games.guandan.record import GuandanHand

HAND_SIZE = 27
BITS = 7
FIELD = (1 << BITS) - 1
INDEX: dict[str, int] = {card: i * BITS for i, card in enumerate(ALL_CARDS)}  # field shifts
WEIGHT: dict[str, int] = {card: 1 << shift for card, shift in INDEX.items()}
GUARD = sum(64 << shift for shift in INDEX.values())
TWO_DECKS = sum(2 << shift for shift in INDEX.values())
SPARE = sum(61 << shift for shift in INDEX.values())  # + a count sets the guard from 3 up
WEIGHTS = (1 << BITS * len(ALL_CARDS)) - 1
RANK_AT = BITS * len(ALL_CARDS)  # then 16 fields of 5 bits: ranks 2 … A, BJ, RJ, wildcards
SUIT_AT = RANK_AT + 5 * 16  # then a field of 5 bits per suit of the natural cards
RANKS = ((1 << 5 * 16) - 1) << RANK_AT
MAX_KEPT = 1 << 18  # cached plays over all levels; past it the caches start again

# the next seat still holding cards after `seat`, for each set of such seats (bit i: seat i)
NEXT = tuple(
    tuple(next((s + k) % 4 for k in range(1, 5) if live >> ((s + k) % 4) & 1) for s in range(4))
    if live
    else (0, 0, 0, 0)
    for live in range(16)
)


# What a play makes of a table: the cards' weight, how many, the table after and its plays.
Entry = tuple[int, int, "Node", dict]


class Node:
    """A reading on the table, and what a play makes of it: by its cards (the entry) and
    by its shape (the table after)."""

    __slots__ = ("reading", "follow", "after")

    def __init__(self, reading: combos.Reading | None):
        self.reading = reading
        self.follow: dict[Any, Entry | bool] = {}
        self.after: dict[Any, Node | bool] = {}


class Level:
    """The plays seen at one level: the shapes read, a node per reading, and the leads."""

    def __init__(self, level: str):
        self.level = level
        self.lead = Node(None)
        self.nodes: dict[tuple[str, int, int], Node] = {}
        self.shapes: dict[int, tuple[combos.Reading, ...]] = {}
        self.reads: dict[tuple[str, ...], tuple[int, int] | Literal[False]] = {}
        self.wild = combos.wildcard(level)
        self.tribute_value: dict[str, int] = {
            c: 0 if c == self.wild else combos.value(rank_of(c), level) for c in ALL_CARDS
        }
        self.code: dict[str, int] = {c: WEIGHT[c] + self._rank_bits(c) for c in ALL_CARDS}

    def _rank_bits(self, card: str) -> int:
        """A card's count in the ranks field (13 natural ranks, 小王, 大王, the wildcard)
        and, for a natural card, in the suits field."""
        if card == self.wild:
            return 1 << (RANK_AT + 5 * 15)
        if card in JOKERS:
            return 1 << (RANK_AT + 5 * (13 if card == "BJ" else 14))
        rank = 1 << (RANK_AT + 5 * (combos.NATURAL[rank_of(card)] - 2))
        return rank + (1 << (SUIT_AT + 5 * "SHCD".index(card[0])))

    def learn(self, node: Node, key: Any, cards: tuple[str, ...], declared: str | None):
        """The entry of a play new to this table (`Entry`), or False."""
        global kept
        kept += 1
        if kept > MAX_KEPT:
            _forget()
        read = self.reads.get(cards)
        if read is None:
            read = self.reads[cards] = self.read(cards) or False
        if read:
            shape = read[1]
            by_shape = shape if declared is None else (shape, declared)
            after = node.after.get(by_shape)
            if after is None:
                chosen = combos.pick(self.readings(shape), node.reading, declared)
                after = node.after[by_shape] = False if chosen is None else self._node(chosen)
            if isinstance(after, Node):
                entry: Entry = (read[0], len(cards), after, after.follow)
                node.follow[key] = entry
                return entry
        node.follow[key] = False
        return False

    def read(self, cards: tuple[str, ...]) -> tuple[int, int] | None:
        """The cards' weight and shape (the ranks field in place, plus 1 for several suits
        among the natural cards), or None for more copies of a card than two decks hold."""
        if len(cards) > HAND_SIZE:
            return None
        code = sum(map(self.code.__getitem__, cards))
        weight = code & WEIGHTS
        if (weight + SPARE) & GUARD:
            return None
        suits = code >> SUIT_AT
        several = suits not in (suits & 31, suits & 31 << 5, suits & 31 << 10, suits & 31 << 15)
        return weight, (code & RANKS) + several

    def readings(self, key: int) -> tuple[combos.Reading, ...]:
        """The readings of a shape, strongest first (`shapes.readings`, kept per shape)."""
        found = self.shapes.get(key)
        if found is None:
            ranks = (key & RANKS) >> RANK_AT
            found = self.shapes[key] = shapes.readings(ranks, bool(key & 1), self.level)
        return found

    def _node(self, reading: combos.Reading) -> Node:
        """One node per table reading: what beats it depends on its kind, size and key."""
        table = (reading.kind, reading.size, reading.key)
        found = self.nodes.get(table)
        if found is None:
            found = self.nodes[table] = Node(reading)
        return found


levels: dict[str, Level] = {}
kept = 0


def _forget() -> None:
    global kept
    levels.clear()
    kept = 0


def level_of(level: str) -> Level:
    found = levels.get(level)
    if found is None:
        found = levels[level] = Level(level)
    return found


def clean_hand(
    hand: GuandanHand | RawHand,
    players: Sequence[str],
    previous: list[str] | None,
    level: str,
    options: GuandanOptions,
    plays: list[Play] | None = None,
) -> tuple[list[str], list[str]] | None:
    """(seats, finishing order) of a hand the reference checks would pass, else None;
    `plays` as `decode.decode_hands` gives them (without: read from a `GuandanHand`)."""
    if plays is None:
        plays = list(map(play_of, hand.plays))  # type: ignore[arg-type]
    deal = hand.deal
    if len(deal) != 4 or (hand.level is not None and hand.level != level):
        return None
    weight = WEIGHT.__getitem__
    total = 0
    held: dict[str, int] = {}
    for player, cards in deal.items():
        if len(cards) != HAND_SIZE:
            return None
        held[player] = packed = sum(map(weight, cards))
        total += packed
    if total != TWO_DECKS:
        return None
    seats = [p for p in players if p in deal]
    finish = hand.finish
    if len(seats) != 4 or set(seats) != deal.keys():
        return None
    if len(finish) != 4 or set(finish) != deal.keys():
        return None
    if not hand.claimed.keys() <= deal.keys():
        return None
    codes = level_of(level)
    leader = _tribute(hand, held, seats, previous, codes, options)
    if leader is False:
        return None
    if not plays:
        return seats, list(finish)
    order = _plays(plays, [held[p] for p in seats], seats, leader, codes)
    if order is None or _places(order, seats) != _places(finish, seats):
        return None
    return seats, list(finish)


def _tribute(
    hand: GuandanHand | RawHand,
    held: dict[str, int],
    seats: list[str],
    previous: list[str] | None,
    codes: Level,
    options: GuandanOptions,
) -> str | None | Literal[False]:
    """进贡 as `play.check_tribute` wants it, moving the cards in `held`: the leader, or
    False for anything it would name (or a tribute it would leave unchecked)."""
    tributes = hand.tribute
    if previous is None:
        return False if tributes else None
    if hand.deal.keys() != set(previous):
        return False
    first, second, third, last = previous
    team = seats.index
    if team(first) % 2 == team(second) % 2:
        payers, receivers = [third, last], [first, second]
    elif options.partner_last_tribute == "third" and team(first) % 2 == team(last) % 2:
        payers, receivers = [third], [first]
    else:
        payers, receivers = [last], [first]
    deal = hand.deal
    big_jokers = sum(deal[p].count("RJ") for p in payers)
    if big_jokers >= options.resist_jokers:
        return False if tributes else first
    if len(tributes) != len(payers):
        return False
    paid = {t.payer: t for t in tributes}
    if paid.keys() != set(payers):
        return False
    values = codes.tribute_value
    for payer in payers:
        card = paid[payer].card
        if card not in deal[payer] or card == codes.wild:
            return False
        if values[card] < max(map(values.__getitem__, deal[payer])):
            return False
    if len(payers) == 2:
        one, two = payers
        if values[paid[one].card] < values[paid[two].card]:
            one, two = two, one
        got = (paid[one].receiver, paid[two].receiver)
        if got != tuple(receivers) and not (
            values[paid[one].card] == values[paid[two].card] and got == tuple(receivers[::-1])
        ):
            return False
    elif paid[payers[0]].receiver != first:
        return False
    for payer in payers:
        t = paid[payer]
        held[payer] -= WEIGHT[t.card]
        held[t.receiver] += WEIGHT[t.card]
    limit = options.return_max
    for payer in payers:
        t = paid[payer]
        back = t.returned
        if back is None or not (held[t.receiver] >> INDEX[back]) & FIELD:
            return False
        if limit != "any" and (
            back in JOKERS or combos.NATURAL[rank_of(back)] > combos.NATURAL[limit]
        ):
            return False
        held[t.receiver] -= WEIGHT[back]
        held[payer] += WEIGHT[back]
    return next(p for p in payers if paid[p].receiver == first)


def _plays(
    plays: list[Play], hands: list[int], seats: list[str], leader: str | None, codes: Level
) -> list[str] | None:
    """出牌 as `play.Table` replays it: the finishing order, or None at the first doubt.

    A seat's cards are counted down play by play (it is out at none); whether it held what
    it played is asked once, at the end, of the weights it played: counts only fall during
    play, so a card played more often than held at any play is so at the end, and no field
    can borrow from the next (27 cards at most, two of a card a play)."""
    try:
        turn = seats.index(leader or plays[0][0])
    except ValueError:
        return None
    lead = table = codes.lead
    follow = opening = lead.follow
    owner = turn
    passes = 0
    need = 3  # passes that end the trick: the others still holding cards
    live, active = 15, 4
    out = [0, 0]
    finished: list[int] = []
    after = NEXT[15]
    left = [HAND_SIZE] * 4
    spent = [0, 0, 0, 0]  # the weights each seat played
    learn = codes.learn
    rest = iter(plays)
    for player, key, play in rest:
        if player != seats[turn]:
            return None
        if key:
            entry = follow.get(key)
            if entry is None:
                entry = learn(table, key, play.cards, play.combo)
            if entry is False:
                return None
            weight, size, table, follow = entry  # type: ignore[misc]
            spent[turn] += weight
            count = left[turn] - size
            left[turn] = count
            owner, passes = turn, 0
            if count <= 0:
                if count:
                    return None  # more cards than held
                finished.append(turn)
                live &= ~(1 << turn)
                active -= 1
                out[turn & 1] += 1
                if out[turn & 1] == 2:
                    break
                after = NEXT[live]
                need = active
            else:
                need = active - 1
            turn = after[turn]
        elif follow is opening:
            return None
        else:
            passes += 1
            if passes == need:
                turn = owner if live >> owner & 1 else owner ^ 2  # 借风
                table, follow, passes = lead, opening, 0
            else:
                turn = after[turn]
    else:
        return None  # the plays stop before the hand is decided
    if next(rest, None) is not None:
        return None  # plays after the hand is over
    for seat in range(4):
        if (hands[seat] + GUARD - spent[seat]) & GUARD != GUARD:
            return None  # a card played that was not held
    return [seats[s] for s in finished] + [p for i, p in enumerate(seats) if i not in finished]


def _places(order: Sequence[str], seats: list[str]) -> tuple:
    """What matters of an order (as `engine._places`): first, the partner's place, the rest."""
    partner = seats[(seats.index(order[0]) + 2) % 4]
    place = order.index(partner)
    return (order[0], place, frozenset(order[2:]) if place == 1 else order[3])
