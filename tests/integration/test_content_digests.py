"""内容摘要与日摘要: each stored session carries the SHA-256 of its content in a canonical
form (made in Python before storing: the same on SQLite and PostgreSQL), and the manifest's
window-sessions digest is made from `window_session_days`, kept exact through re-audits,
workers and the migration that fills it."""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

from alembic import command
from sqlalchemy import func, select, update

from compliance.db import digests, migrate, window_session_days
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from tests.sample_logs import douniu_rounds, session_dict

SESSIONS = digests.SESSIONS
DAYS = window_session_days.TABLE
CONTENT = "e7f9a1b3c5d7"  # the revision before the day rows (content digests as read back)
BEFORE = "d4e6f8a0b2c4"  # the revision before the content digests
OFFSETS = ["+08:00", "+00:00", "-05:00", "+05:45"]
FIRST = date(2026, 3, 1)


def session(sid, day, players, *, offset="+08:00", hour=20, seed=1, platform="p1", owner="o1"):
    rounds = douniu_rounds(seed, players, 3, base=10, grab=1, bets=[1, 2])
    return session_dict(
        sid,
        "douniu",
        players,
        rounds,
        platform=platform,
        point_value=0.5,
        started_at=f"{day.isoformat()}T{hour:02d}:15:30.25{offset}",
        jurisdiction="430000",
        owner={"id": owner, "room_fee": 20, "fee_basis": "stakes"},
    )


def random_session(rng, sid):
    players = rng.sample([f"u{i}" for i in range(8)], rng.randint(2, 5))
    return session(
        sid,
        FIRST + timedelta(days=rng.randrange(20)),
        players,
        offset=rng.choice(OFFSETS),
        hour=rng.randrange(24),
        seed=rng.randrange(1000),
        platform=rng.choice(["p1", "p1", "p2"]),
        owner=rng.choice(["o1", "o2"]),
    )


def write(path, sessions) -> str:
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sessions))
    return str(path)


def audit(engine, path, **options):
    return services.audit(SqlUnitOfWork(engine), [path], services.AuditOptions(**options))


def stamps(engine) -> dict[tuple[str, str], str | None]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(SESSIONS.c.platform, SESSIONS.c.session_id, SESSIONS.c.content_sha256)
        )
        return {(p, s): c for p, s, c in rows}


def read_back(engine) -> dict[tuple[str, str], str]:
    """Each stored session's content digest made afresh from its row as read back."""
    with engine.connect() as conn:
        found = {}
        for platform in conn.scalars(select(SESSIONS.c.platform).distinct()):
            ids = list(
                conn.scalars(select(SESSIONS.c.session_id).where(SESSIONS.c.platform == platform))
            )
            for sid, content in digests.content_digests(conn, platform, ids).items():
                found[(platform, sid)] = content
        return found


def day_rows(engine) -> dict:
    with engine.connect() as conn:
        rows = conn.execute(select(DAYS.c.platform, DAYS.c.day, DAYS.c.sessions, DAYS.c.digest_sum))
        return {(p, d): (n, total) for p, d, n, total in rows}


def recomputed(engine) -> dict:
    with engine.connect() as conn:
        return window_session_days.recomputed(conn)


def window_digest(engine, read_from=None) -> tuple[str, int]:
    with engine.connect() as conn:
        return digests.window_sessions_digest(conn, {"p1", "p2"}, read_from)


def downgrade(engine, revision):
    config = migrate.alembic_config(engine)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, revision)


def test_the_same_logs_give_the_same_digests_on_sqlite_and_postgresql(sqlite_url, pg_url, tmp_path):
    rng = random.Random(4)
    log = write(tmp_path / "a.jsonl", [random_session(rng, f"s{i}") for i in range(30)])
    lite, pg = make_engine(sqlite_url), make_engine(pg_url)
    ensure_schema(lite)
    migrate.upgrade(pg)
    one = audit(lite, log)
    two = audit(pg, log, workers=2, batch_size=4)
    assert stamps(lite) == stamps(pg) and len(stamps(lite)) == 30
    assert day_rows(lite) == day_rows(pg)
    assert window_digest(lite) == window_digest(pg)
    assert window_digest(lite, FIRST + timedelta(days=10)) == window_digest(
        pg, FIRST + timedelta(days=10)
    )
    manifests = []
    for engine, run in ((lite, one.run_id), (pg, two.run_id)):
        with SqlUnitOfWork(engine) as uow:
            manifests.append(uow.runs.manifest(run))
    assert manifests[0]["window_sessions_sha256"] == manifests[1]["window_sessions_sha256"]
    assert manifests[0]["window_sessions"] == "30"
    lite.dispose()
    pg.dispose()


def test_the_stamps_are_the_rows_own_and_the_day_rows_their_sums(any_db_url, tmp_path):
    rng = random.Random(8)
    first = [random_session(rng, f"a{i}") for i in range(25)]
    second = [random_session(rng, f"b{i}") for i in range(20)]
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    audit(engine, write(tmp_path / "a.jsonl", first), keep_lines=True)
    audit(engine, write(tmp_path / "b.jsonl", second), keep_lines=True, workers=2, batch_size=3)
    made = stamps(engine)
    assert len(made) == 45 and None not in made.values()
    # read back, the offset SQLite dropped comes from the kept line
    assert made == read_back(engine)
    assert day_rows(engine) == recomputed(engine)
    assert sum(n for n, _ in day_rows(engine).values()) == 45
    assert window_digest(engine)[1] == 45
    engine.dispose()


