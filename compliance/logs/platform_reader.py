"""平台记录读取: accounts, ledger and configuration lines, streamed as sessions are.

The lines come from the session reader's `iter_lines` (standard input, pipes,
gzip by name or bytes, a byte-order mark dropped, lines past `--max-line-bytes`
skipped unread, a damaged gzip stream ending in one reject), so the bounds and
rejects of the session logs hold here too: every line ends as a record or a
`Reject` with its file, line and record id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Generic, TypeVar

import msgspec

from compliance.errors import DecodeError
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
    MAX_LINE_BYTES,
    LongLine,
    Reject,
    UnreadableRest,
    check_cash,
    iter_lines_at,
    parsed_duplicate_key,
    typed_decode,
)
from compliance.logs.records import ID_LENGTH

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


_WHITE = b" \t\r\n"


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
    return raw.translate(None, _WHITE).count(b'":') == len(values) - values.count(None)


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
    """`decode_event` over a ledger's lines, inlined: the hot loop of the duties pass."""
    one, astuple = _LEDGER.decode, msgspec.structs.astuple
    try:
        for number, raw, _ in iter_lines_at(path, start, end, max_line_bytes):
            if isinstance(raw, LongLine):
                yield RecordReject(shown, number, None, raw.reason())
                continue
            try:
                event = one(raw)
                values = astuple(event)
                if b"\\" in raw or raw.translate(None, _WHITE).count(b'":') != len(
                    values
                ) - values.count(None):
                    _unrepeated(raw)
                if event.at.tzinfo is None:
                    raise DecodeError("at has no time zone")
                if event.yuan is not None:
                    check_cash("yuan", event.yuan)
            except DecodeError as exc:
                yield RecordReject(shown, number, guess_id(raw), str(exc))
                continue
            except (msgspec.DecodeError, RecursionError):
                yield RecordReject(shown, number, guess_id(raw), _why(raw))
                continue
            yield number, event
    except UnreadableRest as exc:
        yield RecordReject(shown, exc.line, None, exc.reason)


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
    if kind == LEDGER:
        yield from _events(path, shown, start, end, max_line_bytes)
        return
    try:
        for number, raw, _ in iter_lines_at(path, start, end, max_line_bytes):
            if isinstance(raw, LongLine):
                yield RecordReject(shown, number, None, raw.reason())
                continue
            try:
                yield number, decode(kind, raw)
            except DecodeError as exc:
                yield RecordReject(shown, number, guess_id(raw), str(exc))
    except UnreadableRest as exc:
        yield RecordReject(shown, exc.line, None, exc.reason)
