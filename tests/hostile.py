"""Hostile log lines for the reader's promises (issue 16): built from a good session."""

from __future__ import annotations

import json
from typing import Any

from compliance.service_layer.simulate import SimulationSpec, generate
from tests.conftest import SAMPLES

DEEP = 100_000
HOLE = "__deep__"


def good() -> dict[str, Any]:
    return json.loads((SAMPLES / "douniu.jsonl").read_text(encoding="utf-8").splitlines()[0])


def of_game(code: str) -> dict[str, Any]:
    """A simulated session of one game, honest."""
    line, _, _ = next(generate(SimulationSpec(games=(code,), sessions=1, seed=3)))
    return json.loads(line)


def line(session: dict[str, Any]) -> str:
    """One JSON line; a value HOLE becomes arrays nested DEEP levels."""
    text = json.dumps(session, ensure_ascii=False)
    return text.replace(json.dumps(HOLE), "[" * DEEP + "]" * DEEP) + "\n"


def deep_at(place: str) -> dict[str, Any]:
    """A good session with arrays nested DEEP levels at one place."""
    s = good()
    s["session_id"] = f"deep-{place}"
    if place == "unknown-field":
        s["extra"] = HOLE
    elif place == "name":
        s["players"][0]["name"] = HOLE
    elif place == "owner":
        s["owner"]["id"] = HOLE
    elif place == "variant-options":
        s["variant"] = {"options": {"bull_bull": HOLE}}
    elif place == "rounds":
        s["rounds"].append(HOLE)
    elif place == "cards":
        s["rounds"][0]["seats"][0]["cards"] = HOLE
    elif place == "round-field":
        s["rounds"][0]["seats"][0]["unknown"] = HOLE
    return s


DEEP_PLACES = (
    "unknown-field",
    "name",
    "owner",
    "variant-options",
    "rounds",
    "cards",
    "round-field",
)
