"""读牌: `decode.decode_hands` (plays cut at `},{` and read once per text) gives exactly what
`decode_rounds(raw, GuandanHand)` gives, and rejects exactly what it rejects, in its words;
and the engine's replay through it is the replay of the decoded `GuandanHand`s."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.errors import DecodeError
from compliance.games.base import decode_rounds
from compliance.games.guandan import GAME, GuandanHand, GuandanOptions, decode
from compliance.games.guandan.engine import replay_hands
from compliance.games.guandan.simulator import simulate
from tests.builders_guandan import SEATS, session_of

seeds = st.integers(0, 2**32 - 1)
# texts that break the plays' cuts, the JSON or the types, or leave them valid but unusual
TOKENS = [
    b" ", b"\n", b"},{", b"}, {", b'"', b",", b"{", b"}", b"[", b"]", b"\\", b"null", b"[]",
    b'"player":"a",', b'"cards":["S3"],', b'"combo":"single:3",', b'"x":1,', b'"S3",',
    b'{"player":"b"},', b'{"player":"a},{b","cards":[]},', b'"\\u0061"', b"1",
]  # fmt: skip


def outcome(decoder, raw: bytes):
    try:
        return "ok", decoder(raw)
    except DecodeError as exc:
        return "error", str(exc)


def fast(raw: bytes) -> list[GuandanHand]:
    return [decode.whole(hand, plays) for hand, plays in decode.decode_hands(raw)]


def reference(raw: bytes) -> list[GuandanHand]:
    return decode_rounds(raw, GuandanHand)


def edited(raw: bytes, rng: random.Random, edits: int) -> bytes:
    """Random edits, mostly inside the plays, where the cuts are made."""
    for _ in range(edits):
        start = raw.find(b'"plays"')
        at = rng.randrange(start, len(raw)) if start >= 0 and rng.random() < 0.8 else None
        at = rng.randrange(len(raw)) if at is None else at
        if rng.random() < 0.7:
            raw = raw[:at] + rng.choice(TOKENS) + raw[at:]
        else:
            raw = raw[:at] + raw[at + rng.randint(1, 12) :]
    return raw


@settings(max_examples=300, deadline=None)
@given(seeds, st.integers(0, 3), st.sampled_from([0.0, 0.5]))
def test_the_cut_decode_accepts_and_rejects_as_the_reference(seed, edits, anomalies):
    rng = random.Random(seed)
    rounds = simulate(rng, SEATS, 2, 1, anomalies).rounds
    raw = edited(msgspec.json.encode(rounds), rng, edits)
    if rng.random() < 0.2:
        decode.known.clear()
    assert outcome(fast, raw) == outcome(reference, raw)
    assert outcome(fast, raw) == outcome(reference, raw)  # the texts now known


@pytest.mark.parametrize(
    "plays",
    [
        b"[]",
        b'[{"player":"a","cards":["S3"]} ,{"player":"b","cards":[]}]',
        b'[{"player":"a},{b","cards":[]}]',
        b'[{"player":"a},{b","cards":[]},{"player":"c","cards":[]}]',
        b'[{"player":"a","cards":["S3"]},{"player":"b","cards":["S3"]},{"player":"a","cards":["S3"]}]',
        b'[{"player":"a","cards":["S3"]},{"player":"b","cards":["X9"]},{"player":"c"}]',
        b'[{"player":"a","cards":["S3"]},{"player":"b","x":{"y":1}},{"player":"c"}]',
        b'[{"player":"a","cards":[],"player":"b"}]',
        b'[{"player":"a","cards":["S3"],"combo":"single:3"},{"player":"a"}]',
        b'[{"player":"a","cards":["S3"]},{"player":"a","cards":["S1"]}]',
        b'[{"player":"a"},{"player":"b"}}]',
        b"null",
    ],
)
def test_unusual_plays_decode_as_the_reference(plays):
    deal = '{"a":[],"b":[],"c":[],"d":[]}'
    raw = b'[{"deal":' + deal.encode() + b',"finish":[],"claimed":{},"plays":' + plays + b"}]"
    decode.known.clear()  # the texts new, then known
    assert outcome(fast, raw) == outcome(reference, raw)
    assert outcome(fast, raw) == outcome(reference, raw)


@settings(max_examples=25, deadline=None)
@given(seeds, st.sampled_from([0.0, 0.3, 1.0]))
def test_the_replay_is_that_of_the_decoded_hands(seed, anomalies):
    rng = random.Random(seed)
    rounds = simulate(rng, SEATS, 3, 1, anomalies).rounds
    session = session_of("guandan", rounds)
    hands = reference(msgspec.json.encode(rounds))
    options = GAME.options_for(session.variant)
    assert isinstance(options, GuandanOptions)
    given_whole = [(hand, list(map(decode.play_of, hand.plays))) for hand in hands]
    assert list(GAME.replay(session)) == list(replay_hands(given_whole, SEATS, options))
