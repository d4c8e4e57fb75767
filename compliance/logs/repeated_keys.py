"""无重复键: proofs, without a second parse, that a decoded line of the ledger or of the
accounts names no key twice (msgspec keeps the last of a repeated key unseen); where a
proof fails, `reader.parsed_duplicate_key` decides."""

from __future__ import annotations

import msgspec

from compliance.logs.platform_records import Account, LedgerEvent

WHITE = b" \t\r\n"


def is_flat_and_unrepeated(raw: bytes, event: LedgerEvent) -> bool:
    """无重复键: True where a decoded ledger line is proven to name no key twice, without
    a second parse; False where it cannot be told so (then `duplicate_key` decides).

    A ledger event's fields are all scalars, so its line is one flat object. Without a
    backslash no string holds a quote, so once white space is taken out every key,
    and nothing else, is followed at once by `":` (a string value is followed by a
    comma or the brace); so the line names as many keys as it then holds `":`. Each field that decoded to a value was named; if they are
    as many as the keys, no key was named twice (a repeat, or a key given as null,
    leaves fewer values than keys, and the full check runs).
    """
    if b"\\" in raw:
        return False
    values = msgspec.structs.astuple(event)
    return raw.translate(None, WHITE).count(b'":') == len(values) - values.count(None)


def is_account_unrepeated(raw: bytes, account: Account) -> bool:
    """无重复键: True where a decoded account's line is proven to name no key twice, as
    `is_flat_and_unrepeated` proves an event's; False where it cannot be told so.

    Its one nested object (`verification`) counts its keys in the line's `":` too. A
    field is named where it holds other than its default; a field named with its default
    value (`"kind": "player"`, `"devices": []`, a null) counts among the keys and not the
    values, so it, like a repeat, leaves the values fewer and the full check runs.
    """
    if b"\\" in raw:
        return False
    return raw.translate(None, WHITE).count(b'":') == account_keys(account)


def account_keys(account: Account) -> int:
    """The keys an account's line names at least: its fields other than their defaults."""
    named = 3 + (account.kind != "player") + (account.person is not None)
    named += (account.real_name is not None) + (account.birth_date is not None)
    named += bool(account.devices)
    verified = account.verification
    if verified is not None:
        named += 2 + (verified.at is not None) + (verified.ref is not None)
    return named
