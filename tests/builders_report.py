"""A simulated, audited SQLite database to report on; optionally with hostile names."""

from __future__ import annotations

import json
from pathlib import Path

from compliance.db import migrate
from compliance.db.engine import make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, write_log

HOSTILE_NAME = "<script>alert(1)</script>"
FORMULA_NAME = '=HYPERLINK("http://evil.example","x")'
HOSTILE_ROOM = "<img src=x onerror=alert(2)>"
GAMES = ("douniu", "chexuan", "yuhuan", "chihuoguo")


def audited_database(
    folder: Path, sessions: int = 40, hostile: bool = False, seed: int = 7, url: str | None = None
):
    """An engine on a migrated database (a SQLite file in `folder` by default) holding one
    audit run of simulated sessions."""
    log = folder / "sessions.jsonl"
    write_log(SimulationSpec(games=GAMES, sessions=sessions, seed=seed, anomalies=0.02), str(log))
    if hostile:
        lines = log.read_text(encoding="utf-8").splitlines()
        first = json.loads(lines[0])
        first["players"][0]["name"] = HOSTILE_NAME
        first["players"][1]["name"] = FORMULA_NAME
        first["room_id"] = HOSTILE_ROOM
        lines[0] = json.dumps(first, ensure_ascii=False)
        log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    engine = make_engine(url or f"sqlite:///{folder / 'compliance.db'}")
    migrate.upgrade(engine)
    services.audit(SqlUnitOfWork(engine), [str(log)], services.AuditOptions())
    return engine
