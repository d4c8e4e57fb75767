"""无重复键: proofs, without a second parse, that a decoded line of the ledger or of the
accounts names no key twice (msgspec keeps the last of a repeated key unseen); where a
proof fails, `reader.parsed_duplicate_key` decides."""

from __future__ import annotations

import re

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


_INLINE_WHITE = b" \t\r"
_DEFAULTS_NAMED = (b'"kind":"player"', b'"devices":[]')
_NAMED_TWICE = re.compile(rb'"(kind|devices)":[^\n]*"\1":')


def block_account_keys(block: bytes) -> int | None:
    """一块的键: the `":` of a block of account lines (one object a line, newlines only
    between them, no backslash) less the keys that name their field's default, or None
    where a line may name `kind` or `devices` twice.

    A line may well say `"kind": "player"` or `"devices": []`: a key that `account_keys`
    does not count. Named once a line, each is one key more than the fields, told by its
    text; named twice on a line, the text would balance a repeat, so such a block is left
    to the line path. Newlines are kept out of the white space taken, so that a line ends
    where it did; none stands between a key and its colon.
    """
    stripped = block.translate(None, _INLINE_WHITE)
    keys = stripped.count(b'":')
    named = sum(map(stripped.count, _DEFAULTS_NAMED))
    if named and _NAMED_TWICE.search(stripped) is not None:
        return None
    return keys - named
