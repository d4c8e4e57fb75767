"""平台记录读取: accounts, ledger and configuration lines, streamed as sessions are.

The lines come from `logs/lines.py`'s `iter_lines_at` (standard input, pipes,
gzip by name or bytes, a byte-order mark dropped, lines past `--max-line-bytes`
skipped unread, a damaged gzip stream ending in one reject), so the bounds and
rejects of the session logs hold here too: every line ends as a record or a
`Reject` with its file, line and record id.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from itertools import compress, count, repeat
from typing import Any, Generic, TypeVar, cast

import msgspec

from compliance.errors import DecodeError
from compliance.logs.line_blocks import objects_a_line, plain_blocks
from compliance.logs.lines import (
    MAX_LINE_BYTES,
    LongLine,
    UnreadableRest,
    is_whole,
    iter_lines_at,
)
from compliance.logs.platform_records import (
    ACCOUNTS,
    CONFIG,
    LEDGER,
    Account,
    ConfigRecord,
    DrawOdds,
    LedgerEvent,
    RechargeCap,
    Retention,
)
from compliance.logs.reader import (
    MAX_CASH,
    Reject,
    check_cash,
    parsed_duplicate_key,
    typed_decode,
)
from compliance.logs.records import ID_LENGTH
from compliance.logs.repeated_keys import WHITE as _WHITE
from compliance.logs.repeated_keys import (
    account_keys,
    block_account_keys,
    is_account_unrepeated,
    is_flat_and_unrepeated,
)
from compliance.streams import BOM

T = TypeVar("T")
EARLIEST = date(1900, 1, 1)
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    ACCOUNTS: msgspec.json.Decoder(Account),
    LEDGER: msgspec.json.Decoder(LedgerEvent),
    CONFIG: msgspec.json.Decoder(ConfigRecord),
}
_LEDGER = _DECODERS[LEDGER]
_ID_PATTERN = re.compile(rb'"(?:id|mode|record)"\s*:\s*"([^"\\]{1,200})"')


@dataclass(frozen=True, slots=True)
class RecordReject(Reject):
    """A record's line that could not be read; `session_id` holds the record's id."""

    def describe(self) -> str:
        record = f" record {self.session_id}" if self.session_id else ""
        return f"{self.file}:{self.line}{record}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Record(Generic[T]):
    """A decoded record and where it came from."""

    file: str
    line: int
    record: T


def decode(kind: str, raw: bytes) -> Any:
    """One line of format `kind`, checked; DecodeError with a one-line reason."""
    record = typed_decode(_DECODERS[kind], raw, f"{kind} record")
    if kind == LEDGER:
        return _checked_event(raw, record)
    if kind != ACCOUNTS or not is_account_unrepeated(raw, record):
        _unrepeated(raw)
    _check(record)
    return record


def decode_event(raw: bytes) -> LedgerEvent:
    """One ledger line, checked (`decode(LEDGER, raw)`, without the look-ups)."""
    return _checked_event(raw, typed_decode(_LEDGER, raw, f"{LEDGER} record"))


def _checked_event(raw: bytes, event: LedgerEvent) -> LedgerEvent:
    if not is_flat_and_unrepeated(raw, event):
        _unrepeated(raw)
    if event.at.tzinfo is None:
        raise DecodeError("at has no time zone")
    if event.yuan is not None:
        check_cash("yuan", event.yuan)
    return event


def _unrepeated(raw: bytes) -> None:
    twice = parsed_duplicate_key(raw)
    if twice is not None:
        raise DecodeError(f"a JSON object names {twice!r} twice (the last would win unseen)")


def _check(record: Any) -> None:
    if isinstance(record, Account):
        verified = record.verification
        if verified is not None and verified.at is not None:
            _zoned("verification.at", verified.at)
        if record.birth_date is not None and record.birth_date < EARLIEST:
            raise DecodeError(f"birth_date {record.birth_date} is before {EARLIEST}")
    elif isinstance(record, RechargeCap):
        check_cash("yuan", record.yuan)
    elif isinstance(record, DrawOdds):
        if not record.probability.is_finite() or not 0 <= record.probability <= 1:
            raise DecodeError("probability must be a number from 0 to 1")
    elif (
        isinstance(record, Retention) and record.oldest and record.on and record.oldest > record.on
    ):
        raise DecodeError(f"oldest {record.oldest} is after on {record.on}")


def _zoned(field: str, at: datetime) -> None:
    if at.tzinfo is None:
        raise DecodeError(f"{field} has no time zone")


def _events(
    path: str, shown: str, start: int, end: int | None, max_line_bytes: int
) -> Iterator[tuple[int, LedgerEvent] | Reject]:
    """`decode_event` over a ledger's lines, one at a time (a range, gzip, a stream)."""
    try:
        for number, raw, _ in iter_lines_at(path, start, end, max_line_bytes):
            yield line_event(shown, number, raw)
    except UnreadableRest as exc:
        yield RecordReject(shown, exc.line, None, exc.reason)


