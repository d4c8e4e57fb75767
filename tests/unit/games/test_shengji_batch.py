"""升级 whole-session check: `batch.check_session` agrees with the reference per hand.

The reference is `engine.seats_of` and `engine.hand_points` (trick by trick on holdings
kept by suit). On random hands, legal ones with throws and tractors and ones broken at
random (cards swapped between a player's tricks, turns, leads, deals, kitties), a hand
the batch calls clean has the reference's seats and points and no breach but a logged
mismatch, and a hand the reference finds clean the batch decides too.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.rounds import SETTLEMENT_MISMATCH
from compliance.errors import DealError
from compliance.games.cards import ALL_CARDS, build_deck
from compliance.games.shengji import GAME, LEVELS, ShengjiHand, ShengjiOptions, tricks
from compliance.games.shengji import engine as shengji_engine
from compliance.games.shengji.batch import check_session
from compliance.games.shengji.engine import hand_points, seats_of
from compliance.games.shengji.later import card_codes
from compliance.games.shengji.simulator import deal_hand, follow, lead, simulate
from tests.builders_guandan import SEATS, session_of

seeds = st.integers(0, 2**32 - 1)
OPTIONS = [
    ShengjiOptions(),
    ShengjiOptions(tractor_follow=False),
    ShengjiOptions(throw_ruff="shape", kitty_multiplier="power"),
]


def _throw(held: Counter, trumps: tricks.Trumps, rng: random.Random) -> list[str] | None:
    """Some cards of one suit that are not one unit (a throw), or None."""
    cards = list(held.elements())
    suit = trumps.suit(rng.choice(cards))
    suited = trumps.of_suit(cards, suit)
    if len(suited) < 2:
        return None
    chosen = rng.sample(suited, rng.randrange(2, min(len(suited), 6) + 1))
    found = tricks.shape(chosen, trumps)
    return chosen if found is not None and found.kind == "throw" else None


def _random_follow(held, shape, trumps, rng, tractor_follow) -> list[str]:
    """A random legal follow, else the simulator's lowest legal one."""
    size = sum(shape.units)
    cards = list(held.elements())
    for _ in range(6):
        play = rng.sample(cards, size)
        if tricks.follow_problem(shape, held, play, trumps, tractor_follow) is None:
            return play
    return follow(held, shape, trumps, rng, tractor_follow)


def random_hand(rng: random.Random, options: ShengjiOptions) -> dict:
    """A hand played out legally at random: singles, pairs, tractors and throws, legal
    throws (unbeatable by every other holding) and random legal follows."""
    level = rng.choice(LEVELS)
    declarer = rng.choice(SEATS)
    record = deal_hand(rng, SEATS, declarer, level)
    held = {p: Counter(cards) for p, cards in record["deal"].items()}
    held[declarer] += Counter(record["kitty"])
    held[declarer] -= Counter(record["buried"])
    return play_out(rng, record, held, declarer, [], options)


def play_out(rng, record: dict, held: dict, leader: str, played: list, options) -> dict:
    """The record with its tricks from `played` on, every later one played at random."""
    trumps = tricks.Trumps(record["level"], None if record["trump"] == "NT" else record["trump"])
    while held[leader]:
        start = SEATS.index(leader)
        led = lead(held[leader], trumps, rng)
        if rng.random() < 0.3 and (thrown := _throw(held[leader], trumps, rng)):
            shape = tricks.shape(thrown, trumps)
            others = (held[p] for p in SEATS if p != leader)
            if shape and tricks.throw_problem(shape, thrown, others, trumps) is None:
                led = thrown
        shape = tricks.shape(led, trumps)
        assert shape is not None
        trick = [(leader, led)]
        for i in range(1, 4):
            player = SEATS[(start + i) % 4]
            play = _random_follow(held[player], shape, trumps, rng, options.tractor_follow)
            trick.append((player, play))
        for player, cards in trick:
            held[player] -= Counter(cards)
        leader = trick[tricks.trick_winner(trick, trumps, options.throw_ruff)][0]
        played.append([{"player": p, "cards": list(c)} for p, c in trick])
    record.update(tricks=played, claimed={}, points=None)
    return record


