"""资源位置: where the shipped rule data and the Alembic migrations are, for any install.

The repository keeps `data/` and `migrations/` at its top level. A built wheel carries
copies of them inside the package, as `compliance/_data` and `compliance/_migrations`
(setup.py's build step puts them there). An editable install or a bare checkout reads
the top-level folders beside the package instead.
"""

from __future__ import annotations

import atexit
from contextlib import ExitStack
from functools import cache
from importlib import resources
from pathlib import Path

# folder in the repository -> (folder inside the installed package, a file it always holds)
BUNDLED = {"data": ("_data", "games.toml"), "migrations": ("_migrations", "env.py")}

_extracted = ExitStack()
atexit.register(_extracted.close)


def data_dir() -> Path:
    """The rule data folder (games.toml, jurisdictions/, samples/)."""
    return _locate("data")


def migrations_dir() -> Path:
    """The Alembic script folder (env.py, script.py.mako, versions/)."""
    return _locate("migrations")


@cache
def _locate(name: str) -> Path:
    inside, marker = BUNDLED[name]
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / name / marker).is_file() and (checkout / "pyproject.toml").is_file():
        return checkout / name  # the live folder, even if a build left copies in the package
    packaged = resources.files("compliance") / inside
    if packaged.joinpath(marker).is_file():
        # a real folder for a wheel installed on disk; a temporary copy from a zip
        return _extracted.enter_context(resources.as_file(packaged))
    # neither: callers report the missing folder by this path
    return Path(str(packaged))
