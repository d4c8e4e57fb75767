"""掼蛋 fast check: a hand it passes is one the reference checks pass, with the same seats
and order; every legal simulated hand passes it; broken hands go to the reference."""

from __future__ import annotations

import copy
import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DealError
from compliance.games.base import decode_rounds
from compliance.games.cards import build_deck
from compliance.games.guandan import GuandanHand, GuandanOptions, Match, combos, fast
from compliance.games.guandan.engine import checked_hand
from compliance.games.guandan.simulator import simulate
from tests.builders_guandan import SEATS

seeds = st.integers(0, 2**32 - 1)
OPTIONS = [
    GuandanOptions(),
    GuandanOptions(return_max="any", resist_jokers=1),
    GuandanOptions(partner_last_tribute="third", return_max="3"),
]


def both(records: list[dict], options: GuandanOptions, players=SEATS):
    """Per hand: (the fast answer, the reference's seats, order and breaches), the match
    moved on as the engine moves it (on the reference's order)."""
    hands = decode_rounds(msgspec.json.encode(records), GuandanHand)
    match, out = Match(options), []
    for index, hand in enumerate(hands, 1):
        level = match.level
        quick = fast.clean_hand(hand, players, match.previous, level, options)
        try:
            seats, order, problems = checked_hand(index, hand, players, match, level, options)
        except DealError as exc:
            out.append((quick, exc))
            break
        out.append((quick, (seats, order, problems)))
        match.settle(seats, order)
    return out


@settings(max_examples=20, deadline=None)
@given(seeds, st.sampled_from(OPTIONS))
def test_every_legal_simulated_hand_passes_the_fast_check(seed, options):
    sim = simulate(random.Random(seed), SEATS, 4, 1, 0.0)
    results = both(sim.rounds, options)
    assert results
    for quick, (seats, order, problems) in results:
        if not problems:
            assert quick == (seats, order)


def mutate(rng: random.Random, record: dict) -> None:
    """One random change: a play, a tribute, the deal, the order or the level."""
    plays, deal = record["plays"], record["deal"]
    if not plays:
        return
    moves = [i for i, p in enumerate(plays) if p["cards"]]
    kind = rng.choice(
        ["player", "cards", "pass", "drop", "extra", "swap", "declare", "tribute", "return",
         "receiver", "finish", "level", "deal", "copy"]
    )  # fmt: skip
    if kind == "player":
        play = rng.choice(plays)
        play["player"] = rng.choice([p for p in SEATS if p != play["player"]])
    elif kind == "cards":
        plays[rng.choice(moves)]["cards"] = rng.sample(
            build_deck(1, jokers=True), rng.randint(1, 5)
        )
    elif kind == "pass":
        plays[rng.choice(moves)]["cards"] = []
    elif kind == "drop":
        del plays[rng.randrange(len(plays))]
    elif kind == "extra":
        plays.append({"player": rng.choice(SEATS), "cards": [rng.choice(build_deck(1))]})
    elif kind == "swap" and len(plays) > 2:
        i = rng.randrange(len(plays) - 1)
        plays[i], plays[i + 1] = plays[i + 1], plays[i]
    elif kind == "declare":
        labels = ["straight:7", "full_house:4", "bomb:9", "single:3", "pair:5", "tube:6"]
        plays[rng.choice(moves)]["combo"] = rng.choice(labels)
    elif kind in ("tribute", "return", "receiver") and record.get("tribute"):
        t = rng.choice(record["tribute"])
        if kind == "tribute":
            t["card"] = rng.choice(deal[t["payer"]])
        elif kind == "return":
            t["returned"] = rng.choice([*deal[t["receiver"]], "SA", "RJ"])
        else:
            t["receiver"] = rng.choice(SEATS)
    elif kind == "finish":
        rng.shuffle(record["finish"])
    elif kind == "level":
        record["level"] = rng.choice(combos.LEVELS)
    elif kind == "deal":
        a, b = rng.sample(SEATS, 2)
        deal[a][0], deal[b][0] = deal[b][0], deal[a][0]
    elif kind == "copy":
        deal["a"][0] = deal["b"][0]


@settings(max_examples=150, deadline=None)
@given(seeds, st.sampled_from(OPTIONS))
def test_a_hand_the_fast_check_passes_is_one_the_reference_passes(seed, options):
    rng = random.Random(seed)
    records = copy.deepcopy(simulate(rng, SEATS, 3, 1, 0.0).rounds)
    for record in records:
        for _ in range(rng.choice((0, 1, 1, 2))):
            mutate(rng, record)
        if rng.random() < 0.3:
            record["plays"] = []  # the tribute's checks alone
    for quick, reference in both(records, options):
        if isinstance(reference, DealError):
            assert quick is None
        elif quick is not None:
            seats, order, problems = reference
            assert problems == [] and quick == (seats, order)
