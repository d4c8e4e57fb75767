"""The files in migrations/versions/ sort in the order of the revision chain."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from compliance.db import migrate

NAME = re.compile(r"^\d{4}_\d{2}_\d{2}_\d{6}_[0-9a-f]{12}_\w+\.py$")


def _chain(script: ScriptDirectory) -> list[str]:
    """The revision files from the base to the head (walk_revisions goes head first)."""
    return [Path(rev.path).name for rev in reversed(list(script.walk_revisions()))]


def test_file_names_sort_in_chain_order():
    script = ScriptDirectory(str(migrate.MIGRATIONS))
    files = sorted(p.name for p in (migrate.MIGRATIONS / "versions").glob("*.py"))
    assert len(script.get_heads()) == 1, "the chain has branches: merge them"
    assert files == _chain(script)
    assert [n for n in files if not NAME.match(n)] == []


def test_the_head_read_from_the_file_names_is_alembics():
    assert migrate.head() == ScriptDirectory(str(migrate.MIGRATIONS)).get_current_head()


def test_a_new_revision_is_named_to_sort_last(tmp_path):
    copy = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    cfg = migrate.alembic_config(create_engine(f"sqlite:///{tmp_path / 'unused.db'}"))
    cfg.set_main_option("script_location", str(copy))

    command.revision(cfg, message="something new")

    script = ScriptDirectory(str(copy))
    files = sorted(p.name for p in (copy / "versions").glob("*.py"))
    assert files == _chain(script)
    assert files[-1].endswith("_something_new.py") and NAME.match(files[-1])
