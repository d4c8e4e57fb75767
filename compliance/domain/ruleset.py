"""适用规则: the rules in force for one jurisdiction on one day.

A `Resolver` is built once per run from the rule book; it answers
"which bands, penalties and exemptions apply in 湖南 on 2026-03-01?" and
remembers the answer, so each (jurisdiction, day) is resolved once. A city's
bands override its province's where the city has any; the nation's bands (the
criminal lines for organisers and platforms) apply beside them everywhere on
the mainland; statutory penalties come from the national statute in force
that day. A six-digit code the book has no file for resolves up by its first
four digits to a city, else by its first two to a province (430102 → 湖南).
A `region` (台湾, 香港, 澳门) is outside mainland law: its chain stops at
itself, so its ruleset holds none of the nation's rows.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from compliance.domain.rules import (
    Aggravation,
    Band,
    Exemption,
    Instrument,
    Jurisdiction,
    Penalty,
    RuleBook,
)
from compliance.domain.tiers import Tier
from compliance.errors import JurisdictionError, did_you_mean

ONE_DAY = timedelta(days=1)
NATIONAL = "000000"
REGION = "region"  # outside mainland law: the nation's rows stop above it


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Everything that judges one jurisdiction on one day."""

    jurisdiction: Jurisdiction
    chain: tuple[Jurisdiction, ...]
    bands: Mapping[str, tuple[Band, ...]]
    instruments: Mapping[str, Instrument]
    penalties: tuple[Penalty, ...]
    exemptions: tuple[Exemption, ...]
    aggravations: tuple[Aggravation, ...]
    multipliers: Mapping[str, Decimal]
    wage_chain: tuple[str, ...]

    def bands_for(self, subject: str) -> tuple[Band, ...]:
        return self.bands.get(subject, ())

    def defines(self, subject: str, tier: Tier) -> bool:
        return any(b.tier == tier for b in self.bands_for(subject))

    def penalty_for(self, tier: Tier, offence: str | None = None) -> Penalty | None:
        """The statutory range for a tier, for the band's offence where rows name one."""
        fits = [p for p in self.penalties if tier in p.tiers]
        return next((p for p in fits if p.offence == offence), fits[0] if fits else None)

    def multiplier(self, game_class: str | None) -> Decimal:
        return self.multipliers.get(game_class or "", Decimal(1))


class UnknownJurisdictionError(JurisdictionError):
    """A name no jurisdiction has; the "did you mean" is looked for only when it is shown."""

    def __init__(self, name: str, names: Callable[[], list[str]]):
        super().__init__(name)
        self.name = name
        self._names = names

    def __str__(self) -> str:
        return self.plain + did_you_mean(self.name, self._names())

    @property
    def plain(self) -> str:
        """Without the suggestion: what a stored finding says (a guess is for a person typing)."""
        return f"unknown jurisdiction {self.name!r}"


def unknown_place(exc: JurisdictionError) -> str:
    """Why a place could not be judged, as a finding states it."""
    return exc.plain if isinstance(exc, UnknownJurisdictionError) else str(exc)


