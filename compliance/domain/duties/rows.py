"""义务条目: each duty a row of data, like the threshold bands.

A row names its check (§7 of the research note, by number and code), the
instrument and article it rests on, the confidence, the days it is in force
(`valid_from`/`valid_to`, inclusive) and its figures. The rows live in
`data/duties.toml`, are stored in the rule database with the change trail, and
are what `rules check` and `rules show platform` read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cached_property

VIOLATION = "violation"
SIGNAL = "signal"
ADVISORY = "advisory"
SEVERITIES = (ADVISORY, SIGNAL, VIOLATION)
"""Least to most serious: an advisory is never a violation (the 2023 draft)."""

CHECKS: dict[str, tuple[int, str]] = {
    "unverified_play": (1, "未实名游戏 play without real-name verification"),
    "guest_rules": (2, "游客模式 guest-mode rules"),
    "payer_name": (3, "付款人与实名 payer against the account's real name"),
    "account_resale": (4, "账号出售出租 account resale or rental"),
    "minor_hours": (5, "未成年人时段 minors' hours"),
    "minor_payments": (6, "未成年人充值限额 minors' payment caps"),
    "minor_trades": (7, "未成年人交易与抽奖 minors in trades and draws"),
    "cash_out": (8, "兑现 cash-out paths from points or currency"),
    "outcome_fees": (9, "与输赢相关的佣金 fees that depend on the outcome"),
    "point_caps": (10, "输赢积分上限 per-round and per-day point caps"),
    "transfers": (11, "用户间转移 transfers between users"),
    "unbought_currency": (12, "非法币发行的虚拟货币 currency not bought with money"),
    "unit_price": (13, "单价变动 unit-price drift"),
    "paid_draws": (14, "付费随机抽取 paid random draws"),
    "draw_frequencies": (14, "抽取概率检验 draw frequencies against the published odds"),
    "recharge_cap": (15, "单次充值上限与确认 single-recharge cap and confirmations"),
    "service_gaps": (16, "服务中断 service interruptions of 30 days"),
    "agent_tables": (17, "代理自开房 agents playing in rooms opened with their own cards"),
    "coin_traders": (18, "银商 coin traders: many small transfers in, a large one out"),
    "fraud_reverification": (
        20,
        "涉诈异常重新核验 fraud-flagged accounts re-verified or restricted",
    ),
    "mirrored_gains": (18, "对冲输赢 gains mirroring others' losses across rooms"),
    "retention": (21, "记录留存 record retention"),
    "draft_advisories": (22, "草案提示 the 2023 draft's advisories"),
}
"""The checks built so far, by code: (number in the research note's §7, label)."""

Figure = Decimal | int | str


@dataclass(frozen=True)
class Duty:
    """义务: one row."""

    id: str
    check: str
    instrument: str
    article: str
    confidence: str
    severity: str
    valid_from: date | None = None
    valid_to: date | None = None
    figures: dict[str, Figure] = field(default_factory=dict)
    source: str = ""
    note: str = ""

    @property
    def number(self) -> int:
        return CHECKS[self.check][0]

    def in_force(self, day: date) -> bool:
        return (self.valid_from is None or self.valid_from <= day) and (
            self.valid_to is None or day <= self.valid_to
        )

    def figure(self, name: str) -> Decimal:
        """A numeric figure of the row (`rules check` holds that a row has those its rule
        needs)."""
        return self._numbers[name]

    @cached_property
    def _numbers(self) -> dict[str, Decimal]:
        out = {}
        for key, value in self.figures.items():
            try:
                out[key] = Decimal(str(value))
            except ArithmeticError:
                continue
        return out

    def text(self, name: str) -> str:
        return str(self.figures[name])

    @property
    def citation(self) -> str:
        return f"{self.instrument} {self.article}".strip()


RULE_FIGURES: dict[str, tuple[str, ...]] = {
    "window": ("open_from", "open_to", "open_days"),
    "night": ("closed_from", "closed_to"),
    "daily_total": ("minutes", "holiday_minutes"),
    "nil_below": ("age",),
    "per_payment": ("age_from", "age_to", "yuan"),
    "per_month": ("age_from", "age_to", "yuan"),
    "guest_minutes": ("minutes",),
    "guest_payment": (),
    "guest_device": ("days",),
    "unverified": ("accounts",),
    "cap": (),
    "confirmation": (),
    "configured": (),
    "per_round": (),
    "per_day": (),
    "session_round": (),
    "session_day": (),
    "rake_share": (),
    "rake_winners": (),
    "card_share": (),
    "card_winners": (),
    "declared_results": (),
    "declared_stakes": (),
    "days": ("days",),
    "minor_event": ("types",),
    "outflow": ("types",),
    "points_transfer": ("currency",),
    "currency_transfer": (),
    "grant": (),
    "paid_draw": (),
    "odds_published": (),
    "gap": ("days",),
    "payer_match": (),
    "price_drift": (),
    "reward": ("reasons",),
    "limit_published": (),
    "months": ("months",),
    "resale": ("window_days", "settled_days"),
    "own_table": ("sessions", "window_days"),
    "coin_trader": ("window_days", "senders", "small_units", "outbound_share"),
    "reverify": ("days",),
    "frequencies": ("alpha", "min_draws"),
    "mirrored": (
        "min_players",
        "tolerance",
        "min_sessions",
        "min_share",
        "min_rooms",
        "min_direction",
        "min_yuan",
    ),
}
"""What a row's `rule` figure selects within its check, and the figures it needs."""

NUMBERS = frozenset(
    ("minutes", "holiday_minutes", "days", "age", "age_from", "age_to", "yuan", "months")
)
"""The figures the checks read as numbers (the others are words: hours, kinds, lists)."""


def is_number(value: Figure) -> bool:
    """A finite number, written as an integer or as a decimal in a string."""
    try:
        return Decimal(str(value)).is_finite() and not isinstance(value, bool)
    except ArithmeticError:
        return False


@dataclass
class DutyBook:
    """Every duty row, as loaded once per run."""

    duties: list[Duty] = field(default_factory=list)
    _by_day: dict[tuple[str, str, date], list[Duty]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def rows(self, check: str, rule: str | None = None) -> list[Duty]:
        return [
            d
            for d in self.duties
            if d.check == check and (rule is None or d.figures.get("rule") == rule)
        ]

    def in_force(self, check: str, rule: str, day: date) -> list[Duty]:
        """The rows of a check's rule in force on a day (remembered per day: a ledger asks
        the same few thousand days again and again)."""
        key = (check, rule, day)
        found = self._by_day.get(key)
        if found is None:
            found = self._by_day[key] = [d for d in self.rows(check, rule) if d.in_force(day)]
        return found

    def problems(self) -> list[str]:
        """What is wrong with the rows: unknown checks or severities, dates out of
        order, ids named twice, figures a row's rule needs and lacks."""
        out: list[str] = []
        seen: set[str] = set()
        for d in self.duties:
            where = f"duty {d.id}"
            if d.id in seen:
                out.append(f"{where}: id named twice")
            seen.add(d.id)
            if d.check not in CHECKS:
                out.append(f"{where}: unknown check {d.check!r}")
            if d.severity not in SEVERITIES:
                out.append(f"{where}: severity {d.severity!r} is none of {', '.join(SEVERITIES)}")
            if d.confidence not in ("H", "M", "L"):
                out.append(f"{where}: confidence {d.confidence!r} is none of H, M, L")
            if d.valid_from and d.valid_to and d.valid_to < d.valid_from:
                out.append(f"{where}: valid_to {d.valid_to} is before valid_from {d.valid_from}")
            rule = d.figures.get("rule")
            if rule not in RULE_FIGURES:
                out.append(f"{where}: figure 'rule' = {rule!r} names no rule of the checks")
                continue
            for name in RULE_FIGURES[str(rule)]:
                if name not in d.figures:
                    out.append(f"{where}: rule {rule} needs the figure {name!r}")
                elif name in NUMBERS and not is_number(d.figures[name]):
                    out.append(f"{where}: figure {name!r} = {d.figures[name]!r} is not a number")
            if "草案" in d.instrument and d.severity == VIOLATION:
                out.append(f"{where}: a draft's row is never a violation")
        return out
