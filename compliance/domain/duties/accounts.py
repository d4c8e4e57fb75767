"""账户表: what the checks keep of each account, compact, looked up by platform and id.

A million accounts are held as a million small untracked Structs of what the checks
read (no format, no verification reference), their repeated strings (person keys,
statuses, kinds, platforms) and dates shared, in one dict per platform: about a
third of the decoded records' memory (docs/performance.md, "Platform duties").
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from datetime import date, datetime

import msgspec

from compliance.logs.platform_records import Account


class Holder(msgspec.Struct, frozen=True, gc=False):
    """账户: an account as the checks see it; `status` None where no verification is given."""

    kind: str
    person: str | None
    real_name: str | None
    status: str | None
    verified_at: datetime | None
    birth_date: date | None
    devices: tuple[str, ...]


class Accounts:
    """Every account given, by platform and id."""

    def __init__(self, records: Iterable[Account] = ()):
        self.by_platform: dict[str, dict[str, Holder]] = {}
        self._shared: dict[object, object] = {}
        for a in records:
            self.add(a)

    @classmethod
    def held(cls, by_platform: dict[str, dict[str, Holder]]) -> Accounts:
        """A table of accounts already made (a worker's share, domain/duties/partition.py)."""
        table = cls()
        table.by_platform = by_platform
        return table

    def _one(self, value):
        """One object for equal dates and times (a million accounts share a few thousand)."""
        if value is None:
            return None
        return self._shared.setdefault((value, getattr(value, "tzinfo", None)), value)

    def add(self, a: Account) -> None:
        v = a.verification
        held = Holder(
            sys.intern(a.kind),
            sys.intern(a.person) if a.person is not None else None,
            sys.intern(a.real_name) if a.real_name is not None else None,
            sys.intern(v.status) if v is not None else None,
            self._one(v.at) if v is not None else None,
            self._one(a.birth_date),
            tuple(map(sys.intern, a.devices)) if a.devices else (),
        )
        platform = sys.intern(a.platform)
        self.by_platform.setdefault(platform, {})[a.id] = held

    def of(self, platform: str, id: str) -> Holder | None:
        found = self.by_platform.get(platform)
        return None if found is None else found.get(id)

    def get(self, key: tuple[str, str]) -> Holder | None:
        return self.of(*key)

    def __getitem__(self, key: tuple[str, str]) -> Holder:
        return self.by_platform[key[0]][key[1]]

    def items(self) -> Iterator[tuple[tuple[str, str], Holder]]:
        for platform, ids in self.by_platform.items():
            for id, held in ids.items():
                yield (platform, id), held

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for platform, ids in self.by_platform.items():
            for id in ids:
                yield platform, id

    def __len__(self) -> int:
        return sum(len(ids) for ids in self.by_platform.values())

    def platforms(self) -> set[str]:
        return {p for p, ids in self.by_platform.items() if ids}
