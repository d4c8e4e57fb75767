"""多场核对: the hands of many sessions checked together, some thousands at a time.

`light_checks` judges hands decoded as `LightHand`s, their tricks read from their text
(`scan.read_tricks`); a session it cannot vouch for whole (a hand not read, not judged
here, or not clean) is left to `checked_in_batches`, which takes the sessions decoded
whole (`ShengjiHand`s), as `Shengji.replay_many` did before there was a text reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter
from typing import TypeVar

import msgspec
import numpy as np

from compliance.games.shengji.batch import Checked, _Flat, _Judged, check_sessions, dealt_seats
from compliance.games.shengji.options import ShengjiOptions
from compliance.games.shengji.record import LightHand, ShengjiHand
from compliance.games.shengji.scan import name_code, read_tricks

Hand = TypeVar("Hand", ShengjiHand, LightHand)
TRICKS = attrgetter("tricks")
Decoded = tuple[list[Hand], list[str], ShengjiOptions]


def batches(decoded: Sequence[Decoded], most: int) -> list[tuple[ShengjiOptions, list[int]]]:
    """The sessions grouped by options, in runs of at most `most` hands (a longer session
    alone)."""
    groups: dict[ShengjiOptions, list[int]] = {}
    for i, (_, _, options) in enumerate(decoded):
        groups.setdefault(options, []).append(i)
    out = []
    for options, members in groups.items():
        batch: list[int] = []
        size = 0
        for i in members:
            if batch and size + len(decoded[i][0]) > most:
                out.append((options, batch))
                batch, size = [], 0
            batch.append(i)
            size += len(decoded[i][0])
        if batch:
            out.append((options, batch))
    return out


def checked_in_batches(
    decoded: Sequence[tuple[list[ShengjiHand], list[str], ShengjiOptions]], most: int
) -> list[list[Checked | None]]:
    """`check_session` of each decoded session, sessions of equal options batched."""
    checked: list[list[Checked | None]] = [[] for _ in decoded]
    for options, batch in batches(decoded, most):
        found = check_sessions([decoded[j][:2] for j in batch], options)
        for j, known in zip(batch, found, strict=True):
            checked[j] = known
    return checked


def light_checks(
    decoded: Sequence[tuple[list[LightHand], list[str], ShengjiOptions]], most: int
) -> list[list[Checked] | None]:
    """Per session, every hand's (seats, points) when all of them are read, judged here
    and clean; None for a session to decode whole."""
    checked: list[list[Checked] | None] = [None] * len(decoded)
    for options, batch in batches(decoded, most):
        kept: list[tuple[int, LightHand, list[str]]] = []
        raws: list[msgspec.Raw] = []
        names: list[np.ndarray] = []
        members = []
        for j in batch:
            hands, players, _ = decoded[j]
            known, codes = set(players), {p: name_code(p) for p in players}
            seats = [dealt_seats(hand, players, known) for hand in hands]
            if None in seats or not hands:
                continue
            members.append((j, len(kept), len(hands)))
            count = len(kept)
            kept += zip(range(count, count + len(hands)), hands, seats, strict=True)  # type: ignore[arg-type]
            raws.extend(map(TRICKS, hands))
            if all(dealt is players for dealt in seats):  # one deal to all four, every hand
                row = np.array([codes[p] for p in players], dtype=np.uint64)
                names.append(np.broadcast_to(row, (len(hands), 4, 2)))
            else:
                rows = [[codes[p] for p in dealt] for dealt in seats]  # type: ignore[union-attr]
                names.append(np.array(rows, dtype=np.uint64).reshape(-1, 4, 2))
        if not kept:
            continue
        read = read_tricks(raws, np.concatenate(names))
        ok = read.ok.tolist()
        judged = [k for k, good in zip(kept, ok, strict=True) if good]
        out: list[Checked | None] = [None] * len(kept)
        if judged:
            flat = _Flat(judged, replace(read, tricks=read.tricks[read.ok]))
            _Judged(flat, options).fill(out)
        for j, first, count in members:
            mine = out[first : first + count]
            clean = [known for known in mine if known is not None and known[1] is not None]
            if len(clean) == count:
                checked[j] = clean
    return checked
