"""分区义务审计: the ledger's duty checks on a process pool or on Dask, as the sessions'.

Each of N workers reads the accounts and keeps its persons' (domain/duties/partition.py),
then reads the ledger through, decoding in full and checking only its persons' events
(an event's account is read first, cheaply, to tell whose it is; a line that cannot be
read so is the worker's whose number its line number is, modulo N). Every line is so
checked, or rejected, by exactly one worker. A recharge that may be its currency's first
is read by every worker, so all judge unit prices against the same first price. A
transfer is read, for check 18's coin traders, by the receiver's worker too (only its
inbound half), and every worker is given the sessions' agents (check 17), so that the
signals are judged as in one pass (domain/duties/coin_traders.py, agent_tables.py). A
worker stores its rejects itself where it reaches the database; it sends back its part:
its breaches, and what it left open for the driver to merge (domain/duties/engine.py).
"""

from __future__ import annotations

import multiprocessing
import operator
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import compress, repeat
from typing import Any, cast

import msgspec

from compliance.domain.duties.accounts import Accounts
from compliance.domain.duties.agent_tables import AgentSession
from compliance.domain.duties.calendar import local_day
from compliance.domain.duties.engine import DutyAudit, DutyOptions, LedgerPart
from compliance.domain.duties.partition import Router, Share
from compliance.domain.duties.rows import DutyBook
from compliance.errors import ConfigError, DecodeError
from compliance.logs.ledger_sift import sifted_blocks
from compliance.logs.lines import LongLine, UnreadableRest, is_whole, iter_lines_at
from compliance.logs.platform_reader import (
    RecordReject,
    decode_event,
    guess_id,
    iter_records,
)
from compliance.logs.platform_records import ACCOUNTS, CONFIG, LedgerEvent
from compliance.logs.reader import Reject
from compliance.service_layer.runners import die_with_parent, local_cluster
from compliance.service_layer.unit_of_work import UnitOfWorkFactory

SHOWN = 100
REJECT_BATCH = 1000


class _Owner(msgspec.Struct):
    """What a ledger line is read for first: whose it is, and whether it may set a price."""

    platform: str
    account: str
    type: str = ""
    currency: str | None = None
    counterpart: str | None = None


_owner = msgspec.json.Decoder(_Owner)
_PLATFORM = operator.attrgetter("platform")
_ACCOUNT = operator.attrgetter("account")
_TYPE = operator.attrgetter("type")
_CURRENCY = operator.attrgetter("currency")


@dataclass(frozen=True)
class PartSpec:
    """What every worker is given: the rows, the readings, the files, the run."""

    book: DutyBook
    options: DutyOptions
    accounts: str | None
    config: str | None
    ledger: str
    ledger_name: str
    max_line_bytes: int
    workers: int
    store: UnitOfWorkFactory | None
    run_id: int
    agent_sessions: dict[tuple[str, str], AgentSession] = field(default_factory=dict)
    held: Share | None = None  # this worker's accounts as the driver holds them, if it does


@dataclass
class PartResult:
    part: LedgerPart
    records: int = 0
    rejects: int = 0
    shown: list[Reject] = field(default_factory=list)  # the first SHOWN, for the summary
    unstored: list[Reject] = field(default_factory=list)  # where no store was reachable


def _records(path: str, kind: str, max_line_bytes: int):
    for item in iter_records(path, kind, max_line_bytes):
        if not isinstance(item, Reject):
            yield item[1]


class _Rejects:
    """A worker's rejects: stored a thousand at a time where it reaches the database, the
    first SHOWN kept to be shown."""

    def __init__(self, spec: PartSpec):
        self.spec = spec
        self.uow = spec.store() if spec.store is not None else None
        self.waiting: list[Reject] = []
        self.count = 0
        self.shown: list[Reject] = []
        self.unstored: list[Reject] = []

    def take(self, reject: Reject) -> None:
        self.count += 1
        if len(self.shown) < SHOWN:
            self.shown.append(reject)
        if self.uow is None:
            self.unstored.append(reject)
            return
        self.waiting.append(reject)
        if len(self.waiting) >= REJECT_BATCH:
            self.flush()

    def flush(self) -> None:
        if self.uow is not None and self.waiting:
            with self.uow:
                self.uow.runs.store_rejects(self.spec.run_id, self.waiting)
                self.uow.commit()
        self.waiting.clear()