def opening_with(rng: random.Random, opening: dict, kept: dict, options) -> dict:
    """A hand (level 2, spades trump, `a` declares) whose first trick is `opening`, each
    player also holding `kept`, the rest dealt at random and played out legally."""
    deck = Counter(build_deck(2, jokers=True))
    deck -= Counter(c for p in SEATS for c in opening[p] + kept.get(p, []))
    rest = list(deck.elements())
    rng.shuffle(rest)
    deal = {}
    for p in SEATS:
        given = opening[p] + kept.get(p, [])
        deal[p], rest = given + rest[: 25 - len(given)], rest[25 - len(given) :]
    record = {"declarer": "a", "trump": "S", "level": "2", "deal": deal, "kitty": rest}
    record["buried"] = list(rest)
    held = {p: Counter(cards) for p, cards in deal.items()}
    first = [{"player": p, "cards": list(opening[p])} for p in SEATS]
    for p in SEATS:
        held[p] -= Counter(opening[p])
    trumps = tricks.Trumps("2", "S")
    winner = tricks.trick_winner([(p, opening[p]) for p in SEATS], trumps, options.throw_ruff)
    return play_out(rng, record, held, SEATS[winner], [first], options)


def _swap_between_tricks(rng: random.Random, record: dict) -> None:
    """Swap one or two cards between two of a player's plays, often in neighbouring tricks
    and of one suit: the holdings still match the plays, so only the trick rules can
    tell (a revoke, a pair split, a tractor withheld)."""
    trumps = tricks.Trumps(record["level"], None if record["trump"] == "NT" else record["trump"])
    player = rng.choice(SEATS)
    plays = [p["cards"] for trick in record["tricks"] for p in trick if p["player"] == player]
    i = rng.randrange(len(plays) - 1)
    j = i + 1 if rng.random() < 0.5 else rng.randrange(i + 1, len(plays))
    one, two = plays[i], plays[j]
    width = 2 if rng.random() < 0.3 and min(len(one), len(two)) >= 2 else 1
    mine = rng.sample(range(len(one)), width)
    theirs = rng.sample(range(len(two)), width)
    if rng.random() < 0.5:  # cards of the same suit where there are some
        suit = trumps.suit(one[mine[0]])
        same = [k for k in range(len(two)) if trumps.suit(two[k]) == suit]
        if len(same) >= width:
            theirs = rng.sample(same, width)
    for x, y in zip(mine, theirs, strict=True):
        one[x], two[y] = two[y], one[x]


def break_hand(rng: random.Random, record: dict) -> None:
    """One random change that may or may not break the rules."""
    kind = rng.randrange(9)
    trick = rng.choice(record["tricks"])
    play = rng.choice(trick)
    if kind <= 3:
        _swap_between_tricks(rng, record)
    elif kind == 4:
        i = rng.randrange(3)
        trick[i], trick[i + 1] = trick[i + 1], trick[i]
    elif kind == 5:
        play["cards"] = play["cards"][1:] + rng.sample(build_deck(1, jokers=True), 1)
    elif kind == 6:
        record["buried"][0] = rng.choice(build_deck(1, jokers=True))
    elif kind == 7:
        record["deal"][rng.choice(SEATS)][0] = record["kitty"][0]
    else:
        record["tricks"].pop(rng.randrange(len(record["tricks"])))


def reference(hand: ShengjiHand, players: list[str], options: ShengjiOptions):
    """(seats, points, breaches) by the reference, or DealError's text."""
    try:
        seats = seats_of(1, hand, players)
    except DealError as exc:
        return str(exc)
    assert hand.level is not None
    trumps = tricks.trumps_for(hand.level, None if hand.trump == "NT" else hand.trump)
    points, breaches = hand_points(hand, seats, trumps, options)
    return seats, points, [check for check, _, _ in breaches]


def assert_agrees(records: list[dict], options: ShengjiOptions) -> None:
    hands = [msgspec.convert(r, ShengjiHand) for r in records]
    for hand, checked in zip(hands, check_session(hands, SEATS, options), strict=True):
        expected = reference(hand, SEATS, options)
        if isinstance(expected, str):
            assert checked is None, expected
            continue
        if checked is None:  # left to the reference: only what this module does not judge
            assert not hand.tricks or any(len(t) != 4 for t in hand.tricks)
            continue
        seats, points, breaches = expected
        assert checked[0] == seats
        clean = set(breaches) <= {SETTLEMENT_MISMATCH}
        assert (checked[1] is not None) == clean, breaches
        if clean:
            assert checked[1] == points


