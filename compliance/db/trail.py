"""变更记录: the hash-chained trail of every change made to the rule, waiver and review tables.

Each entry holds who, when, why, which row, and the row before and after, as
canonical JSON; its hash is SHA-256 over the previous entry's hash and that
JSON, so an entry edited or removed breaks the chain. Replaying the `after`
values gives the state the rule tables should be in: a row changed behind the
tool's back differs from it, and `verify` names the row. Columns a later
migration adds are compared from the first entry that records them.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Connection, Table, func, insert, select, text

from compliance.db.models import RuleChangeRow, table_of
from compliance.domain.trail import Verdict, default_actor

CHANGES = table_of(RuleChangeRow)
GENESIS = "0" * 64


def plain(value: Any) -> Any:
    """A column value as JSON, the same whichever database it came from."""
    if isinstance(value, Decimal):
        return (
            format(value.normalize(), "f")
            if value == value.to_integral_value()
            else str(value.normalize())
        )
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
SORTED = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def canonical(obj: Any) -> str:
    return SORTED.encode(obj)


def row_key(table: Table, row: Mapping[str, Any]) -> str:
    return "|".join(str(row[c.name]) for c in table.primary_key.columns)


def snapshot(
    conn: Connection, table: Table, where: ColumnElement[bool] | None = None
) -> dict[str, dict[str, Any]]:
    """Every row of a table (or those `where` selects) as plain JSON, by key."""
    stmt = select(table) if where is None else select(table).where(where)
    return {
        row_key(table, dict(r)): {k: plain(v) for k, v in r.items()}
        for r in conn.execute(stmt).mappings()
    }


def _utc(at: datetime) -> str:
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def entry_hash(prev: str, entry: dict[str, Any]) -> str:
    content = {
        "at": _utc(entry["at"]),
        "actor": entry["actor"],
        "reason": entry["reason"],
        "action": entry["action"],
        "table": entry["table_name"],
        "key": entry["row_key"],
        "before": entry["before"],
        "after": entry["after"],
    }
    return hashlib.sha256((prev + canonical(content)).encode()).hexdigest()


def _last_hash(conn: Connection) -> str | None:
    return conn.execute(select(CHANGES.c.hash).order_by(CHANGES.c.id.desc()).limit(1)).scalar()


@contextmanager
def recording(
    conn: Connection,
    tables: Sequence[Table],
    actor: str | None = None,
    reason: str = "",
    where: Mapping[str, ColumnElement[bool]] | None = None,
) -> Iterator[Counter]:
    """Append an entry for every row the block adds, changes or deletes (`delete`, with no
    `after`); none when nothing changed.

    `where` limits, by table name, the rows compared to those the block may touch (a
    review changes one row of many). Yields a Counter that, after the block, holds the
    entries by (table, action).
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"LOCK TABLE {CHANGES.name} IN EXCLUSIVE MODE"))
    limits = dict(where or {})
    if _last_hash(conn) is None:
        limits = {}  # the trail's first entries: every row there is, as its baseline
    before = {t.name: snapshot(conn, t, limits.get(t.name)) for t in tables}
    changed: Counter = Counter()
    yield changed
    at = datetime.now(UTC)
    who = actor or default_actor()
    entries: list[dict[str, Any]] = []
    prev = _last_hash(conn)
    if prev is None:
        prev = GENESIS
        for t in tables:
            for key, row in before[t.name].items():
                entries.append(
                    _entry(
                        at,
                        "system",
                        "rows present before the change trail",
                        "baseline",
                        t.name,
                        key,
                        None,
                        row,
                    )
                )
    for t in tables:
        old = before[t.name]
        now = snapshot(conn, t, limits.get(t.name))
        for key, row in now.items():
            if old.get(key) != row:
                action = "insert" if key not in old else "update"
                changed[(t.name, action)] += 1
                entries.append(_entry(at, who, reason, action, t.name, key, old.get(key), row))
        for key in old.keys() - now.keys():
            changed[(t.name, "delete")] += 1
            entries.append(_entry(at, who, reason, "delete", t.name, key, old[key], None))
    for entry in entries:
        entry["prev_hash"] = prev
        entry["hash"] = prev = entry_hash(prev, entry)
    if entries:
        conn.execute(insert(CHANGES), entries)


def _entry(at, actor, reason, action, table, key, before, after) -> dict[str, Any]:
    return {
        "at": at,
        "actor": actor,
        "reason": reason,
        "action": action,
        "table_name": table,
        "row_key": key,
        "before": before,
        "after": after,
    }


def verify(conn: Connection, tables: Sequence[Table]) -> Verdict:
    """Recompute the chain, then compare the rule tables with the state the trail gives."""
    problems: list[str] = []
    state: dict[tuple[str, str], dict[str, Any] | None] = {}
    prev = GENESIS
    count = 0
    for entry in conn.execute(select(CHANGES).order_by(CHANGES.c.id)).mappings():
        count += 1
        where = f"trail entry {entry['id']} ({entry['table_name']} {entry['row_key']})"
        if entry["prev_hash"] != prev:
            problems.append(f"{where}: chain broken, previous hash does not match")
        if entry_hash(entry["prev_hash"], dict(entry)) != entry["hash"]:
            problems.append(f"{where}: hash does not match its content (entry edited)")
        prev = entry["hash"]
        state[(entry["table_name"], entry["row_key"])] = entry["after"]
    rows = 0
    for t in tables:
        current = snapshot(conn, t)
        rows += len(current)
        for key, row in current.items():
            expected = state.get((t.name, key))
            if expected is None:
                problems.append(f"{t.name} {key}: not in the trail (added outside the tool)")
            elif any(row[k] != expected[k] for k in row.keys() & expected.keys()):
                fields = sorted(k for k in row.keys() & expected.keys() if row[k] != expected[k])
                detail = "; ".join(
                    f"{f}: trail {expected.get(f)!r}, database {row.get(f)!r}" for f in fields
                )
                problems.append(f"{t.name} {key}: changed outside the tool ({detail})")
        for (name, key), expected in state.items():
            if name == t.name and expected is not None and key not in current:
                problems.append(f"{t.name} {key}: deleted outside the tool")
    return Verdict(count, rows, tuple(problems))


def entries(conn: Connection, limit: int | None = None) -> list[dict[str, Any]]:
    """The newest entries first."""
    stmt = select(CHANGES).order_by(CHANGES.c.id.desc())
    if limit:
        stmt = stmt.limit(limit)
    return [dict(r) for r in conn.execute(stmt).mappings()]


def count(conn: Connection) -> int:
    return conn.execute(select(func.count()).select_from(CHANGES)).scalar_one()
