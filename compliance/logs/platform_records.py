"""平台记录: the operator's own records beside the session logs, one JSON line each.

Three versioned formats, decoded into typed Structs as the sessions are:
`accounts/1` (账户: who an account is, real-name status, birth date, kind),
`ledger/1` (流水: money, currency, points, draws, confirmations and logins, each
with its account, its time with zone and its amounts), `platform-config/1`
(平台配置: game modes' point caps, the single-recharge cap, published draw
probabilities, whether transfers are a feature, the oldest date each record kind
holds). docs/log-format.md describes them; `compliance logs schema --kind` prints
their JSON Schemas.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Literal

import msgspec

from compliance.logs.bounds import MAX_POINTS, Name, SignedPoints
from compliance.logs.records import Id, Platform

ACCOUNTS = "accounts/1"
LEDGER = "ledger/1"
CONFIG = "platform-config/1"
KINDS = (ACCOUNTS, LEDGER, CONFIG)

MAX_DEVICES = 100
MAX_PRESETS = 100
Digest = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
Short = Annotated[str, msgspec.Meta(max_length=64)]

VERIFICATION = ("verified", "unverified", "pending", "failed")
ACCOUNT_KINDS = ("player", "agent", "guest")
EVENT_TYPES = (
    "recharge",  # 充值: money in, units of a currency out
    "refund",  # 退款: money back to the payer
    "withdrawal",  # 提现 / 兑付: money out to the account holder
    "redemption",  # 兑换实物: goods for points, props or currency
    "grant",  # 赠送: currency credited without money (sign-in gift, agent grant, compensation)
    "transfer",  # 转账 / 转分: points or currency from this account to the counterpart
    "draw",  # 抽奖: a paid random draw and its result
    "room_card_purchase",  # 购买房卡
    "room_card_use",  # 消耗房卡
    "confirmation",  # 消费确认: the prompt shown for a payment (`ref` names the payment)
    "settlement",  # 结算: points won or lost in one round of a game mode
    "login",  # 登录: device and region
    "fraud_flag",  # 涉诈异常标记: the platform flagged the account as fraud-abnormal
    "reverification",  # 重新核验: the account's holder verified again (反电诈法 art. 22)
    "restriction",  # 限制功能 / 暂停服务: the account restricted or suspended
)
RECORD_KINDS = ("sessions", "logins", "recharges", "consumption", "transfers", "draws")


class Verification(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """实名认证: the status of the account's real-name check, when and by which reference
    (the NPPA system's verification id where the platform uses it)."""

    status: Literal["verified", "unverified", "pending", "failed"]
    at: datetime | None = None
    ref: Name | None = None


class Account(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """账户: one account; `person` a digest of the real-name identity, so one person's
    accounts can be summed; `real_name` a digest of the verified name alone, made as the
    ledger's `payer` is (check 3); `id` the player id of the session logs."""

    format: Literal["accounts/1"]
    platform: Platform
    id: Id
    kind: Literal["player", "agent", "guest"] = "player"
    person: Digest | None = None
    real_name: Digest | None = None
    verification: Verification | None = None
    birth_date: date | None = None
    devices: Annotated[list[Id], msgspec.Meta(max_length=MAX_DEVICES)] = []


class LedgerEvent(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """流水: one event of the platform's ledger. `yuan` is money (to the fen), `units` the
    points, currency or cards moved (a signed integer: a settlement's loss is negative),
    `currency` which unit (`diamond`, `points`, `room_card`, …); `reason` why a grant was
    given (`login`, `login_streak`, `first_recharge`, `recharge_streak`, …); `pool` the
    draw pool a draw's `result` came from (the configuration's `draw` records' pool)."""

    format: Literal["ledger/1"]
    platform: Platform
    id: Id
    account: Id
    type: Literal[
        "recharge",
        "refund",
        "withdrawal",
        "redemption",
        "grant",
        "transfer",
        "draw",
        "room_card_purchase",
        "room_card_use",
        "confirmation",
        "settlement",
        "login",
        "fraud_flag",
        "reverification",
        "restriction",
    ]
    at: datetime
    yuan: Decimal | None = None
    units: SignedPoints | None = None
    currency: Short | None = None
    counterpart: Id | None = None
    ref: Id | None = None
    mode: Short | None = None
    session_id: Id | None = None
    round: Annotated[int, msgspec.Meta(ge=0, le=MAX_POINTS)] | None = None
    result: Name | None = None
    pool: Short | None = None
    device: Id | None = None
    region: Short | None = None
    payer: Digest | None = None
    reason: Short | None = None


class _ConfigRecord(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind"
):
    """A line of `platform-config/1`: its `kind` says which record it is."""


class ModeConfig(_ConfigRecord, frozen=True, tag="mode"):
    """玩法上限: a game mode's per-round and per-day caps on points won or lost per user
    (公通字〔2007〕3号 §3); absent, the cap is not configured. `game` names the session
    logs' game code the mode is played as, `presets` the house-rule presets of it that
    are this mode (absent: every preset); without `game`, sessions are this mode when
    their game code is its name."""

    format: Literal["platform-config/1"]
    platform: Platform
    mode: Short
    round_cap: Annotated[int, msgspec.Meta(ge=0, le=MAX_POINTS)] | None = None
    day_cap: Annotated[int, msgspec.Meta(ge=0, le=MAX_POINTS)] | None = None
    stakes_points: bool = True
    game: Short | None = None
    presets: Annotated[list[Short], msgspec.Meta(max_length=MAX_PRESETS)] | None = None


class RechargeCap(_ConfigRecord, frozen=True, tag="recharge_cap"):
    """单次充值上限: the cap on one recharge, in yuan (文市发〔2016〕32号 (十二))."""

    format: Literal["platform-config/1"]
    platform: Platform
    yuan: Decimal
    game: Short | None = None


class DrawOdds(_ConfigRecord, frozen=True, tag="draw"):
    """公示概率: a drawable item's published probability."""

    format: Literal["platform-config/1"]
    platform: Platform
    pool: Short
    item: Name
    probability: Decimal


class Features(_ConfigRecord, frozen=True, tag="features"):
    """功能: whether user-to-user transfers are a feature of the platform."""

    format: Literal["platform-config/1"]
    platform: Platform
    transfers: bool = False
    draws: bool = False


class Retention(_ConfigRecord, frozen=True, tag="retention"):
    """留存: the oldest date a record kind still holds, as of `on` (the audit's day when
    absent); `since` the day the platform began keeping that kind (a younger platform
    holds all it can)."""

    format: Literal["platform-config/1"]
    platform: Platform
    record: Literal["sessions", "logins", "recharges", "consumption", "transfers", "draws"]
    oldest: date | None
    on: date | None = None
    since: date | None = None


ConfigRecord = ModeConfig | RechargeCap | DrawOdds | Features | Retention


def config_id(record: ConfigRecord) -> str:
    """A config record's name in a reject or a finding: its kind and what it is about."""
    if isinstance(record, ModeConfig):
        return f"mode:{record.mode}"
    if isinstance(record, DrawOdds):
        return f"draw:{record.pool}:{record.item}"
    if isinstance(record, Retention):
        return f"retention:{record.record}"
    if isinstance(record, RechargeCap):
        return f"recharge_cap:{record.game or '*'}"
    return "features"
