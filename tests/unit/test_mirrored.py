"""对冲输赢: a dumping pair is found; friends who meet often, and heads-up play, are not."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain.mirrored import (
    MirrorParameters,
    Table,
    first_pass,
    groups,
    mirrors,
    second_pass,
)

P = MirrorParameters()


def found(tables: list[Table], p: MirrorParameters = P):
    return list(second_pass(tables, first_pass(tables, p), p))


def zero_sum(rng: random.Random, players: list[str], scale: int) -> tuple[tuple[str, int], ...]:
    nets = [rng.randint(-scale, scale) for _ in players[:-1]]
    return tuple(zip(players, [*nets, -sum(nets)], strict=True))


def friends(rng: random.Random, n: int = 200) -> list[Table]:
    four = ["f1", "f2", "f3", "f4"]
    return [Table(f"f{i}", f"room{i % 5}", zero_sum(rng, four, 50_000)) for i in range(n)]


def dumping(rng: random.Random, n: int = 15) -> list[Table]:
    out = []
    for i in range(n):
        lost = rng.randint(20_000, 60_000)
        others = [("x1", rng.randint(-500, 500)), ("x2", rng.randint(-500, 500))]
        rest = -sum(v for _, v in others)
        nets = (("mule", -lost), ("boss", lost + rest), *others)
        out.append(Table(f"d{i}", f"room{i % 4}", nets))
    return out


def test_mirroring_is_opposite_and_nearly_equal():
    assert mirrors(-1000, 950, 0.1) and mirrors(1000, -1000, 0.1)
    assert not mirrors(-1000, 800, 0.1) and not mirrors(1000, 1000, 0.1)
    assert not mirrors(0, 0, 0.1)


def test_a_dumping_pair_is_found_with_its_gainer_and_sessions():
    rng = random.Random(3)
    tables = dumping(rng) + friends(rng)
    pairs = found(tables)
    assert [(p.a, p.b) for p in pairs] == [("boss", "mule")]
    pair = pairs[0]
    assert pair.gainer == "boss" and pair.mirrored == pair.shared == 15 and pair.rooms == 4
    assert pair.direction == 1.0 and len(pair.sessions) == 15
    assert pair.room_names == ("room0", "room1", "room2", "room3")
    assert all(s.gain_cents < 0 for s in pair.sessions)  # b is the mule: a (boss) won
    assert groups(pairs) == [{"boss", "mule"}]


def test_friends_who_meet_two_hundred_times_and_heads_up_play_are_not_flagged():
    rng = random.Random(5)
    assert found(friends(rng)) == []
    heads_up = [Table(f"h{i}", "r", (("a", -5000), ("b", 5000))) for i in range(50)]
    assert found(heads_up) == []


def test_a_pair_that_mirrors_to_and_fro_is_not_one_way():
    tables = [
        Table(f"t{i}", f"r{i % 4}", (("a", s * 10_000), ("b", -s * 10_000), ("c", 0)))
        for i, s in enumerate([1, -1] * 10)
    ]
    assert found(tables) == []


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_random_tables_of_four_raise_no_signal(seed):
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(12)]
    tables = []
    for i in range(300):
        seated = rng.sample(players, 4)
        tables.append(Table(f"s{i}", f"r{i % 7}", zero_sum(rng, seated, 30_000)))
    assert found(tables) == []
