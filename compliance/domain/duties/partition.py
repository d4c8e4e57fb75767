"""分区: which worker checks which ledger events, by person, so that each worker's checks
are independent.

A person's accounts (or an account without a person key, or one not in the accounts
file) go to one worker, chosen by a CRC-32 of the platform and the key, the same in
every process; so a person's month, an account's days and every breach of one
subject are summed in one place. What spans persons is merged afterwards: the
payments left unconfirmed, the first draw of a platform, the unit-price breaches of a
currency (docs/platform-duties.md, "Speed").
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

from compliance.domain.duties.accounts import Accounts, Holder
from compliance.logs.platform_records import Account

Share = tuple[dict[str, dict[str, Holder]], set[tuple[str, str]]]


def bucket(platform: str, key: str, workers: int) -> int:
    return zlib.crc32(f"{platform}\x00{key}".encode()) % workers


class Router:
    """Worker `me` of `workers`: its accounts, and whether an event's account is its own."""

    def __init__(self, workers: int, me: int, per_account: bool = False):
        self.workers, self.me, self.per_account = workers, me, per_account
        self.elsewhere: set[tuple[str, str]] = set()  # hashed here by id, another's by person

    def key_of(self, a: Account) -> str:
        return a.person if a.person and not self.per_account else a.id

    def take(self, accounts: Iterable[Account]) -> Iterator[Account]:
        """This worker's accounts, remembered; those of others whose id alone would have
        brought them here noted, so their events are left to the others."""
        for a in accounts:
            if bucket(a.platform, self.key_of(a), self.workers) == self.me:
                yield a
            elif bucket(a.platform, a.id, self.workers) == self.me:
                self.elsewhere.add((a.platform, a.id))

    def owns(self, platform: str, account: str, held: Accounts) -> bool:
        """Whether an event of `account` is this worker's; `held` its accounts."""
        if held.of(platform, account) is not None:
            return True
        if (platform, account) in self.elsewhere:
            return False
        return bucket(platform, account, self.workers) == self.me


def shares(accounts: Accounts, workers: int, per_account: bool = False) -> list[Share]:
    """分给各工: each worker's accounts (by platform and id) and the accounts hashed to it by
    id that are another's by person, as `Router.take` would keep them, made from the
    accounts the driver holds (so that no worker reads the whole accounts file)."""
    held: list[dict[str, dict[str, Holder]]] = [{} for _ in range(workers)]
    elsewhere: list[set[tuple[str, str]]] = [set() for _ in range(workers)]
    for platform, ids in accounts.by_platform.items():
        for id, holder in ids.items():
            key = holder.person if holder.person and not per_account else id
            owner = bucket(platform, key, workers)
            held[owner].setdefault(platform, {})[id] = holder
            if key != id:
                by_id = bucket(platform, id, workers)
                if by_id != owner:
                    elsewhere[by_id].add((platform, id))
    return list(zip(held, elsewhere, strict=True))
