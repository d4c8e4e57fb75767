"""Accounts, ledger events, configuration and plays for the duty tests."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from compliance.domain.duties.calendar import SHANGHAI
from compliance.domain.duties.engine import DutyAudit, DutyOptions, Play
from compliance.dutydata import load_duties
from compliance.logs.platform_records import (
    Account,
    Features,
    LedgerEvent,
    ModeConfig,
    RechargeCap,
    Retention,
    Verification,
)

BOOK = load_duties()
P = "plat"


def at(text: str) -> datetime:
    """A Beijing time written `YYYY-MM-DD HH:MM`."""
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=SHANGHAI)


def account(
    id="a1",
    birth=date(2000, 1, 1),
    kind="player",
    person=None,
    status="verified",
    verified_at=None,
    devices=(),
):
    return Account(
        format="accounts/1",
        platform=P,
        id=id,
        kind=kind,
        person=person,
        verification=Verification(status=status, at=verified_at) if status else None,
        birth_date=birth,
        devices=list(devices),
    )


def pay(id, when, yuan, acc="a1", type="recharge", **kw):
    return LedgerEvent(
        format="ledger/1",
        platform=P,
        id=id,
        account=acc,
        type=type,
        at=at(when),
        yuan=Decimal(yuan),
        **kw,
    )


def confirm(id, ref, when, acc="a1"):
    return LedgerEvent(
        format="ledger/1", platform=P, id=id, account=acc, type="confirmation", at=at(when), ref=ref
    )


def settle(id, when, units, mode="m1", acc="a1"):
    return LedgerEvent(
        format="ledger/1",
        platform=P,
        id=id,
        account=acc,
        type="settlement",
        at=at(when),
        units=units,
        mode=mode,
    )


def play(start, end=None, acc="a1", sid="s1"):
    return Play(P, acc, sid, at(start), at(end) if end else None)


def mode(name="m1", round_cap=100, day_cap=1000, stakes=True, game=None, presets=None):
    return ModeConfig(
        format="platform-config/1",
        platform=P,
        mode=name,
        round_cap=round_cap,
        day_cap=day_cap,
        stakes_points=stakes,
        game=game,
        presets=presets,
    )


def cap(yuan):
    return RechargeCap(format="platform-config/1", platform=P, yuan=Decimal(yuan))


def keep(record, oldest, on=None, since=None):
    return Retention(
        format="platform-config/1", platform=P, record=record, oldest=oldest, on=on, since=since
    )


def features(transfers=False, draws=False):
    return Features(format="platform-config/1", platform=P, transfers=transfers, draws=draws)


def run(
    accounts=(),
    plays=(),
    events=(),
    config=None,
    ledger=True,
    today=date(2022, 6, 1),
    per_account=False,
    adjusted_closed=False,
    with_accounts=True,
):
    audit = DutyAudit(
        BOOK,
        DutyOptions(today, per_account, adjusted_closed),
        list(accounts) if with_accounts else None,
        config,
        ledger,
    )
    for p in plays:
        audit.play(p)
    for e in events:
        audit.event(e)
    return audit.finish(), audit.statuses()


def breaches(findings, duty=None):
    return [f for f in findings if f.status == "breached" and (duty is None or f.duty == duty)]
