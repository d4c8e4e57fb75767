"""规则库: the rule book to and from the database.

Seeding upserts by primary key, so it is idempotent and leaves rows that did
not come from the files alone. Loading reads every rule table once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Table, and_, bindparam, func, insert, select, update

from compliance.db import trail
from compliance.db.duty_models import DutyRow
from compliance.db.models import (
    AggravationRow,
    BandRow,
    Base,
    ExemptionRow,
    GameClassRow,
    GameTypeRow,
    InstrumentRow,
    JurisdictionRow,
    MultiplierRow,
    PenaltyRow,
    WageRow,
    table_of,
)
from compliance.db.review_models import ReviewRow, WaiverRow
from compliance.domain.rules import (
    Aggravation,
    Band,
    Exemption,
    GameClass,
    GameType,
    Instrument,
    Jurisdiction,
    Multiplier,
    Penalty,
    RuleBook,
    Wage,
    parse_condition,
)
from compliance.domain.tiers import Tier

RULE_ROWS = (
    GameClassRow,
    GameTypeRow,
    JurisdictionRow,
    InstrumentRow,
    BandRow,
    PenaltyRow,
    ExemptionRow,
    AggravationRow,
    WageRow,
    MultiplierRow,
    DutyRow,  # seeded apart (db/dutystore.py); here so that the trail's checks cover it
)
REVIEW_ROWS = (WaiverRow, ReviewRow)
LEVEL_ORDER = {"national": 0, "province": 1, "region": 1, "city": 2, "district": 3}


def upsert(conn: Connection, table: Table, rows: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """Insert new rows and update existing ones by primary key; (inserted, updated)."""
    rows = list(rows)
    if not rows:
        return 0, 0
    keys = [c.name for c in table.primary_key.columns]
    existing = {tuple(r) for r in conn.execute(select(*[table.c[k] for k in keys]))}
    fresh = [r for r in rows if tuple(r[k] for k in keys) not in existing]
    stale = [r for r in rows if tuple(r[k] for k in keys) in existing]
    if fresh:
        conn.execute(insert(table), fresh)
    if stale:
        others = [c for c in rows[0] if c not in keys]
        stmt = (
            update(table)
            .where(and_(*[table.c[k] == bindparam(f"k_{k}") for k in keys]))
            .values({c: bindparam(f"v_{c}") for c in others})
        )
        conn.execute(
            stmt,
            [{**{f"k_{k}": r[k] for k in keys}, **{f"v_{c}": r[c] for c in others}} for r in stale],
        )
    return len(fresh), len(stale)


def save_book(
    conn: Connection, book: RuleBook, actor: str | None = None, reason: str = "seed from data/"
) -> dict[str, tuple[int, int]]:
    """Write every row of the book; returns (inserted, changed) per table.

    Every row added or changed gets an entry in the change trail (who: `actor`
    or $USER; why: `reason`); nothing changed, no entry.
    """
    jurisdictions = sorted(book.jurisdictions.values(), key=lambda j: LEVEL_ORDER.get(j.level, 9))
    plan: list[tuple[type[Base], list[dict[str, Any]]]] = [
        (
            GameClassRow,
            [
                {"code": g.code, "name_zh": g.name_zh, "name_en": g.name_en, "note": g.note}
                for g in book.game_classes.values()
            ],
        ),
        (
            GameTypeRow,
            [
                {"code": g.code, "name_zh": g.name_zh, "game_class": g.game_class}
                for g in book.game_types.values()
            ],
        ),
        (
            JurisdictionRow,
            [
                {
                    "code": j.code,
                    "name_zh": j.name_zh,
                    "name_en": j.name_en,
                    "level": j.level,
                    "parent_code": j.parent,
                    "aliases": list(j.aliases),
                }
                for j in jurisdictions
            ],
        ),
        (
            InstrumentRow,
            [
                {
                    "id": i.id,
                    "jurisdiction_code": i.jurisdiction,
                    "title": i.title,
                    "kind": i.kind,
                    "doc_number": i.doc_number,
                    "issuer": i.issuer,
                    "effective_from": i.effective_from,
                    "effective_to": i.effective_to,
                    "source": i.source,
                    "confidence": i.confidence,
                    "disputed": i.disputed,
                    "version_group": i.version_group,
                    "is_default": i.default,
                    "note": i.note,
                }
                for i in book.instruments.values()
            ],
        ),
        (
            BandRow,
            [
                {
                    "id": b.id,
                    "instrument_id": b.instrument,
                    "jurisdiction_code": b.jurisdiction,
                    "tier": b.tier.code,
                    "subject": b.subject,
                    "condition": b.condition.to_dict() if b.condition else None,
                    "game_classes": sorted(b.game_classes),
                    "role": b.role,
                    "article": b.article,
                    "penalty": b.penalty,
                    "confidence": b.confidence,
                    "note": b.note,
                    "seq": b.seq,
                    "offence": b.offence,
                    "window": b.window,
                    "venues": sorted(b.venues),
                }
                for b in book.bands
            ],
        ),
        (
            PenaltyRow,
            [
                {
                    "id": p.id,
                    "instrument_id": p.instrument,
                    "tiers": [t.code for t in p.tiers],
                    "article": p.article,
                    "text": p.text,
                    "detention_days_max": p.detention_days_max,
                    "fine_min": p.fine_min,
                    "fine_max": p.fine_max,
                    "offence": p.offence,
                    "source": p.source,
                    "confidence": p.confidence,
                    "note": p.note,
                }
                for p in book.penalties
            ],
        ),
        (
            ExemptionRow,
            [
                {
                    "id": e.id,
                    "instrument_id": e.instrument,
                    "jurisdiction_code": e.jurisdiction,
                    "kind": e.kind,
                    "article": e.article,
                    "text": e.text,
                    "requires_no_rake": e.requires_no_rake,
                    "whatever_amount": e.whatever_amount,
                    "source": e.source,
                    "confidence": e.confidence,
                    "note": e.note,
                }
                for e in book.exemptions
            ],
        ),
        (
            AggravationRow,
            [
                {
                    "id": a.id,
                    "instrument_id": a.instrument,
                    "jurisdiction_code": a.jurisdiction,
                    "kind": a.kind,
                    "article": a.article,
                    "text": a.text,
                    "within_days": a.within_days,
                    "effective_from": a.effective_from,
                    "effective_to": a.effective_to,
                    "source": a.source,
                    "confidence": a.confidence,
                }
                for a in book.aggravations
            ],
        ),
        (
            WageRow,
            [
                {
                    "city_code": w.city,
                    "year": w.year,
                    "monthly": w.monthly,
                    "source": w.source,
                    "confidence": w.confidence,
                    "note": w.note,
                }
                for w in book.wages
            ],
        ),
        (
            MultiplierRow,
            [
                {
                    "jurisdiction_code": m.jurisdiction,
                    "game_class": m.game_class,
                    "factor": m.factor,
                    "source": m.source,
                    "confidence": m.confidence,
                }
                for m in book.multipliers
            ],
        ),
    ]
    with trail.recording(conn, [table_of(row) for row in RULE_ROWS], actor, reason) as changed:
        for row, rows in plan:
            upsert(conn, table_of(row), rows)
    return {
        row.__tablename__: (
            changed[(row.__tablename__, "insert")],
            changed[(row.__tablename__, "update")],
        )
        for row, _ in plan
    }


def verify_trail(conn: Connection) -> trail.Verdict:
    """The change trail's chain, and the rule, waiver and review tables against the state
    it gives."""
    return trail.verify(conn, [table_of(row) for row in (*RULE_ROWS, *REVIEW_ROWS)])


def has_rules(conn: Connection) -> bool:
    return bool(conn.execute(select(func.count()).select_from(BandRow)).scalar())


def load_book(conn: Connection) -> RuleBook:
    """Every rule row, read once."""
    book = RuleBook()
    for r in conn.execute(select(table_of(GameClassRow))).mappings():
        book.game_classes[r["code"]] = GameClass(r["code"], r["name_zh"], r["name_en"], r["note"])
    for r in conn.execute(select(table_of(GameTypeRow))).mappings():
        book.game_types[r["code"]] = GameType(r["code"], r["name_zh"], r["game_class"])
    for r in conn.execute(select(table_of(JurisdictionRow))).mappings():
        book.jurisdictions[r["code"]] = Jurisdiction(
            r["code"],
            r["name_zh"],
            r["name_en"],
            r["level"],
            r["parent_code"],
            tuple(r["aliases"] or ()),
        )
    for r in conn.execute(select(table_of(InstrumentRow))).mappings():
        book.instruments[r["id"]] = Instrument(
            id=r["id"],
            jurisdiction=r["jurisdiction_code"],
            title=r["title"],
            kind=r["kind"],
            effective_from=r["effective_from"],
            effective_to=r["effective_to"],
            source=r["source"],
            confidence=r["confidence"],
            doc_number=r["doc_number"],
            issuer=r["issuer"],
            disputed=r["disputed"],
            version_group=r["version_group"],
            default=r["is_default"],
            note=r["note"],
        )
    for r in conn.execute(select(table_of(BandRow)).order_by(BandRow.seq)).mappings():
        book.bands.append(
            Band(
                id=r["id"],
                instrument=r["instrument_id"],
                jurisdiction=r["jurisdiction_code"],
                tier=Tier.parse(r["tier"]),
                subject=r["subject"],
                condition=parse_condition(r["condition"], r["id"]) if r["condition"] else None,
                game_classes=frozenset(r["game_classes"] or ()),
                role=r["role"],
                article=r["article"],
                penalty=r["penalty"],
                confidence=r["confidence"],
                note=r["note"],
                seq=r["seq"],
                offence=r["offence"],
                window=r["window"],
                venues=frozenset(r["venues"] or ()),
            )
        )
    for r in conn.execute(select(table_of(PenaltyRow))).mappings():
        book.penalties.append(
            Penalty(
                id=r["id"],
                instrument=r["instrument_id"],
                tiers=tuple(Tier.parse(t) for t in r["tiers"]),
                article=r["article"],
                text=r["text"],
                detention_days_max=r["detention_days_max"],
                fine_min=r["fine_min"],
                fine_max=r["fine_max"],
                offence=r["offence"],
                source=r["source"],
                confidence=r["confidence"],
                note=r["note"],
            )
        )
    for r in conn.execute(select(table_of(ExemptionRow))).mappings():
        book.exemptions.append(
            Exemption(
                id=r["id"],
                instrument=r["instrument_id"],
                jurisdiction=r["jurisdiction_code"],
                kind=r["kind"],
                article=r["article"],
                text=r["text"],
                requires_no_rake=r["requires_no_rake"],
                whatever_amount=r["whatever_amount"],
                source=r["source"],
                confidence=r["confidence"],
                note=r["note"],
            )
        )
    for r in conn.execute(select(table_of(AggravationRow))).mappings():
        book.aggravations.append(
            Aggravation(
                id=r["id"],
                instrument=r["instrument_id"],
                jurisdiction=r["jurisdiction_code"],
                kind=r["kind"],
                article=r["article"],
                text=r["text"],
                within_days=r["within_days"],
                effective_from=r["effective_from"],
                effective_to=r["effective_to"],
                source=r["source"],
                confidence=r["confidence"],
            )
        )
    for r in conn.execute(select(table_of(WageRow))).mappings():
        book.wages.append(
            Wage(r["city_code"], r["year"], r["monthly"], r["source"], r["confidence"], r["note"])
        )
    for r in conn.execute(select(table_of(MultiplierRow))).mappings():
        book.multipliers.append(
            Multiplier(
                r["jurisdiction_code"], r["game_class"], r["factor"], r["source"], r["confidence"]
            )
        )
    return book
