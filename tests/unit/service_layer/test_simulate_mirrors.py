"""The simulator's signals on three seeds: every injected mirrored-gains group is found by
the search at its default parameters, and no honest look-alike is."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from compliance.domain.mirrored import MirrorParameters, Table, first_pass, groups, second_pass
from compliance.service_layer.simulate import SimulationSpec, write_log
from compliance.service_layer.simulate_mirrors import append_signal_sessions, is_look_alike


def tables(path) -> list[Table]:
    out = []
    for line in path.open():
        s = json.loads(line)
        nets: dict[str, int] = defaultdict(int)
        for r in s["rounds"]:
            for seat in r.get("seats", ()):
                nets[seat["player"]] += seat.get("claimed", 0) + seat.get("rake", 0)
        cents = tuple((p, int(v * float(s["point_value"]) * 100)) for p, v in sorted(nets.items()))
        out.append(Table(s["session_id"], s["room_id"], cents))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_group_is_found_and_no_look_alike(tmp_path, seed):
    log = tmp_path / "s.jsonl"
    write_log(SimulationSpec(sessions=60, seed=seed), str(log))
    made = append_signal_sessions(str(log), seed, 0.05)
    assert made.sessions == sum(12 * (len(g) - 1) for g in made.groups) + 40 + 60
    found = list(
        second_pass(tables(log), first_pass(tables(log), MirrorParameters()), MirrorParameters())
    )
    assert sorted(sorted(g) for g in groups(found)) == sorted(made.groups)
    assert not any(is_look_alike(p) for x in found for p in (x.a, x.b))
