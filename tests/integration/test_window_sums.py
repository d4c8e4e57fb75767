"""日累计: the day sums and people seen that windows read stay what the stored sessions say,
through audits, re-audits that replace sessions, workers, and the migration that fills them."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import date, timedelta

import pytest
from alembic import command
from sqlalchemy import select, true

from compliance.db import migrate, window_batch, window_session_days
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.db.window_sessions import ledgers_from_sessions
from compliance.db.window_upkeep import (
    DAY_KEY,
    DAY_SUMS,
    DAYS,
    LAST_KEY,
    LAST_SEEN,
    PEOPLE,
    PERSON_FIGURES,
    PERSON_KEY,
    day_sums,
    people_seen,
)
from compliance.db.windows import ledgers
from compliance.service_layer import audit as services
from tests.sample_logs import douniu_rounds, session_dict

FIRST = date(2026, 1, 1)
OWNERS = ["o1", "o2", "o3"]
PLAYERS = [f"u{i}" for i in range(9)]
PLACES = ["430000", "110000", None]
BEFORE = "196a158d954b"  # the revision before the window tables


def session(sid, day, owner, players, *, platform="p1", place="430000", seed=1, fee=50):
    header = {
        "platform": platform,
        "point_value": 1,
        "started_at": f"{day.isoformat()}T20:00:00+08:00",
    }
    if place is not None:
        header["jurisdiction"] = place
    if owner is not None:
        header["owner"] = {"id": owner, "room_fee": fee, "fee_basis": "stakes"}
    rounds = douniu_rounds(seed, players, 3, base=10, grab=1, bets=[1, 2])
    return session_dict(sid, "douniu", players, rounds, **header)


def write(path, sessions) -> str:
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in sessions))
    return str(path)


def audit(engine, path, **options):
    return services.audit(SqlUnitOfWork(engine), [path], services.AuditOptions(**options))


def table(conn, t, columns):
    return sorted(tuple(r) for r in conn.execute(select(*(t.c[c] for c in columns))))


def recomputed(conn):
    """What the window tables should hold: summed afresh from every stored session."""
    days = sorted(tuple(r) for q in day_sums(true()) for r in conn.execute(q))
    people = sorted(tuple(r) for q in people_seen(true()) for r in conn.execute(q))
    last = {}
    for platform, kind, subject, _, _, last_day, _ in people:
        key = (platform, kind, subject, last_day)
        last[key] = last.get(key, 0) + 1
    return days, people, sorted((*k, n) for k, n in last.items())


def stored(conn):
    """The window tables (a day whose players all came back again holds 0: left out)."""
    last = select(*(LAST_SEEN.c[k] for k in LAST_KEY), LAST_SEEN.c.people)
    return (
        table(conn, DAYS, (*DAY_KEY, *DAY_SUMS)),
        table(conn, PEOPLE, (*PERSON_KEY, *PERSON_FIGURES)),
        sorted(tuple(r) for r in conn.execute(last.where(LAST_SEEN.c.people != 0))),
    )


def figures(books, starts):
    """Every book's figures over the window read, and its sums from each start: what the
    audit judges (a band's own span takes the window's place and venue, not its own)."""
    out = []
    for b in books:
        out.append((b.kind, b.platform, b.id, None, b.figures()))
        for start in starts:
            f = dataclasses.replace(b.figures(start), places={}, venues={}, jurisdiction=None)
            out.append((b.kind, b.platform, b.id, start, f))
    return out


def cut_days(end):
    """First days a window ending on `end` is taken to have, for the ledgers read in runs."""
    return {end - timedelta(days=n) for n in (3, 11, 40)}


def assert_exact(engine, run_id=None, days=()):
    """The window tables equal a recomputation from the stored sessions, and the windows
    read from them equal the windows read from the sessions themselves."""
    with engine.connect() as conn:
        assert stored(conn) == recomputed(conn)
        session_days = window_session_days.TABLE
        assert {
            (p, d): (n, total) for p, d, n, total in conn.execute(select(session_days))
        } == window_session_days.recomputed(conn)
        platforms = {"p1", "p2"}
        starts = sorted(set(days))
        for end, read_from, run in (
            (None, None, None),
            (None, None, run_id),
            (None, FIRST + timedelta(days=20), run_id),
            (FIRST + timedelta(days=30), None, None),
            (FIRST + timedelta(days=30), FIRST + timedelta(days=10), run_id),
        ):
            fast = list(ledgers(conn, platforms, end, read_from, run))
            direct = ledgers_from_sessions(conn, platforms, end, read_from, run)
            assert [(b.kind, b.platform, b.id, b.end) for b in fast] == [
                (b.kind, b.platform, b.id, b.end) for b in direct
            ]
            assert figures(fast, starts) == figures(direct, starts)
            if run is not None:  # read in runs of days: at their cuts, and inside them
                in_runs = list(ledgers(conn, platforms, end, read_from, run, cut_days))
                cuts = sorted({d for b in direct for d in cut_days(b.end)})
                assert figures(in_runs, cuts) == figures(direct, cuts)
                in_runs = list(ledgers(conn, platforms, end, read_from, run, cut_days))
                assert figures(in_runs, starts) == figures(direct, starts)


def random_session(rng, sid, platform=None):
    day = FIRST + timedelta(days=rng.randrange(45))
    owner = rng.choice([*OWNERS, None]) if rng.random() < 0.2 else rng.choice(OWNERS)
    players = rng.sample(PLAYERS, rng.randint(2, 5))
    return session(
        sid,
        day,
        owner,
        players,
        platform=platform or rng.choice(["p1", "p1", "p2"]),
        place=rng.choice(PLACES),
        seed=rng.randrange(1000),
        fee=rng.choice([0, 20, 75]),
    )


def changed(rng, s):
    """The same session id, audited again with its day, owner, players or place changed."""
    again = dict(s)
    what = rng.choice(["day", "owner", "players", "place", "same"])
    players = [p["id"] for p in s["players"]]
    day = date.fromisoformat(s["started_at"][:10])
    owner = (s.get("owner") or {}).get("id")
    place = s.get("jurisdiction")
    if what == "day":
        day += timedelta(days=rng.choice([-9, -1, 1, 12]))
    elif what == "owner":
        owner = rng.choice([o for o in [*OWNERS, None] if o != owner])
    elif what == "players":
        players = rng.sample(PLAYERS, rng.randint(2, 5))
    elif what == "place":
        place = rng.choice([p for p in PLACES if p != place])
    else:
        return again
    return session(
        s["session_id"], day, owner, players, platform=s["platform"], place=place, seed=7
    )


@pytest.mark.parametrize(
    ("seed", "summed_in"), [(1, "python"), (2, "python"), (3, "python"), (4, "sql")]
)
def test_window_sums_equal_the_sessions_after_random_audits_and_re_audits(
    any_db_url, tmp_path, seed, summed_in, monkeypatch
):
    if summed_in == "sql":  # as a batch with money finer than a cent goes
        monkeypatch.setattr(window_batch, "sums", lambda sessions: None)
    rng = random.Random(seed)
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    known: dict[str, dict] = {}
    logs: list[str] = []
    for step in range(6):
        action = rng.choice(["new", "new", "again", "changed"]) if known else "new"
        if action == "new":
            batch = [random_session(rng, f"s{seed}-{step}-{i}") for i in range(rng.randint(3, 12))]
        elif action == "again":
            batch = []
            path = rng.choice(logs)
        else:
            picked = rng.sample(sorted(known), min(len(known), rng.randint(1, 8)))
            batch = [changed(rng, known[sid]) for sid in picked]
        if batch:
            path = write(tmp_path / f"log-{step}.jsonl", batch)
            logs.append(path)
            known.update({s["session_id"]: s for s in batch})
        summary = audit(engine, path, batch_size=rng.choice([2, 5, 1000]))
        days = [date.fromisoformat(s["started_at"][:10]) for s in known.values()]
        assert_exact(engine, summary.run_id, days)
    engine.dispose()


def test_with_workers_the_sums_stay_exact(any_db_url, tmp_path):
    rng = random.Random(11)
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    first = [random_session(rng, f"w-{i}") for i in range(40)]
    audit(engine, write(tmp_path / "first.jsonl", first), workers=2, batch_size=4)
    again = [changed(rng, s) for s in first[::2]] + [
        random_session(rng, f"x-{i}") for i in range(20)
    ]
    summary = audit(engine, write(tmp_path / "again.jsonl", again), workers=2, batch_size=4)
    days = [date.fromisoformat(s["started_at"][:10]) for s in first + again]
    assert_exact(engine, summary.run_id, days)
    engine.dispose()


def people_of(engine, owner):
    with engine.connect() as conn:
        return {
            row.player_id: (row.first_day, row.last_day, row.sessions)
            for row in conn.execute(
                select(PEOPLE).where(PEOPLE.c.kind == "owner", PEOPLE.c.subject == owner)
            )
        }


def test_a_participant_whose_only_session_is_replaced_is_seen_no_more(any_db_url, tmp_path):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    d1, d2, d3 = date(2026, 2, 1), date(2026, 2, 5), date(2026, 2, 9)
    audit(
        engine,
        write(
            tmp_path / "a.jsonl",
            [
                session("s1", d1, "boss", ["a", "b", "x"]),
                session("s2", d2, "boss", ["a", "b", "c"]),
                session("s3", d3, "boss", ["a", "b", "c"]),
            ],
        ),
    )
    assert people_of(engine, "boss") == {
        "a": (d1, d3, 3),
        "b": (d1, d3, 3),
        "c": (d2, d3, 2),
        "x": (d1, d1, 1),
    }
    # x's only session now holds y instead; c's last session is moved back before his first
    audit(
        engine,
        write(
            tmp_path / "b.jsonl",
            [
                session("s1", d1, "boss", ["a", "b", "y"]),
                session("s3", d1, "boss", ["a", "b", "c"]),
            ],
        ),
    )
    assert people_of(engine, "boss") == {
        "a": (d1, d2, 3),
        "b": (d1, d2, 3),
        "c": (d1, d2, 2),
        "y": (d1, d1, 1),
    }
    summary = audit(engine, write(tmp_path / "c.jsonl", [session("s2", d2, "other", ["c", "d"])]))
    assert people_of(engine, "boss") == {
        "a": (d1, d1, 2),
        "b": (d1, d1, 2),
        "c": (d1, d1, 1),
        "y": (d1, d1, 1),
    }
    assert people_of(engine, "other") == {"c": (d2, d2, 1), "d": (d2, d2, 1)}
    assert_exact(engine, summary.run_id, [d1, d2, d3])
    engine.dispose()


def test_a_day_another_session_still_holds_stays_the_last(any_db_url, tmp_path):
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    d1, d2, d3 = date(2026, 2, 1), date(2026, 2, 5), date(2026, 2, 6)
    sessions = [
        session("t1", d1, "boss", ["a", "b"]),
        session("t2", d3, "boss", ["a", "b"]),
        session("t3", d3, "boss", ["a", "c"]),
    ]
    audit(engine, write(tmp_path / "a.jsonl", sessions))
    summary = audit(engine, write(tmp_path / "b.jsonl", [session("t3", d2, "boss", ["a", "c"])]))
    assert people_of(engine, "boss") == {"a": (d1, d3, 3), "b": (d1, d3, 2), "c": (d2, d2, 1)}
    summary = audit(engine, write(tmp_path / "c.jsonl", [session("t1", d2, "boss", ["a", "b"])]))
    assert people_of(engine, "boss") == {"a": (d2, d3, 3), "b": (d2, d3, 2), "c": (d2, d2, 1)}
    assert_exact(engine, summary.run_id, [d1, d2, d3])
    engine.dispose()


def test_the_migration_fills_the_window_tables_from_the_stored_sessions(any_db_url, tmp_path):
    rng = random.Random(5)
    engine = make_engine(any_db_url)
    ensure_schema(engine)
    sessions = [random_session(rng, f"m-{i}") for i in range(30)]
    audit(engine, write(tmp_path / "m.jsonl", sessions))
    with engine.connect() as conn:
        kept = stored(conn)
    assert kept[0] and kept[1]
    config = migrate.alembic_config(engine)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, BEFORE)
    migrate.upgrade(engine)
    with engine.connect() as conn:
        assert stored(conn) == kept
    engine.dispose()