def ledger_part(spec: PartSpec, me: int) -> PartResult:
    """Worker `me`'s share of the ledger, checked; its part and its rejects."""
    n = spec.workers
    router = Router(n, me, spec.options.per_account)
    accounts: Any = None
    if spec.held is not None:
        accounts, router.elsewhere = Accounts.held(spec.held[0]), spec.held[1]
    elif spec.accounts is not None:
        accounts = router.take(_records(spec.accounts, ACCOUNTS, spec.max_line_bytes))
    config = (
        list(_records(spec.config, CONFIG, spec.max_line_bytes))
        if spec.config is not None
        else None
    )
    engine = DutyAudit(spec.book, spec.options, accounts, config, ledger_given=True)
    first: dict[tuple[str, str], Decimal] = {}
    engine.currency.first_prices = first
    held = engine.accounts
    engine.signals.agents.sessions = spec.agent_sessions
    coins = engine.signals.coins
    coins.receives = lambda platform, account: router.owns(platform, account, held)
    rejects = _Rejects(spec)
    if is_whole(spec.ledger):
        records = _line_part(spec, me, engine, router, first, rejects)
    else:
        records = _block_part(spec, me, engine, router, first, rejects)
    rejects.flush()
    return PartResult(engine.part(), records, rejects.count, rejects.shown, rejects.unstored)


def _block_part(
    spec: PartSpec,
    me: int,
    engine: DutyAudit,
    router: Router,
    first: dict[tuple[str, str], Decimal],
    rejects: _Rejects,
) -> int:
    """A plain ledger read in blocks (logs/ledger_sift.py): each block's lines read first
    for whose they are, and only the worker's own (with the recharges that may set a
    currency's first price, and the transfers to its accounts) decoded in full; its own
    checked a block at a time, in ledger order with the transfers' inbound halves. A
    reject is the worker's whose the line's account is, as `_line_part` tells it."""
    held = engine.accounts
    owns, known = router.owns, _Known(router, held)
    currency, inbound = engine.currency, engine.signals.coins.active
    is_mine, seen = known.is_mine, known.by_platform
    for platform, ids in held.by_platform.items():  # its own accounts' events are its own
        seen[platform] = dict.fromkeys(ids, True)
    odd: list[bool] = [False]  # whether a block's picked lines hold more than its own

    def choose(owners: list[_Owner]) -> list[int]:
        """The lines to decode in full: the worker's own, told by looking each account up
        at once, and those any worker reads (a recharge that may set its currency's first
        price, a transfer that may reach one of this worker's accounts)."""
        n = len(owners)
        platforms = list(map(_PLATFORM, owners))
        accounts = list(map(_ACCOUNT, owners))
        if platforms.count(platforms[0]) == n:
            ids = seen.get(platforms[0])
            if ids is None:
                ids = seen[platforms[0]] = {}
            flags: list[Any] = list(map(ids.get, accounts))
        else:
            flags = [seen.get(p, {}).get(a) for p, a in zip(platforms, accounts, strict=True)]
        for i in compress(range(n), map(operator.is_, flags, repeat(None))):
            flags[i] = is_mine(platforms[i], accounts[i])
        kinds = list(map(_TYPE, owners))
        extra: list[int] = []
        if "recharge" in kinds:
            charged = list(map("recharge".__eq__, kinds))
            currencies = map(_CURRENCY, compress(owners, charged))
            priced = zip(compress(platforms, charged), currencies, strict=True)
            if not first.keys() >= set(priced):
                extra.extend(
                    i
                    for i in compress(range(n), charged)
                    if (platforms[i], owners[i].currency) not in first
                )
        if inbound and "transfer" in kinds:
            extra.extend(
                i
                for i in compress(range(n), map("transfer".__eq__, kinds))
                if not flags[i] and owners[i].counterpart is not None
            )
        odd[0] = bool(extra)
        own = list(compress(range(n), flags))
        return sorted(set(own).union(extra)) if extra else own

    records = 0
    blocks = sifted_blocks(spec.ledger, _owner, choose, spec.max_line_bytes, spec.ledger_name)
    for numbers, got in blocks:
        if isinstance(numbers, Reject):
            if _owner_of(cast(bytes | None, got), numbers.line, router, held) == me:
                rejects.take(numbers)
            continue
        events = cast(list[LedgerEvent], got)
        if not odd[0] and isinstance(numbers, list):  # picked: its own, no first price to set
            records += len(events)
            engine.block(numbers, events)
            continue
        mine: list[tuple[int, LedgerEvent]] = []
        for seq, e in zip(numbers, events, strict=True):
            platform, account = e.platform, e.account
            if (
                e.type == "recharge"
                and e.currency is not None
                and (platform, e.currency) not in first
            ):
                price = currency.first_price(e, local_day(e.at))
                if price is not None:
                    first.setdefault((platform, e.currency), price)
            if is_mine(platform, account):
                mine.append((seq, e))
            elif (
                inbound
                and e.type == "transfer"
                and e.counterpart is not None
                and owns(platform, e.counterpart, held)
            ):
                records += len(mine)
                engine.numbered(mine)
                mine = []
                engine.inbound(e, seq)
        records += len(mine)
        engine.numbered(mine)
    return records


