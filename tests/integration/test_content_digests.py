"""内容摘要: each stored session carries the SHA-256 of its content as read back, and the
manifest's window-sessions digest, made from those, is the one the rows themselves give:
unstamped rows are digested on the fly, the migration stamps them again."""

from __future__ import annotations

import hashlib
from datetime import date

from alembic import command
from sqlalchemy import select, update

from compliance.db import digests, migrate, trail
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, write_log

SESSIONS = digests.SESSIONS
READ_FROM = date(2020, 1, 1)
BEFORE = "d4e6f8a0b2c4"  # the revision before the content digests


def stored(engine) -> dict[tuple[str, str], str | None]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(SESSIONS.c.platform, SESSIONS.c.session_id, SESSIONS.c.content_sha256)
        )
        return {(p, s): c for p, s, c in rows}


def recomputed(engine) -> dict[tuple[str, str], str]:
    """Each row's content text made afresh, every column but the excluded ones, as plain JSON."""
    keep = [c for c in SESSIONS.c if c.name not in digests.NOT_CONTENT]
    with engine.connect() as conn:
        found = {}
        for row in conn.execute(select(SESSIONS)).mappings():
            text = trail.canonical({c.name: trail.plain(row[c.name]) for c in keep})
            found[(row["platform"], row["session_id"])] = hashlib.sha256(text.encode()).hexdigest()
        return found


def window_digest(engine) -> tuple[str, int]:
    with engine.connect() as conn:
        return digests.window_sessions_digest(conn, {"sim"}, READ_FROM)


def test_stamped_digests_are_the_rows_own_and_the_fallback_and_migration_agree(
    any_db_url, tmp_path
):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_log(SimulationSpec(games=("douniu",), sessions=40, seed=3), str(first))
    write_log(SimulationSpec(games=("douniu",), sessions=30, seed=9), str(second))
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    services.audit(SqlUnitOfWork(engine), [str(first)], services.AuditOptions())
    services.audit(SqlUnitOfWork(engine), [str(second)], services.AuditOptions(workers=2))
    stamps = stored(engine)
    assert len(stamps) >= 60 and None not in stamps.values()
    assert stamps == recomputed(engine)
    made = window_digest(engine)
    assert made[1] == len(stamps)

    with engine.begin() as conn:  # rows stored before the column was stamped
        conn.execute(
            update(SESSIONS)
            .where(SESSIONS.c.session_id.like("sim-3-%"))
            .values(content_sha256=None)
        )
    assert None in stored(engine).values()
    assert window_digest(engine) == made

    with engine.begin() as conn:  # a session's content changed changes the digest
        one = conn.execute(select(SESSIONS.c.session_id).limit(1)).scalar_one()
        conn.execute(
            update(SESSIONS)
            .where(SESSIONS.c.session_id == one)
            .values(rounds=SESSIONS.c.rounds + 1, content_sha256=None)
        )
    changed = window_digest(engine)
    assert changed[0] != made[0] and changed[1] == made[1]

    config = migrate.alembic_config(engine)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, BEFORE)
    migrate.upgrade(engine)
    assert None not in stored(engine).values()
    assert stored(engine) == recomputed(engine)
    assert window_digest(engine) == changed
    engine.dispose()