def line_event(
    shown: str, number: int, raw: bytes | LongLine
) -> tuple[int, LedgerEvent] | RecordReject:
    """One ledger line, decoded and checked (`decode_event`, inlined), or its reject."""
    if isinstance(raw, LongLine):
        return RecordReject(shown, number, None, raw.reason())
    try:
        event = _LEDGER.decode(raw)
        values = msgspec.structs.astuple(event)
        if b"\\" in raw or raw.translate(None, _WHITE).count(b'":') != len(values) - values.count(
            None
        ):
            _unrepeated(raw)
        if event.at.tzinfo is None:
            raise DecodeError("at has no time zone")
        if event.yuan is not None:
            check_cash("yuan", event.yuan)
    except DecodeError as exc:
        return RecordReject(shown, number, guess_id(raw), str(exc))
    except (msgspec.DecodeError, RecursionError):
        return RecordReject(shown, number, guess_id(raw), _why(raw))
    return number, event


BLOCK_BYTES = 1 << 20
SMALL_BLOCK = 8192  # bytes: a block this small that fails a test is read line by line
_FIELDS = len(LedgerEvent.__struct_fields__)
_TZ = operator.attrgetter("at.tzinfo")
_YUAN = operator.attrgetter("yuan")
_VERIFICATION = operator.attrgetter("verification")
_VERIFIED_AT = operator.attrgetter("at")
_TZINFO = operator.attrgetter("tzinfo")
_BIRTH = operator.attrgetter("birth_date")


def event_blocks(
    path: str, max_line_bytes: int = MAX_LINE_BYTES, name: str | None = None
) -> Iterator[tuple[int, list[LedgerEvent]] | Reject]:
    """整块读取: a ledger's events as (first line, events of that line and the ones after
    it, one a line), or the reject a line became; the same events and rejects as
    `iter_records`, in order.

    A plain file is read in blocks of whole lines (`BLOCK_BYTES`, never past the line
    limit), each decoded by msgspec at once and proven line for line what the line
    path would read (`whole_block`); a block that fails a test is halved, and a small
    one read line by line, so a reject is made as the line path makes it. Gzip,
    streams and lines longer than a block take the line path.
    """
    shown = name or path
    if is_whole(path):
        for item in _events(path, shown, 0, None, max_line_bytes):
            yield item if isinstance(item, Reject) else (item[0], [item[1]])
        return
    for start, got in file_blocks(path, shown, max_line_bytes):
        if isinstance(start, Reject):
            yield start
        else:
            yield start, cast(list[LedgerEvent], got)


def raw_blocks(
    path: str, max_line_bytes: int = MAX_LINE_BYTES, name: str | None = None
) -> Iterator[tuple[int, list[LedgerEvent]] | tuple[Reject, bytes | None]]:
    """`event_blocks` of a plain file (not gzip, not a stream), each reject with the bytes
    of its line (None for a line past the limit), so that a worker can tell whose it is."""
    return file_blocks(path, name or path, max_line_bytes)


