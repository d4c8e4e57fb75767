"""假名化: player ids and names replaced by keyed digests (HMAC-SHA-256), stable across every
output made with one key, so that two pseudonymised outputs can be joined but not read
back without the key. Room owners, rooms and platforms keep their ids: they are whom
the operator acts on. No I/O here: the key comes as bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

MIN_KEY_BYTES = 16
PLAYER_PREFIX = "player:"


class Pseudonyms:
    def __init__(self, key: bytes):
        if len(key) < MIN_KEY_BYTES:
            raise ValueError(f"a pseudonymisation key needs at least {MIN_KEY_BYTES} bytes")
        self._key = key
        self._ids: dict[str, str] = {}

    @property
    def key_fingerprint(self) -> str:
        """What names the key without giving it away: SHA-256 of it, 16 hex digits."""
        return hashlib.sha256(self._key).hexdigest()[:16]

    def _mac(self, kind: bytes, text: str) -> str:
        return hmac.new(self._key, kind + b"\0" + text.encode(), hashlib.sha256).hexdigest()

    def id(self, player: str) -> str:
        found = self._ids.get(player)
        if found is None:
            found = self._ids[player] = "p-" + self._mac(b"id", player)[:16]
        return found

    def name(self, name: str | None) -> str:
        return "" if not name else "n-" + self._mac(b"name", name)[:12]

    def subject(self, subject: str) -> str:
        if subject.startswith(PLAYER_PREFIX):
            return PLAYER_PREFIX + self.id(subject[len(PLAYER_PREFIX) :])
        return subject

    def finding(self, row: dict[str, Any]) -> dict[str, Any]:
        """A finding's JSON with every player id and name replaced, in its detail text too."""
        out = dict(row)
        ids = set(row.get("players") or ())
        for key in ("claimed", "expected"):
            ids |= set(row.get(key) or {})
        if row.get("player"):
            ids.add(row["player"])
            out["player"] = self.id(row["player"])
        if str(row.get("subject", "")).startswith(PLAYER_PREFIX):
            ids.add(row["subject"][len(PLAYER_PREFIX) :])
            out["subject"] = self.subject(row["subject"])
        if row.get("players"):
            out["players"] = [self.id(p) for p in row["players"]]
        for key in ("claimed", "expected"):
            if row.get(key):
                out[key] = {self.id(p): v for p, v in row[key].items()}
        if "name" in row:
            out["name"] = self.name(row.get("name"))
        if ids and row.get("detail"):
            out["detail"] = self.text(row["detail"], ids)
        return out

    def text(self, text: str, ids: set[str]) -> str:
        """Each of these ids, where it stands as a word of the text, replaced."""
        pattern = re.compile(
            r"(?<![\w-])("
            + "|".join(map(re.escape, sorted(ids, key=len, reverse=True)))
            + r")(?![\w-])"
        )
        return pattern.sub(lambda m: self.id(m[1]), text)
