"""JSON Schema of stakelog/1, generated from the typed records.

The session header comes from `Session`; each game's round Struct supplies
the shape of `rounds` when `game` names that game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from compliance.games import game_codes, get_game
from compliance.logs.bounds import MAX_ROUNDS
from compliance.logs.reader import MAX_POINT_VALUE
from compliance.logs.records import Session

SCHEMA_ID = "https://compliance.invalid/schemas/stakelog-1.json"


def session_schema() -> dict[str, Any]:
    round_types = {code: get_game(code).spec.round_type for code in game_codes()}
    (session_ref, *round_refs), components = msgspec.json.schema_components(
        [Session, *round_types.values()], ref_template="#/$defs/{name}"
    )
    session_def = components[session_ref["$ref"].rsplit("/", 1)[-1]]
    session_def["properties"]["rounds"] = {
        "type": "array",
        "maxItems": MAX_ROUNDS,
        "description": "The game's rounds in order; their shape depends on `game`.",
    }
    session_def["properties"]["game"] = {"enum": sorted(round_types)}
    session_def["properties"]["point_value"] = {
        "description": 'Yuan per point: a positive number, or a decimal string such as "0.1".',
        "anyOf": [
            {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": MAX_POINT_VALUE},
            {"type": "string", "pattern": r"^\d+(\.\d+)?$"},
            {"type": "null"},
        ],
    }
    cash = {
        "description": "现场赌资: yuan found or seized at the scene (a number, or a decimal "
        'string such as "350.50"), 0 to below 10^15, to the fen.',
        "anyOf": [
            {"type": "number", "minimum": 0, "exclusiveMaximum": 10**15},
            {"type": "string", "pattern": r"^\d+(\.\d{1,2})?$"},
            {"type": "null"},
        ],
    }
    session_def["properties"]["scene_cash"] = cash
    components["Player"]["properties"]["scene_cash"] = cash
    rules = [
        {
            "if": {"properties": {"game": {"const": code}}},
            "then": {"properties": {"rounds": {"items": ref}}},
        }
        for code, ref in zip(round_types, round_refs, strict=True)
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "stakelog/1 session",
        **session_ref,
        "allOf": rules,
        "$defs": components,
    }