def file_blocks(
    path: str,
    shown: str,
    max_line_bytes: int,
    read: Callable[[str, int, bytes], Iterator] | None = None,
) -> Iterator[Any]:
    """The blocks of a plain file read by `read` (`checked_block`: each decoded in full), a long
    line's reject and a first line that was a byte-order mark alone as the line path's."""
    read = read or checked_block
    for before, block in plain_blocks(path, max_line_bytes, BLOCK_BYTES):
        if isinstance(block, LongLine):
            yield RecordReject(shown, before + 1, None, block.reason()), None
            continue
        if before == 0 and block.startswith(BOM):
            block = block[len(BOM) :]
            if not block:  # as the line path: a first line that was a BOM alone
                yield cast(RecordReject, line_event(shown, 1, block)), block
                continue
        yield from read(shown, before, block)


def checked_block(
    shown: str, before: int, block: bytes
) -> Iterator[tuple[int, list[LedgerEvent]] | tuple[Reject, bytes]]:
    events = whole_block(block)
    if events is not None:
        yield before + 1, events
        return
    half = block.find(b"\n", len(block) // 2) + 1
    if len(block) > SMALL_BLOCK and 0 < half < len(block):
        yield from checked_block(shown, before, block[:half])
        yield from checked_block(shown, before + block.count(b"\n", 0, half), block[half:])
        return
    for number, raw in enumerate(_lines_of(block), before + 1):
        if not raw.isspace():
            item = line_event(shown, number, raw)
            yield (item, raw) if isinstance(item, Reject) else (number, [item[1]])


def _lines_of(block: bytes) -> list[bytes]:
    """A block's lines, each with its newline (the last without one where the block has none)."""
    pieces = block.split(b"\n")
    last = pieces.pop()
    lines = [piece + b"\n" for piece in pieces]
    if last:
        lines.append(last)
    return lines


def whole_block(block: bytes) -> list[LedgerEvent] | None:
    """A block's events where each line is proven to hold one event that the line path
    would accept as it is: None where that cannot be told at once.

    An event's fields are scalars, and a raw newline is no part of a JSON string, so
    where every newline stands between a `}` and a `{` it parts two top-level objects
    (inside one, a `{` may not follow a value): n lines then hold n objects or more,
    exactly n where msgspec decodes n. Without a backslash, the repeated-key count of
    `is_flat_and_unrepeated` adds up over the lines (each line's keys are at least its
    values, so the sums are equal only where every line's are); the time zone and the
    yuan are tested as `decode_event` tests them.
    """
    if b"\\" in block:
        return None
    events = objects_a_line(block, _LEDGER)
    if events is None:
        return None
    lines = len(events)
    nones = sum(map(operator.countOf, map(msgspec.structs.astuple, events), repeat(None)))
    if block.translate(None, _WHITE).count(b'":') != _FIELDS * lines - nones:
        return None
    if not all(map(operator.is_not, map(_TZ, events), repeat(None))):
        return None
    # each distinct text of a yuan once: equal texts are equal in sign, digits and exponent
    yuans = list(map(_YUAN, events))
    for text in set(map(str, compress(yuans, map(operator.is_not, yuans, repeat(None))))):
        yuan = Decimal(text)
        places = yuan.as_tuple().exponent  # an int once finite
        if not (yuan.is_finite() and 0 <= yuan < MAX_CASH and cast(int, places) >= -2):
            return None
    return events


def _why(raw: bytes) -> str:
    """Why `decode_event` refuses a line."""
    try:
        decode_event(raw)
    except DecodeError as exc:
        return str(exc)
    raise AssertionError("a line msgspec refused was decoded")  # pragma: no cover


def guess_id(raw: bytes) -> str | None:
    """The record's id (or mode, or record kind) of a line that failed, if one shows."""
    match = _ID_PATTERN.search(raw)
    if match is None:
        return None
    found = match.group(1).decode("utf-8", "replace")
    return found if len(found) <= ID_LENGTH else found[: ID_LENGTH - 1] + "…"


def read_records(
    path: str, kind: str, max_line_bytes: int = MAX_LINE_BYTES, name: str | None = None
) -> Iterator[Record[Any] | Reject]:
    """Every record of a file of format `kind` (`accounts/1`, `ledger/1`,
    `platform-config/1`), in order, or the reject its line became."""
    shown = name or path
    for item in iter_records(path, kind, max_line_bytes, name):
        yield item if isinstance(item, Reject) else Record(shown, item[0], item[1])


def iter_records(
    path: str,
    kind: str,
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
    start: int = 0,
    end: int | None = None,
) -> Iterator[tuple[int, Any] | Reject]:
    """`read_records` as (line number, record) pairs, for the ledger's hot loop; a byte
    range of a plain file as the session reader's."""
    if kind not in _DECODERS:
        raise ValueError(f"unknown record format {kind!r}")
    shown = name or path
    if kind == LEDGER and (start or end is not None):
        yield from _events(path, shown, start, end, max_line_bytes)
        return
    if kind == LEDGER:
        for item in event_blocks(path, max_line_bytes, name):
            if isinstance(item, Reject):
                yield item
            else:
                yield from zip(count(item[0]), item[1])
        return
    if kind == ACCOUNTS and not (start or end is not None or is_whole(path)):
        yield from account_blocks(path, shown, max_line_bytes)
        return
    try:
        for number, raw, _ in iter_lines_at(path, start, end, max_line_bytes):
            yield line_record(kind, shown, number, raw)
    except UnreadableRest as exc:
        yield RecordReject(shown, exc.line, None, exc.reason)


def line_record(
    kind: str, shown: str, number: int, raw: bytes | LongLine
) -> tuple[int, Any] | RecordReject:
    """One line of format `kind` as (line number, record), or its reject."""
    if isinstance(raw, LongLine):
        return RecordReject(shown, number, None, raw.reason())
    try:
        return number, decode(kind, raw)
    except DecodeError as exc:
        return RecordReject(shown, number, guess_id(raw), str(exc))


def account_blocks(
    path: str, shown: str, max_line_bytes: int
) -> Iterator[tuple[int, Account] | RecordReject]:
    """(line number, account) of a plain file's lines, or the reject a line became."""
    for before, block in plain_blocks(path, max_line_bytes, BLOCK_BYTES):
        if isinstance(block, LongLine):
            yield RecordReject(shown, before + 1, None, block.reason())
            continue
        accounts = None if before == 0 and block.startswith(BOM) else whole_accounts(block)
        if accounts is not None:
            yield from zip(count(before + 1), accounts)
            continue
        for number, raw in enumerate(_lines_of(block), before + 1):
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
            if not raw.isspace():
                yield line_record(ACCOUNTS, shown, number, raw)


def whole_accounts(block: bytes) -> list[Account] | None:
    """A block's accounts where each line is proven to hold one that the line path would
    accept as it is; None where that cannot be told at once. Without a backslash the keys
    counted add up over the lines (each line's at least its accounts' named fields, so the
    sums are equal only where every line's are: `repeated_keys.is_account_unrepeated`),
    the keys that name a default once a line taken out (`block_account_keys`)."""
    if b"\\" in block:
        return None
    accounts: list[Any] | None = objects_a_line(block, _DECODERS[ACCOUNTS])
    if accounts is None:
        return None
    keys = block_account_keys(block)
    if keys is None or keys != sum(map(account_keys, accounts)):
        return None
    # as `_check` tests each: a verification's time zoned, no birth date before EARLIEST
    verified = list(filter(None, map(_VERIFIED_AT, filter(None, map(_VERIFICATION, accounts)))))
    if not all(map(operator.is_not, map(_TZINFO, verified), repeat(None))):
        return None
    born = list(filter(None, map(_BIRTH, accounts)))
    if born and min(born) < EARLIEST:
        return None
    return accounts