class _Known:
    """Whose an account's events are (`Router.owns`), told once per account: the CRC-32
    of an account that is not this worker's is not made again for each of its events."""

    def __init__(self, router: Router, held: Accounts):
        self.router, self.held = router, held
        self.by_platform: dict[str, dict[str, bool]] = {}

    def is_mine(self, platform: str, account: str) -> bool:
        ids = self.by_platform.get(platform)
        if ids is None:
            ids = self.by_platform[platform] = {}
        found = ids.get(account)
        if found is None:
            found = ids[account] = self.router.owns(platform, account, self.held)
        return found


def _owner_of(raw: bytes | None, line: int, router: Router, held) -> int:
    """The worker a rejected line belongs to: its account's, where its platform and account
    can be read, else the one its line number names."""
    n = router.workers
    if raw is not None:
        try:
            owner = _owner.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            pass
        else:
            if router.owns(owner.platform, owner.account, held):
                return router.me
            return -1
    return line % n


def _line_part(
    spec: PartSpec,
    me: int,
    engine: DutyAudit,
    router: Router,
    first: dict[tuple[str, str], Decimal],
    rejects: _Rejects,
) -> int:
    """A gzip ledger read line by line: each line's platform and account read first."""
    n, held = spec.workers, engine.accounts
    inbound = engine.signals.coins.active
    records = 0
    shown = spec.ledger_name
    try:
        for number, raw, _ in iter_lines_at(spec.ledger, 0, None, spec.max_line_bytes):
            if isinstance(raw, LongLine):
                if number % n == me:
                    rejects.take(RecordReject(shown, number, None, raw.reason()))
                continue
            try:
                owner: _Owner | None = _owner.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                owner = None
            if owner is None:
                mine = number % n == me
            else:
                mine = router.owns(owner.platform, owner.account, held)
                if (
                    owner.type == "recharge"
                    and owner.currency is not None
                    and (owner.platform, owner.currency) not in first
                ):
                    _first_price(engine, raw, first)
            if not mine:
                if (
                    inbound
                    and owner is not None
                    and owner.type == "transfer"
                    and owner.counterpart is not None
                    and router.owns(owner.platform, owner.counterpart, held)
                ):
                    _inbound(engine, raw, number)
                continue
            try:
                event = decode_event(raw)
            except DecodeError as exc:
                rejects.take(RecordReject(shown, number, guess_id(raw), str(exc)))
                continue
            records += 1
            engine.event(event, number)
    except UnreadableRest as exc:
        if me == 0:
            rejects.take(RecordReject(shown, exc.line, None, exc.reason))
    return records


def _inbound(engine: DutyAudit, raw: bytes, number: int) -> None:
    try:
        engine.inbound(decode_event(raw), number)
    except DecodeError:
        return  # rejected by the sender's worker


def _first_price(engine: DutyAudit, raw: bytes, first: dict[tuple[str, str], Decimal]) -> None:
    try:
        e = decode_event(raw)
    except DecodeError:
        return
    price = engine.currency.first_price(e, local_day(e.at))
    if price is not None and e.currency is not None:
        first.setdefault((e.platform, e.currency), price)


def run_parts(
    spec: PartSpec, dask: str | None, held: list[Share] | None = None
) -> list[PartResult]:
    """Every worker's part, in worker order: on Dask where an address (or `local`) is
    given, else on a pool of forked processes; `held` each worker's accounts where the
    driver holds them (each is sent only its own)."""
    specs = [spec] * spec.workers if held is None else [replace(spec, held=h) for h in held]
    if dask:
        return _on_dask(specs, dask)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        spec.workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        return list(pool.map(ledger_part, specs, range(spec.workers)))


def _on_dask(specs: list[PartSpec], address: str) -> list[PartResult]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise ConfigError("--dask needs Dask: pip install -e '.[dask]'") from None
    cluster = local_cluster(len(specs)) if address == "local" else None
    try:
        with Client(cluster or address) as client:
            futures: Any = client.map(ledger_part, specs, range(len(specs)), pure=False)
            return [f.result() for f in futures]
    finally:
        if cluster is not None:
            cluster.close()
