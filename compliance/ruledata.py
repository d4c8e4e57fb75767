"""规则数据文件: read the reviewed TOML files in data/ into a RuleBook.

The format is docs/rules-data.md. Every malformed row raises RulesError
naming the file and the row id, so a bad edit never seeds half a table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from compliance.domain.periods import valid_window
from compliance.domain.rules import (
    AGGRAVATION_KINDS,
    CONFIDENCE,
    SUBJECTS,
    VENUES,
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
    finite_number,
    jurisdiction_code,
    parse_condition,
    whole_number,
)
from compliance.domain.tiers import Tier
from compliance.errors import RulesError
from compliance.resources import data_dir
from compliance.streams import read_all

DATA_DIR = data_dir()


def data_files(root: Path = DATA_DIR) -> list[Path]:
    return sorted((root / "jurisdictions").glob("*.toml"))


def load_book(root: Path = DATA_DIR, extra: Iterable[Path] = ()) -> RuleBook:
    """The whole rule book from data/ (and any extra jurisdiction files)."""
    book = RuleBook()
    games = root / "games.toml"
    if games.exists():
        add_games(book, read_toml(games), games.name)
    for path in [*data_files(root), *extra]:
        add_jurisdiction_file(book, read_toml(path), path.name)
    check_references(book)
    return book


def read_toml(path: Path) -> dict[str, Any]:
    """A rule file's TOML (standard input for `-`), or a RulesError naming the file."""
    try:
        return tomllib.loads(read_all(path).decode("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None


def _need(row: dict[str, Any], key: str, where: str):
    if key not in row or row[key] in ("", None):
        raise RulesError(f"{where}: missing {key}")
    return row[key]


def _confidence(row: dict[str, Any], where: str, default: str | None = None) -> str:
    value = row.get("confidence", default)
    if value not in CONFIDENCE:
        raise RulesError(f"{where}: confidence must be H, M or L, not {value!r}")
    return value


def _tier(code: str, where: str) -> Tier:
    try:
        return Tier.parse(code)
    except ValueError as exc:
        raise RulesError(f"{where}: {exc}") from None


def _date(value: Any, where: str) -> date | None:
    return None if value is None else _parse_date(value, where)


def _parse_date(value: Any, where: str) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise RulesError(f"{where}: bad date {value!r}") from None


def _year(raw: Any, where: str) -> int:
    year = whole_number(raw, f"{where} year")
    assert year is not None
    return year


def add_games(book: RuleBook, doc: dict[str, Any], name: str) -> None:
    for row in doc.get("game_class", []):
        code = _need(row, "code", name)
        book.game_classes[code] = GameClass(
            code, row.get("name_zh", ""), row.get("name_en", ""), row.get("note", "")
        )
    for row in doc.get("game_type", []):
        where = f"{name} game_type {row.get('code')}"
        book.game_types[row["code"]] = GameType(
            row["code"], row.get("name_zh", ""), _need(row, "class", where)
        )


def add_jurisdiction_file(book: RuleBook, doc: dict[str, Any], name: str) -> None:
    """Add one jurisdiction file's rows; ids must be new to the book."""
    head = doc.get("jurisdiction")
    if not isinstance(head, dict):
        raise RulesError(f"{name}: no [jurisdiction] table")
    code = jurisdiction_code(_need(head, "code", name), name)
    if code in book.jurisdictions:
        raise RulesError(f"{name}: jurisdiction {code} defined twice")
    book.jurisdictions[code] = Jurisdiction(
        code=code,
        name_zh=_need(head, "name_zh", name),
        name_en=head.get("name_en", ""),
        level=_need(head, "level", name),
        parent=jurisdiction_code(head["parent"], f"{name} parent") if head.get("parent") else None,
        aliases=tuple(head.get("aliases", [])),
    )
    for row in doc.get("instrument", []):
        where = f"{name} instrument {row.get('id')}"
        iid = _need(row, "id", where)
        if iid in book.instruments:
            raise RulesError(f"{where}: id used twice")
        book.instruments[iid] = Instrument(
            id=iid,
            jurisdiction=code,
            title=_need(row, "title", where),
            kind=_need(row, "kind", where),
            effective_from=_parse_date(_need(row, "effective_from", where), where),
            effective_to=_date(row.get("effective_to"), where),
            source=_need(row, "source", where),
            confidence=_confidence(row, where),
            doc_number=row.get("doc_number", ""),
            issuer=row.get("issuer", ""),
            disputed=bool(row.get("disputed", False)),
            version_group=row.get("version_group", ""),
            default=bool(row.get("default", True)),
            note=row.get("note", ""),
        )
    seen = {b.id for b in book.bands}
    for seq, row in enumerate(doc.get("band", [])):
        where = f"{name} band {row.get('id')}"
        bid = _need(row, "id", where)
        if bid in seen:
            raise RulesError(f"{where}: id used twice")
        seen.add(bid)
        subject = row.get("subject", "player")
        if subject not in SUBJECTS:
            raise RulesError(f"{where}: unknown subject {subject!r}")
        instrument = _need(row, "instrument", where)
        book.bands.append(
            Band(
                id=bid,
                instrument=instrument,
                jurisdiction=code,
                tier=_tier(_need(row, "tier", where), where),
                subject=subject,
                condition=parse_condition(row["when"], where) if "when" in row else None,
                game_classes=frozenset(row.get("game_classes", [])),
                role=row.get("role"),
                article=row.get("article", ""),
                penalty=row.get("penalty", ""),
                confidence=_confidence(row, where, default="M"),
                note=row.get("note", ""),
                seq=seq,
                offence=row.get("offence"),
                window=_window(row, where),
                venues=_venues(row, where),
            )
        )
    for row in doc.get("penalty", []):
        where = f"{name} penalty {row.get('id')}"
        book.penalties.append(
            Penalty(
                id=_need(row, "id", where),
                instrument=_need(row, "instrument", where),
                tiers=tuple(_tier(t, where) for t in _need(row, "tiers", where)),
                article=row.get("article", ""),
                text=_need(row, "text", where),
                detention_days_max=whole_number(
                    row.get("detention_days_max"), f"{where} detention_days_max"
                ),
                fine_min=whole_number(row.get("fine_min"), f"{where} fine_min"),
                fine_max=whole_number(row.get("fine_max"), f"{where} fine_max"),
                offence=row.get("offence"),
                source=row.get("source", ""),
                confidence=_confidence(row, where, default="M"),
                note=row.get("note", ""),
            )
        )
    for row in doc.get("exemption", []):
        where = f"{name} exemption {row.get('id')}"
        book.exemptions.append(
            Exemption(
                id=_need(row, "id", where),
                instrument=_need(row, "instrument", where),
                jurisdiction=code,
                kind=_need(row, "kind", where),
                article=row.get("article", ""),
                text=_need(row, "text", where),
                requires_no_rake=bool(row.get("requires_no_rake", True)),
                whatever_amount=bool(row.get("whatever_amount", False)),
                source=row.get("source", ""),
                confidence=_confidence(row, where, default="M"),
                note=row.get("note", ""),
            )
        )
    for row in doc.get("aggravation", []):
        where = f"{name} aggravation {row.get('id')}"
        kind = _need(row, "kind", where)
        if kind not in AGGRAVATION_KINDS:
            raise RulesError(f"{where}: unknown kind {kind!r}")
        start = _date(row.get("effective_from"), f"{where} effective_from")
        end = _date(row.get("effective_to"), f"{where} effective_to")
        if start and end and end < start:
            raise RulesError(f"{where}: effective_to {end} is before effective_from {start}")
        book.aggravations.append(
            Aggravation(
                id=_need(row, "id", where),
                instrument=_need(row, "instrument", where),
                jurisdiction=code,
                kind=kind,
                article=row.get("article", ""),
                text=_need(row, "text", where),
                within_days=whole_number(row.get("within_days"), f"{where} within_days"),
                effective_from=start,
                effective_to=end,
                source=row.get("source", ""),
                confidence=_confidence(row, where, default="M"),
            )
        )
    for row in doc.get("wage", []):
        where = f"{name} wage {row.get('city')} {row.get('year')}"
        book.wages.append(
            Wage(
                city=str(_need(row, "city", where)),
                year=_year(_need(row, "year", where), where),
                monthly=finite_number(_need(row, "monthly", where), f"{where} monthly"),
                source=_need(row, "source", where),
                confidence=_confidence(row, where),
                note=row.get("note", ""),
            )
        )
    for row in doc.get("multiplier", []):
        where = f"{name} multiplier {row.get('game_class')}"
        book.multipliers.append(
            Multiplier(
                jurisdiction=code,
                game_class=_need(row, "game_class", where),
                factor=finite_number(_need(row, "factor", where), f"{where} factor"),
                source=row.get("source", ""),
                confidence=_confidence(row, where, default="M"),
            )
        )


def check_references(book: RuleBook) -> None:
    """Every band, penalty and exemption names an instrument that exists."""
    for kind, rows in (
        ("band", book.bands),
        ("penalty", book.penalties),
        ("exemption", book.exemptions),
        ("aggravation", book.aggravations),
    ):
        for row in rows:
            if row.instrument not in book.instruments:
                raise RulesError(f"{kind} {row.id}: unknown instrument {row.instrument!r}")
    for j in book.jurisdictions.values():
        if j.parent and j.parent not in book.jurisdictions:
            raise RulesError(f"jurisdiction {j.code}: unknown parent {j.parent}")


def _window(row: dict, where: str) -> str | None:
    window = row.get("window")
    if window is not None and not (isinstance(window, str) and valid_window(window)):
        raise RulesError(
            f'{where}: window must be "N months", "N years" or "cumulative", not {window!r}'
        )
    return window


def _venues(row: dict, where: str) -> frozenset[str]:
    venues = row.get("venues", [])
    if not isinstance(venues, list) or any(v not in VENUES for v in venues):
        raise RulesError(f"{where}: venues must be a list of {', '.join(VENUES)}, not {venues!r}")
    return frozenset(venues)