@settings(max_examples=60, deadline=None)
@given(seeds, st.sampled_from(OPTIONS))
def test_legal_random_hands_with_throws_are_clean_with_the_reference_points(seed, options):
    rng = random.Random(seed)
    records = [random_hand(rng, options) for _ in range(3)]
    for record in records:
        record["points"] = rng.choice((None, 0, 40))
    assert_agrees(records, options)


@settings(max_examples=150, deadline=None)
@given(seeds, st.sampled_from(OPTIONS))
def test_broken_random_hands_are_judged_as_the_reference_judges_them(seed, options):
    rng = random.Random(seed)
    records = []
    for _ in range(4):
        record = random_hand(rng, options)
        for _ in range(rng.randrange(1, 3)):
            break_hand(rng, record)
        records.append(record)
    assert_agrees(records, options)


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_simulated_matches_with_anomalies_are_judged_as_the_reference_judges_them(seed):
    sim = simulate(random.Random(seed), SEATS, 6, 1, 0.5)
    assert_agrees(sim.rounds, ShengjiOptions())


@pytest.mark.parametrize("options", OPTIONS)
def test_cards_moved_between_a_players_tricks_are_judged_as_the_reference(options):
    """Revokes, split pairs and withheld tractors with the holdings still matching the
    plays, so that the trick rules alone decide: 400 hands, one move each."""
    rng = random.Random(3)
    records = []
    for _ in range(400):
        record = random_hand(rng, options)
        _swap_between_tricks(rng, record)
        records.append(record)
    assert_agrees(records, options)


@pytest.mark.parametrize("tractor_follow", [True, False])
def test_two_pairs_to_a_tractor_while_holding_one_break_the_tractor_rule(tractor_follow):
    """b plays H9 H9 HQ HQ to a's tractor H7 H7 H8 H8 while holding H10 H10."""
    options = ShengjiOptions(tractor_follow=tractor_follow)
    opening = {
        "a": ["H7", "H7", "H8", "H8"],
        "b": ["H9", "H9", "HQ", "HQ"],
        "c": ["H3", "H3", "H4", "H4"],
        "d": ["H5", "H5", "H6", "H6"],
    }
    rng = random.Random(5)
    records = [opening_with(rng, opening, {"b": ["H10", "H10"]}, options) for _ in range(5)]
    breaches = [reference(msgspec.convert(r, ShengjiHand), SEATS, options)[2] for r in records]
    assert all(bool(found) == tractor_follow for found in breaches)
    assert_agrees(records, options)


@pytest.mark.parametrize("options", OPTIONS)
def test_whole_replays_equal_the_reference_replay(monkeypatch, options):
    """GAME.replay with the batch check against the same replay with every hand sent to
    the reference: the same results, findings and texts, on broken and clean hands."""
    rng = random.Random(11)
    rounds = simulate(rng, SEATS, 12, 2, 0.5).rounds
    for record in rounds[::3]:
        break_hand(rng, record)
    variant = {
        "tractor_follow": options.tractor_follow,
        "throw_ruff": options.throw_ruff,
        "kitty_multiplier": options.kitty_multiplier,
    }
    session = session_of("shengji", rounds, **variant)
    fast = replayed(session)
    monkeypatch.setattr(shengji_engine, "check_session", lambda hands, *_: [None] * len(hands))
    assert fast == replayed(session)
    assert len(fast[0]) > 1


def replayed(session) -> tuple[list, str | None]:
    """The results up to a DealError, and its text."""
    results: list = []
    try:
        for result in GAME.replay_decoded(session):
            results.append(result)
    except DealError as exc:
        return results, str(exc)
    return results, None


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.sampled_from(ALL_CARDS), max_size=6), min_size=1, max_size=30))
def test_card_codes_read_from_json_are_the_cards_order(lists):
    code, length = card_codes(lists)
    assert code.tolist() == [ALL_CARDS.index(c) for cards in lists for c in cards]
    assert length.tolist() == [len(cards) for cards in lists]


@pytest.mark.parametrize("bad", ["S1", "X10", "S11", "", "S10 ", 'S"', "S\\", "[", "红桃"])
def test_a_string_that_is_not_a_card_has_no_code(bad):
    with pytest.raises(KeyError):
        card_codes([["S3"], [bad, "H4"]])
