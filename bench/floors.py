"""SQLite alone and DuckDB: what storing and a pure SQL engine cost for the same work."""

from __future__ import annotations

import sqlite3
import tempfile

from bench.timing import Timing, best_of, median_timing, timed
from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer import seeding

STORED_TABLES = ("sessions", "player_metrics", "finding_lines", "findings")


def sqlite_alone(audited: str, runs: int) -> Timing:
    """The time SQLite alone takes to store what an audit stored: the same rows, read
    back from `audited`, through the driver's executemany into a fresh file with the
    same schema, pragmas and batches of sessions, commits and close; no Python builds
    a row. The least a stored run can cost on top of judging, in this design."""
    with sqlite3.connect(audited) as source:
        rows = {
            t: source.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall()
            for t in STORED_TABLES
        }
    per_session = {t: len(rows[t]) / len(rows["sessions"]) for t in STORED_TABLES}
    batch = services.AuditOptions().batch_size
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            engine = make_engine(f"sqlite:///{tmp}/alone.db")
            ensure_schema(engine)
            seeding.seed(SqlUnitOfWork(engine))
            with engine.begin() as conn:
                conn.exec_driver_sql(
                    "INSERT INTO audit_runs (started_at, options, files, sessions, rejects, summary)"
                    " VALUES ('2026-01-01', '{}', '[]', 0, 0, '{}')"
                )
            engine.dispose()
            db = sqlite3.connect(f"{tmp}/alone.db", isolation_level=None)
            for pragma in (
                "foreign_keys=ON",
                "journal_mode=WAL",
                "synchronous=NORMAL",
                "wal_autocheckpoint=10000",
            ):
                db.execute(f"PRAGMA {pragma}")

            def insert(db=db):
                for i in range(0, len(rows["sessions"]), batch):
                    db.execute("BEGIN")
                    for t in STORED_TABLES:
                        share = per_session[t]
                        chunk = rows[t][round(i * share) : round((i + batch) * share)]
                        if chunk:
                            marks = ", ".join("?" * len(chunk[0]))
                            db.executemany(f'INSERT INTO "{t}" VALUES ({marks})', chunk)
                    db.execute("COMMIT")
                db.close()

            times.append(timed(insert)[0])
    return median_timing(times)


def duckdb_floor(path: str, runs: int = 3) -> Timing | None:
    try:
        import duckdb
    except ImportError:
        return None
    sql = f"""
        with seats as (
            select s.session_id, s.point_value, unnest(r.seats) as seat, r.base * r.grab as unit
            from (select session_id, point_value, unnest(rounds) as r
                  from read_json('{path}', format='newline_delimited', columns={{
                      session_id: 'VARCHAR', point_value: 'DECIMAL(12,4)',
                      rounds: 'STRUCT(banker VARCHAR, base INTEGER, grab INTEGER,
                               seats STRUCT(player VARCHAR, cards VARCHAR[], bet INTEGER,
                                            claimed INTEGER, rake INTEGER)[])[]'}})) s
        )
        select session_id, seat.player, max(unit * seat.bet) as single_stake,
               sum(unit * seat.bet) as staked, sum(seat.claimed) as net,
               sum(greatest(seat.claimed, 0)) as won
        from seats group by all
    """

    def run():
        con = duckdb.connect()
        con.execute("SET threads=1")
        con.execute("SET enable_progress_bar = false")
        con.execute(sql).fetchall()
        con.close()

    return best_of(runs, run)