class Resolver:
    """Jurisdiction names to codes, and (code, day) to a memoised Ruleset."""

    def __init__(self, book: RuleBook, versions: Mapping[str, str] | None = None):
        self.book = book
        self.versions = dict(versions or {})
        self._aliases: dict[str, str] = {}
        for j in book.jurisdictions.values():
            for name in (j.code, j.name_zh, j.name_en, *j.aliases):
                if name:
                    self._aliases[name.strip().lower()] = j.code
        self._cache: dict[tuple[str, int], Ruleset] = {}
        spans: list[tuple[date | None, date | None]] = [
            (i.effective_from, i.effective_to) for i in book.instruments.values()
        ] + [(a.effective_from, a.effective_to) for a in book.aggravations]
        self._changes = sorted(
            {start for start, _ in spans if start} | {end + ONE_DAY for _, end in spans if end}
        )
        self._by_jurisdiction: dict[str, list[Band]] = {}
        for band in book.bands:
            self._by_jurisdiction.setdefault(band.jurisdiction, []).append(band)

    def lookup(self, name: str | None) -> Jurisdiction:
        """A jurisdiction by code, Chinese or English name, or alias (`hunan`, `CN-HN`); a
        code without a file by its city or province (`resolved_up`); None: the nation."""
        if name is None:
            return self.national
        key = name.strip().lower()
        code = self._aliases.get(key) or self._prefix(key)
        if code is None:
            raise UnknownJurisdictionError(name, self.names)
        return self.book.jurisdictions[code]

    def names(self) -> list[str]:
        """Every code, name and alias a jurisdiction is found by."""
        return [
            name
            for j in self.book.jurisdictions.values()
            for name in (j.code, j.name_zh, j.name_en, *j.aliases)
            if name
        ]

    @property
    def national(self) -> Jurisdiction:
        """全国: the place judged where a session names none."""
        found = self.book.jurisdictions.get(NATIONAL)
        if found is None:
            raise JurisdictionError("the rule book has no national jurisdiction (000000)")
        return found

    def _prefix(self, code: str) -> str | None:
        if len(code) != 6 or not code.isdigit() or code.startswith("00"):
            return None
        for parent in (code[:4] + "00", code[:2] + "0000"):
            if parent in self.book.jurisdictions:
                return parent
        return None

    def resolved_up(self, name: str | None) -> bool:
        """上级归属: whether `name` is a code found only by its city's or province's digits."""
        return name is not None and name.strip().lower() not in self._aliases

    def within_mainland(self, j: Jurisdiction) -> bool:
        """境内: whether the nation's law reaches `j` (its chain ends at 000000)."""
        return self.chain(j)[-1].code == NATIONAL

    def chain(self, j: Jurisdiction) -> tuple[Jurisdiction, ...]:
        """The place and those above it whose rows apply; a `region` (台湾, 香港, 澳门) stops it."""
        out = [j]
        while (
            out[-1].level != REGION and out[-1].parent and out[-1].parent in self.book.jurisdictions
        ):
            out.append(self.book.jurisdictions[out[-1].parent])
        return tuple(out)

    def ruleset(self, code: str, day: date) -> Ruleset:
        """Resolved once per jurisdiction and period in which no instrument changes."""
        key = (code, bisect_right(self._changes, day))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._resolve(self.book.jurisdictions[code], day)
        return found

    def _in_force(self, day: date) -> dict[str, Instrument]:
        live = {i.id: i for i in self.book.instruments.values() if i.in_force(day)}
        groups: dict[str, list[Instrument]] = {}
        for inst in live.values():
            if inst.version_group:
                groups.setdefault(inst.version_group, []).append(inst)
        for group, members in groups.items():
            chosen = self.versions.get(group)
            keep = next((m for m in members if m.id == chosen), None)
            keep = keep or next((m for m in members if m.default), members[0])
            for m in members:
                if m is not keep:
                    del live[m.id]
        return live

    def _resolve(self, j: Jurisdiction, day: date) -> Ruleset:
        chain = self.chain(j)
        live = self._in_force(day)
        picked: dict[str, list[Band]] = {}
        for level in chain:
            mine = [b for b in self._by_jurisdiction.get(level.code, ()) if b.instrument in live]
            for subject in {b.subject for b in mine}:
                if subject not in picked or level.code == NATIONAL:
                    chosen = [b for b in mine if b.subject == subject]
                    picked.setdefault(subject, []).extend(chosen)
        bands = {
            subject: tuple(sorted(chosen, key=lambda b: (b.tier, b.seq)))
            for subject, chosen in picked.items()
        }
        codes = {level.code for level in chain}
        penalties = tuple(p for p in self.book.penalties if p.instrument in live)
        exemptions = tuple(
            e for e in self.book.exemptions if e.instrument in live and e.jurisdiction in codes
        )
        aggravations = tuple(
            a
            for a in self.book.aggravations
            if a.instrument in live and a.jurisdiction in codes and a.in_force(day)
        )
        multipliers: dict[str, Decimal] = {}
        for level in reversed(chain):
            for m in self.book.multipliers:
                if m.jurisdiction == level.code:
                    multipliers[m.game_class] = m.factor
        return Ruleset(
            jurisdiction=j,
            chain=chain,
            bands=bands,
            instruments=live,
            penalties=penalties,
            exemptions=exemptions,
            aggravations=aggravations,
            multipliers=multipliers,
            wage_chain=tuple(level.code for level in chain),
        )

    def wage(self, ruleset: Ruleset, year: int):
        """The nearest city's latest monthly wage for `year` or before, or None."""
        for code in ruleset.wage_chain:
            rows = [w for w in self.book.wages if w.city == code and w.year <= year]
            if rows:
                return max(rows, key=lambda w: w.year)
        return None
