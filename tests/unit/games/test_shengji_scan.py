"""升级 tricks read from their text (`scan.read_tricks`) against msgspec's decode of them.

`replay_decoded` (every hand decoded whole) is the reference for `replay` and
`replay_many`, which read the text first.

A hand `read_tricks` reads is one the whole decode (`ShengjiHand`) takes, with the same
seats, cards, lengths and tricks; a hand in the compact form a writer gives is read; and
`Shengji.replay_many` (which reads the text first) equals `replay` (which decodes every
hand whole) on sessions whose tricks' text is changed at random: spaces, keys in another
order or unknown, escapes, strings that are not cards, plays by someone not dealt in,
tricks of three plays, names of every length.
"""

from __future__ import annotations

import contextlib
import random

import msgspec
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.games.cards import ALL_CARDS
from compliance.games.shengji import GAME, ShengjiHand
from compliance.games.shengji.many import light_checks
from compliance.games.shengji.record import LightHand, ShengjiPlay
from compliance.games.shengji.scan import name_code, read_tricks
from compliance.games.shengji.simulator import simulate
from tests.builders import session_of
from tests.builders_guandan import SEATS
from tests.unit.games.test_shengji_batch import OPTIONS, break_hand
from tests.unit.games.test_shengji_many import one_by_one

TRICKS = msgspec.json.Decoder(list[list[ShengjiPlay]])
NAMES = [
    ["a", "b", "c", "d"],
    ["u00029", "u00031", "u00044", "u00046"],
    ["player-one", "player-two", "player-333", "p4"],  # past 8 bytes
    ["张三", "李四", "王五五", "赵六"],
    ["a-name-of-seventeen", "b", "c", "d"],  # past 16 bytes: not read
    ["ab", "ba", "abc", "abcdefgh"],
]
seeds = st.integers(0, 2**32 - 1)


def _mutate(rng: random.Random, text: bytes, names: list[str]) -> bytes:
    """One random change to a hand's tricks' JSON (it may leave it valid, or not)."""
    kind = rng.randrange(13)
    cards = [i for i in range(len(text) - 3) if text[i : i + 2] == b'["' or text[i] == 44]
    at = rng.choice(cards) + 1 if cards else 1
    if kind == 0:  # a space between tokens
        return text[:at] + b" " + text[at:]
    if kind == 1:  # keys in the other order
        return text.replace(b'{"player":', b'{"cards":["S3"],"player":', 1).replace(
            b'","cards":[', b'","x":[', 1
        )
    if kind == 2:
        return text.replace(b'{"player"', b'{"extra":0,"player"', 1)
    if kind == 3:  # a card escaped
        return text.replace(b'"S', b'"\\u0053', 1)
    if kind == 4:
        bad = rng.choice([b"S1", b"X10", b"S11", b"S10 ", b"\xe7\xba\xa2", b"", b"s3"])
        return text.replace(b'["H', b'["' + bad + b'","H', 1)
    if kind == 5:  # a play by someone not dealt in, of the same length or not
        old = rng.choice(names).encode()
        new = rng.choice([old[:-1] + b"x", old + b"x", b"q", old.upper() + b"\xc3\xa9"])
        return text.replace(b'"' + old + b'"', b'"' + new + b'"', 1)
    if kind == 6:  # a trick of three plays
        end = text.find(b"]},{", rng.randrange(len(text)))
        start = text.find(b"{", end + 3)
        return (
            text if end < 0 or start < 0 else text[: end + 2] + text[text.find(b"}", start) + 1 :]
        )
    if kind == 7:
        return text.replace(b'"cards":["', b'"cards":[5,"', 1)
    if kind == 8:
        return rng.choice([b"[]", b"[[]]", b"null", text[:-1] + b",[]]"])
    if kind == 9:  # a card as a string, not a list
        return text.replace(b'"cards":["S', b'"cards":"S', 1).replace(b'"]}', b'"}', 1)
    if kind == 10:  # a tab where a separator is
        return text.replace(b"},{", b"},\t{", 1)
    if kind == 11:  # a play inside a list of its own
        first = text.find(b"]},{", rng.randrange(len(text)))
        second = text.find(b"]},{", first + 4)
        if first < 0 or second < 0:
            return text
        return text[: first + 3] + b"[" + text[first + 3 : second + 2] + b"]" + text[second + 2 :]
    return text


def _records(rng: random.Random, names: list[str], anomalies: float = 0.4) -> list[dict]:
    return simulate(rng, names, rng.randrange(1, 6), 1, anomalies).rounds


def _text_of(record: dict) -> bytes:
    return msgspec.json.encode(record["tricks"])


def _with_tricks(rounds: list[dict], texts: list[bytes]) -> msgspec.Raw:
    """The rounds' JSON with each hand's tricks written as given."""
    parts = []
    for record, text in zip(rounds, texts, strict=True):
        rest = msgspec.json.encode({k: v for k, v in record.items() if k != "tricks"})
        parts.append(rest[:-1] + b',"tricks":' + text + b"}")
    return msgspec.Raw(b"[" + b",".join(parts) + b"]")


def _names(hands_seats: list[list[str]]) -> np.ndarray:
    return np.array([[name_code(p) for p in s] for s in hands_seats], dtype=np.uint64)


def _expected(text: bytes, seats: list[str]):
    """What `read_tricks` must give for one hand, or None where it must not read it."""
    try:
        decoded = TRICKS.decode(text)
    except msgspec.DecodeError:
        return None
    if not decoded or any(len(t) != 4 for t in decoded):
        return None
    plays = [p for t in decoded for p in t]
    if any(p.player not in seats for p in plays) or any(not p.cards for p in plays):
        return None
    return (
        [seats.index(p.player) for p in plays],
        [ALL_CARDS.index(c) for p in plays for c in p.cards],
        [len(p.cards) for p in plays],
        len(decoded),
    )