def test_re_audits_keep_the_day_rows_exact_and_the_digest_that_of_the_sessions_stored(
    any_db_url, second_url, tmp_path
):
    """After random audits, re-audits of older logs and changed sessions, the day rows are
    their recomputation, and the digest is that of a fresh store holding the same sessions."""
    rng = random.Random(17)
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    logs: list[tuple[str, list[dict]]] = []
    current: dict[tuple[str, str], dict] = {}
    digests_seen: dict[str, tuple[str, int]] = {}
    for step in range(7):
        action = rng.choice(["new", "again", "changed"]) if logs else "new"
        if action == "again":
            path, batch = rng.choice(logs)
        else:
            if action == "new":
                batch = [random_session(rng, f"s{step}-{i}") for i in range(rng.randint(3, 10))]
            else:
                picked = rng.sample(sorted(current), min(len(current), rng.randint(1, 6)))
                batch = [
                    dict(random_session(rng, "x"), platform=platform, session_id=sid)
                    for platform, sid in picked
                ]
                batch += [current[rng.choice(sorted(current))]]  # one unchanged
            path = write(tmp_path / f"log-{step}.jsonl", batch)
            logs.append((path, batch))
        audit(engine, path, workers=rng.choice([1, 2]), batch_size=rng.choice([2, 5, 1000]))
        current.update({(s["platform"], s["session_id"]): s for s in batch})
        assert day_rows(engine) == recomputed(engine)
        state = json.dumps(sorted([list(k), v] for k, v in current.items()), sort_keys=True)
        got = window_digest(engine)
        assert got[1] == len(current)
        assert digests_seen.setdefault(state, got) == got  # the same sessions, the same digest
        assert len({d for d, _ in digests_seen.values()}) == len(digests_seen)
    made = window_digest(engine)
    engine.dispose()
    fresh = make_engine(second_url)
    ensure_schema(fresh)
    final = list(current.values())
    rng.shuffle(final)
    audit(fresh, write(tmp_path / "final.jsonl", final), workers=2, batch_size=4)
    assert window_digest(fresh) == made
    fresh.dispose()


def test_a_changed_session_changes_the_digest_and_restoring_it_restores_it(any_db_url, tmp_path):
    sessions = [session(f"c{i}", FIRST + timedelta(days=i % 3), ["a", "b", "c"]) for i in range(6)]
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    original = write(tmp_path / "a.jsonl", sessions)
    audit(engine, original)
    before = window_digest(engine)
    for what in ({"point_value": 1}, {"started_at": "2026-03-01T20:15:30.25+07:00"}):
        changed = write(tmp_path / "b.jsonl", [{**sessions[0], **what}])
        audit(engine, changed)
        after = window_digest(engine)
        assert after[0] != before[0] and after[1] == before[1]
        audit(engine, original)
        assert window_digest(engine) == before
    assert day_rows(engine) == recomputed(engine)
    engine.dispose()


def test_the_migration_stamps_the_sessions_again_and_fills_the_day_rows(any_db_url, tmp_path):
    rng = random.Random(2)
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    log = [random_session(rng, f"m{i}") for i in range(30)]
    audit(engine, write(tmp_path / "m.jsonl", log), keep_lines=True, workers=2, batch_size=5)
    kept_stamps, kept_days, kept_digest = stamps(engine), day_rows(engine), window_digest(engine)
    assert kept_days and kept_digest[1] == 30
    for revision in (CONTENT, BEFORE):
        downgrade(engine, revision)
        if revision == CONTENT:  # stamps of the earlier form, to be made again
            with engine.begin() as conn:
                conn.execute(update(SESSIONS).values(content_sha256="0" * 64))
        migrate.upgrade(engine)
        assert stamps(engine) == kept_stamps
        assert day_rows(engine) == kept_days
        assert window_digest(engine) == kept_digest
    engine.dispose()


def test_the_session_findings_digest_is_the_same_read_either_way(monkeypatch, sqlite_url, tmp_path):
    """SQLite walks the findings in key order where the run holds most of them, else reads
    the run's own and sorts them: the digest is the same text either way."""
    engine = make_engine(sqlite_url)
    ensure_schema(engine)
    rng = random.Random(7)
    sessions = [random_session(rng, f"s{i}") for i in range(30)]
    first = audit(engine, write(tmp_path / "a.jsonl", sessions)).run_id
    audit(engine, write(tmp_path / "b.jsonl", [random_session(rng, f"t{i}") for i in range(3)]))
    with engine.connect() as conn:
        assert digests._holds_most(conn, first)
        assert conn.scalar(select(func.count()).where(digests.FINDINGS.c.run_id == first))
        found = []
        for holds in (True, False):
            monkeypatch.setattr(digests, "_holds_most", lambda conn, run_id, holds=holds: holds)
            found.append(digests.session_findings_digest(conn, first))
    assert found[0] == found[1]
