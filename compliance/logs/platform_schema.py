"""JSON Schemas of accounts/1, ledger/1 and platform-config/1, from the typed records."""

from __future__ import annotations

from typing import Any

import msgspec

from compliance.logs.platform_records import (
    ACCOUNTS,
    CONFIG,
    LEDGER,
    Account,
    ConfigRecord,
    LedgerEvent,
)

_TYPES: dict[str, Any] = {ACCOUNTS: Account, LEDGER: LedgerEvent, CONFIG: ConfigRecord}
_MONEY = {
    "description": 'Yuan: a number, or a decimal string such as "50.00"; 0 to below '
    "10^15, to the fen.",
    "anyOf": [
        {"type": "number", "minimum": 0, "exclusiveMaximum": 10**15},
        {"type": "string", "pattern": r"^\d+(\.\d{1,2})?$"},
        {"type": "null"},
    ],
}


def record_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of `kind`."""
    ref, components = msgspec.json.schema_components([_TYPES[kind]], ref_template="#/$defs/{name}")
    for name in ("LedgerEvent", "RechargeCap"):
        if name in components:
            components[name]["properties"]["yuan"] = _MONEY
    if "DrawOdds" in components:
        components["DrawOdds"]["properties"]["probability"] = {
            "anyOf": [
                {"type": "number", "minimum": 0, "maximum": 1},
                {"type": "string", "pattern": r"^(0(\.\d+)?|1(\.0+)?)$"},
            ]
        }
    slug = kind.replace("/", "-")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://compliance.invalid/schemas/{slug}.json",
        "title": f"{kind} record",
        **ref[0],
        "$defs": components,
    }