@settings(max_examples=120, deadline=None)
@given(seeds, st.sampled_from(NAMES))
def test_a_hand_read_from_its_text_is_the_hand_decoded(seed, names):
    rng = random.Random(seed)
    records = _records(rng, names)
    texts = [_text_of(r) for r in records]
    changed = [i for i in range(len(texts)) if rng.random() < 0.5]
    for i in changed:
        texts[i] = _mutate(rng, texts[i], names)
    seats = [names] * len(texts)
    read = read_tricks(texts, _names(seats))
    seat, code, length = read.seat.tolist(), read.code.tolist(), read.length.tolist()
    for i, (text, ok) in enumerate(zip(texts, read.ok.tolist(), strict=True)):
        expected = _expected(text, names)
        if ok:
            assert expected is not None, text
            plays, cards = len(expected[0]), len(expected[1])
            assert (seat[:plays], code[:cards], length[:plays]) == expected[:3]
            assert read.tricks[i] == expected[3]
            seat, code, length = seat[plays:], code[cards:], length[plays:]
        else:  # not read: only a hand the compact form does not give, or a long name
            assert i in changed or expected is None or max(len(n.encode()) for n in names) > 16
    assert seat == code == length == []


@pytest.mark.parametrize("names", NAMES[:4] + NAMES[5:])
def test_the_compact_text_of_every_hand_is_read(names):
    rng = random.Random(3)
    records = [r for _ in range(4) for r in _records(rng, names)]
    texts = [_text_of(r) for r in records]
    read = read_tricks(texts, _names([names] * len(texts)))
    good = [_expected(t, names) is not None for t in texts]
    assert read.ok.tolist() == good and sum(good) > len(good) // 2


def _renamed(record: dict, names: dict[str, str]) -> dict:
    out = dict(record, declarer=names[record["declarer"]])
    out["deal"] = {names[p]: cards for p, cards in record["deal"].items()}
    out["claimed"] = {names[p]: n for p, n in record["claimed"].items()}
    out["tricks"] = [
        [dict(play, player=names.get(play["player"], play["player"])) for play in trick]
        for trick in record["tricks"]
    ]
    return out


def _sessions(rng: random.Random, count: int, mutate: bool) -> list:
    out = []
    for _ in range(count):
        names = rng.choice(NAMES)
        rounds = _records(rng, SEATS)
        for record in rounds[:: rng.randrange(2, 6)]:
            with contextlib.suppress(ValueError):  # a change the hand has no room for
                break_hand(rng, record)
        rounds = [_renamed(r, dict(zip(SEATS, names, strict=True))) for r in rounds]
        texts = [_text_of(r) for r in rounds]
        if mutate and rng.random() < 0.5:
            i = rng.randrange(len(texts))
            texts[i] = _mutate(rng, texts[i], names)
        options = rng.choice(OPTIONS)
        variant = {
            "tractor_follow": options.tractor_follow,
            "throw_ruff": options.throw_ruff,
            "kitty_multiplier": options.kitty_multiplier,
        }
        session = session_of("shengji", [], names, {"options": variant})
        out.append(msgspec.structs.replace(session, rounds=_with_tricks(rounds, texts)))
    return out


def _replayed(session) -> tuple[list, str | None]:
    """`replay`'s results up to an error, and the error (`replay` yields as it goes)."""
    return _up_to_error(GAME.replay(session))


def _replayed_decoded(session) -> tuple[list, str | None]:
    return _up_to_error(GAME.replay_decoded(session))


def _up_to_error(results) -> tuple[list, str | None]:
    out: list = []
    try:
        for result in results:
            out.append(result)
    except Exception as exc:  # noqa: BLE001 - the same failure is what is compared
        return out, repr(exc)
    return out, None


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_replay_many_reading_the_text_equals_replay_decoding_every_hand(seed):
    rng = random.Random(seed)
    sessions = _sessions(rng, 6, mutate=True)
    expected = one_by_one(sessions)
    good = [s for s, r in zip(sessions, expected, strict=True) if not isinstance(r, str)]
    assert GAME.replay_many(good) == [r for r in expected if not isinstance(r, str)]
    assert [_replayed(s) for s in sessions] == [_replayed_decoded(s) for s in sessions]
    if len(good) < len(sessions):  # one that fails fails as its replay does
        with pytest.raises(Exception) as together:
            GAME.replay_many(sessions)
        assert repr(together.value) == next(r for r in expected if isinstance(r, str))


def test_clean_sessions_are_judged_from_their_text():
    rng = random.Random(5)
    sessions = []
    for names in NAMES[:4]:
        rounds = _records(rng, names, 0.0)
        sessions.append(session_of("shengji", rounds, names))
    light = [
        (msgspec.json.decode(s.rounds, type=list[LightHand]), names, GAME.options_for(s.variant))
        for s, names in zip(sessions, NAMES[:4], strict=True)
    ]
    assert all(known is not None for known in light_checks(light, 4096))
    assert GAME.replay_many(sessions) == [list(GAME.replay_decoded(s)) for s in sessions]
    assert [list(GAME.replay(s)) for s in sessions] == GAME.replay_many(sessions)


def test_the_light_hand_is_the_hand_but_for_its_tricks():
    def fields(kind):
        info = msgspec.inspect.type_info(kind)
        return {f.name: (f.type, f.required, f.default) for f in info.fields if f.name != "tricks"}

    assert fields(LightHand) == fields(ShengjiHand)
    assert msgspec.structs.fields(LightHand)[6].name == "tricks"
