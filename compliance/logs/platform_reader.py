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
    TOO_DEEP,
    LongLine,
    Reject,
    UnreadableRest,
    check_cash,
    iter_lines,
    parsed_duplicate_key,
)
from compliance.logs.records import ID_LENGTH

T = TypeVar("T")
EARLIEST = date(1900, 1, 1)
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    ACCOUNTS: msgspec.json.Decoder(Account),
    LEDGER: msgspec.json.Decoder(LedgerEvent),
    CONFIG: msgspec.json.Decoder(ConfigRecord),
}
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
    try:
        record = _DECODERS[kind].decode(raw)
    except msgspec.ValidationError as exc:
        raise DecodeError(f"invalid {kind} record: {exc}") from None
    except msgspec.DecodeError as exc:
        raise DecodeError(f"malformed JSON: {exc}") from None
    except RecursionError:
        raise DecodeError(TOO_DEEP) from None
    twice = parsed_duplicate_key(raw)
    if twice is not None:
        raise DecodeError(f"a JSON object names {twice!r} twice (the last would win unseen)")
    _check(record)
    return record


def _check(record: Any) -> None:
    if isinstance(record, Account):
        verified = record.verification
        if verified is not None and verified.at is not None:
            _zoned("verification.at", verified.at)
        if record.birth_date is not None and record.birth_date < EARLIEST:
            raise DecodeError(f"birth_date {record.birth_date} is before {EARLIEST}")
    elif isinstance(record, LedgerEvent):
        _zoned("at", record.at)
        check_cash("yuan", record.yuan)
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
    if kind not in _DECODERS:
        raise ValueError(f"unknown record format {kind!r}")
    shown = name or path
    try:
        for number, raw in iter_lines(path, max_line_bytes=max_line_bytes):
            if isinstance(raw, LongLine):
                yield RecordReject(shown, number, None, raw.reason())
                continue
            try:
                yield Record(shown, number, decode(kind, raw))
            except DecodeError as exc:
                yield RecordReject(shown, number, guess_id(raw), str(exc))
    except UnreadableRest as exc:
        yield RecordReject(shown, exc.line, None, exc.reason)
