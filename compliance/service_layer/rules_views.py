"""规则查询: the rule book as data to show: instruments, the rules in force, checks, diffs.

Each use case returns plain dataclasses; the CLI lays them out as tables,
text or JSON. Reading the book from `db` opens a unit of work only then.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

from compliance.domain.rulecheck import Problem
from compliance.domain.rulediff import Change, condition_words, words
from compliance.domain.rules import SUBJECTS, RuleBook
from compliance.domain.ruleset import Resolver
from compliance.service_layer import rules as rule_cases
from compliance.service_layer.unit_of_work import UnitOfWorkFactory

CONFIDENCE_ORDER = "LMH"


def read_book(source: str, uows: UnitOfWorkFactory) -> RuleBook:
    """The rule book of `source`: `db` (the store, seeded on first use), a data/ folder or a file."""
    if source == rule_cases.DB:
        return rule_cases.stored_rules(uows())
    return rule_cases.read_source(Path(source))


def jurisdiction_code(book: RuleBook, jurisdiction: str | None) -> str | None:
    """A jurisdiction's code from its code, name or alias (None stays None)."""
    return Resolver(book).lookup(jurisdiction).code if jurisdiction else None


# rules list ---------------------------------------------------------------------


@dataclass(frozen=True)
class InstrumentRow:
    """One 规范性文件 with the number of its bands; the field order is the JSON's."""

    id: str
    jurisdiction: str
    kind: str
    title: str
    effective_from: str
    effective_to: str | None
    confidence: str
    disputed: bool
    source: str
    bands: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def list_instruments(
    book: RuleBook, jurisdiction: str | None = None, as_of: date | None = None
) -> list[InstrumentRow]:
    """规范性文件清单: the instruments by jurisdiction and date, of one jurisdiction
    (code, name or alias) and in force on `as_of` when given."""
    code = jurisdiction_code(book, jurisdiction)
    counts = Counter(band.instrument for band in book.bands)
    chosen = sorted(
        book.instruments.values(), key=lambda i: (i.jurisdiction, i.effective_from, i.id)
    )
    return [
        InstrumentRow(
            id=i.id,
            jurisdiction=i.jurisdiction,
            kind=i.kind,
            title=i.title,
            effective_from=words(i.effective_from),
            effective_to=words(i.effective_to) or None,
            confidence=i.confidence,
            disputed=i.disputed,
            source=i.source,
            bands=counts.get(i.id, 0),
        )
        for i in chosen
        if (code is None or i.jurisdiction == code) and (as_of is None or i.in_force(as_of))
    ]


# rules show ---------------------------------------------------------------------


@dataclass(frozen=True)
class BandInForce:
    """One 档次线 in force, with its condition in words and its instrument's source."""

    id: str
    subject: str
    tier: str
    tier_label: str
    condition: str
    game_classes: list[str]
    role: str | None
    venues: list[str]
    article: str
    penalty: str
    instrument: str
    source: str
    confidence: str


@dataclass(frozen=True)
class PenaltyInForce:
    id: str
    tiers: list[str]
    text: str
    instrument: str


@dataclass(frozen=True)
class ExemptionInForce:
    id: str
    kind: str
    text: str


@dataclass(frozen=True)
class AggravationInForce:
    id: str
    kind: str
    text: str
    article: str
    effective_from: str | None
    effective_to: str | None
    within_days: int | None


@dataclass(frozen=True)
class RulesInForce:
    """The rules that judge a jurisdiction on a day, its chain of jurisdictions nearest first."""

    jurisdiction: str
    name: str
    as_of: date
    chain: list[str]
    bands: list[BandInForce]
    penalties: list[PenaltyInForce]
    exemptions: list[ExemptionInForce]
    aggravations: list[AggravationInForce]

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "as_of": self.as_of.isoformat()}


def show_jurisdiction(book: RuleBook, jurisdiction: str, as_of: date | None = None) -> RulesInForce:
    """现行规则: the bands by subject, penalties and exemptions in force in a jurisdiction
    on `as_of` (default today); a city without bands of its own gets its province's."""
    resolver = Resolver(book)
    where = resolver.lookup(jurisdiction)
    day = as_of or date.today()
    rs = resolver.ruleset(where.code, day)
    order = sorted(rs.bands, key=lambda s: SUBJECTS.index(s) if s in SUBJECTS else len(SUBJECTS))
    bands = [
        BandInForce(
            id=b.id,
            subject=b.subject,
            tier=b.tier.code,
            tier_label=b.tier.label,
            condition=condition_words(b.condition),
            game_classes=sorted(b.game_classes),
            role=b.role,
            venues=sorted(b.venues),
            article=b.article,
            penalty=b.penalty,
            instrument=b.instrument,
            source=rs.instruments[b.instrument].source,
            confidence=min(
                b.confidence, rs.instruments[b.instrument].confidence, key=CONFIDENCE_ORDER.index
            ),
        )
        for subject in order
        for b in rs.bands[subject]
    ]
    return RulesInForce(
        jurisdiction=where.code,
        name=where.name_zh,
        as_of=day,
        chain=[j.code for j in rs.chain],
        bands=bands,
        penalties=[
            PenaltyInForce(p.id, [t.code for t in p.tiers], p.text, p.instrument)
            for p in rs.penalties
        ],
        exemptions=[ExemptionInForce(e.id, e.kind, e.text) for e in rs.exemptions],
        aggravations=[
            AggravationInForce(
                a.id,
                a.kind,
                a.text,
                a.article,
                a.effective_from.isoformat() if a.effective_from else None,
                a.effective_to.isoformat() if a.effective_to else None,
                a.within_days,
            )
            for a in rs.aggravations
        ],
    )


# rules check and diff -------------------------------------------------------------


@dataclass(frozen=True)
class RuleCheck:
    """What `check` found, and how much it looked at."""

    problems: list[Problem]
    bands: int
    instruments: int


def is_data_folder(path: Path) -> bool:
    return path.is_dir() and (path / "jurisdictions").is_dir()


def check_rules(paths: list[Path], source: str, uows: UnitOfWorkFactory) -> RuleCheck:
    """规则检查: gaps, overlaps and other faults of the rules. The first data/ folder among
    `paths` is the base (else `source`); the other files are laid over it as an import would."""
    full = [p for p in paths if is_data_folder(p)]
    base = rule_cases.read_source(full[0]) if full else read_book(source, uows)
    rest = [p for p in paths if p not in full[:1]]
    book = rule_cases.with_patch(base, rest) if rest else base
    return RuleCheck(rule_cases.check(book), len(book.bands), len(book.instruments))


def diff_days(
    book: RuleBook, first: date, second: date, jurisdiction: str | None = None
) -> list[Change]:
    """规则变化: the rows in force on `second` against those on `first`."""
    return rule_cases.diff_days(book, first, second, jurisdiction_code(book, jurisdiction))


def diff_versions(
    uows: UnitOfWorkFactory, old: str, new: str, source: str, jurisdiction: str | None = None
) -> list[Change]:
    """规则变化: two versions (db, a data/ folder, a file laid over the other side) compared."""
    code = jurisdiction
    if jurisdiction:
        folders = [s for s in (old, new) if s != rule_cases.DB and rule_cases.is_full(Path(s))]
        side = rule_cases.DB if rule_cases.DB in (old, new) else (folders or [source])[0]
        code = jurisdiction_code(read_book(side, uows), jurisdiction)
    return rule_cases.diff_sources(uows, old, new, code)
