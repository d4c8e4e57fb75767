"""迁移: Alembic driven from our own CLI, on the engine the run uses."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine

from compliance.db.bulk import hold_write_lock
from compliance.errors import DatabaseError
from compliance.resources import migrations_dir

MIGRATIONS = migrations_dir()
# new revisions sort in chain order: creation time first (the files in versions/ are named so)
FILE_TEMPLATE = (
    "%%(year)d_%%(month).2d_%%(day).2d_%%(hour).2d%%(minute).2d%%(second).2d_%%(rev)s_%%(slug)s"
)


def alembic_config(engine: Engine) -> Config:
    if not (MIGRATIONS / "env.py").exists():
        raise DatabaseError(
            f"migrations not found at {MIGRATIONS}: reinstall the package (`pip install .`)"
        )
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    cfg.set_main_option("file_template", FILE_TEMPLATE)
    return cfg


def _run(engine: Engine, fn, *args, locked: bool = False, **kwargs):
    cfg = alembic_config(engine)
    with engine.begin() as conn:
        if locked:
            hold_write_lock(conn)
        cfg.attributes["connection"] = conn
        return fn(cfg, *args, **kwargs)


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate under the store's write lock: a second process migrating at once waits,
    then finds the schema where the first left it."""
    _run(engine, command.upgrade, revision, locked=True)


def check(engine: Engine) -> None:
    """Raise if the models and the migrations disagree (alembic check)."""
    _run(engine, command.check)


def current(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head() -> str | None:
    """The newest revision: that of the last file of versions/ by name, the files sorting in
    chain order (FILE_TEMPLATE; tests/unit/test_migration_files.py holds them to Alembic's
    chain). Alembic's `ScriptDirectory` would load every revision's module to say the same:
    0.2 s of every command that opens a store."""
    names = sorted(p.name for p in (MIGRATIONS / "versions").glob("*.py"))
    return names[-1].split("_")[4] if names else None


def revision(engine: Engine, message: str) -> None:
    _run(engine, command.revision, message=message, autogenerate=True)
