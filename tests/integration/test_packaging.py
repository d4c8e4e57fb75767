"""The built wheel carries the migrations and the rule data, and an installed copy works.

The wheel is built from a copy of the checkout (no stale build/ folder), without build
isolation (the dev extra brings setuptools). The install test puts it, not editable, into
a new virtual environment whose dependencies come from this one, and runs the CLI in an
empty folder: no source tree in sight.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from compliance import resources, ruledata
from compliance.db import migrate

ROOT = Path(__file__).resolve().parents[2]
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.py[cod]",
    ".*_cache",
    ".hypothesis",
    "*.db",
)


def _bundled(folder: str) -> dict[str, Path]:
    """Each file under a top-level folder, by the name it has in the wheel."""
    inside = resources.BUNDLED[folder][0]
    return {
        f"compliance/{inside}/{p.relative_to(ROOT / folder).as_posix()}": p
        for p in sorted((ROOT / folder).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    out = work / "dist"
    subprocess.run(
        [
            sys.executable,
            *("-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q"),
            *("-w", str(out), str(source)),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    (built,) = out.glob("compliance-*.whl")
    return built


def test_the_wheel_holds_every_migration_and_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {**_bundled("migrations"), **_bundled("data")}
    assert "compliance/_migrations/env.py" in wanted
    assert "compliance/_data/games.toml" in wanted
    missing = sorted(n for n in wanted if n not in names)
    assert missing == [], f"not in {wheel.name}: {missing}"
    for name, path in wanted.items():
        assert zipfile.ZipFile(wheel).read(name) == path.read_bytes(), name
    assert "compliance/reporting/templates/report.html.j2" in names
    assert not [n for n in names if n.split("/")[0] in ("data", "migrations", "tests")]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_the_checkout_reads_its_own_folders():
    """An editable install has no copies in the package: data/ and migrations/ are read."""
    assert resources.data_dir() == ROOT / "data"
    assert resources.migrations_dir() == migrate.MIGRATIONS == ROOT / "migrations"


def _run(venv: Path, cwd: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.packaging
def test_the_installed_wheel_migrates_seeds_and_runs_the_demo(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # the dependencies: this environment's site-packages, after the new one's own
    (new_site,) = (venv / "lib").glob("python3*/site-packages")
    (new_site / "_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
        + ["--no-deps", "--no-index", "--no-compile", str(wheel)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    empty = tmp_path / "empty"
    empty.mkdir()

    where = _run(
        venv,
        empty,
        str(python),
        "-c",
        "import compliance, compliance.resources as r;"
        "print(compliance.__file__); print(r.data_dir()); print(r.migrations_dir())",
    ).split()
    assert all(Path(p).is_relative_to(new_site / "compliance") for p in where), where

    compliance = str(venv / "bin" / "compliance")
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert f"database at {migrate.head()} (head)" in _run(
        venv, empty, compliance, "db", "upgrade", "--db", url
    )
    listed = _run(venv, empty, compliance, "rules", "list", "--db", url).splitlines()[1:]
    # seeded on first use from the wheel's copy of data/: every instrument of the checkout's
    assert len(listed) == len(ruledata.load_book().instruments)
    out = _run(venv, empty, compliance, "demo", "--sessions", "5")
    assert "audited 5 sessions" in out
    assert sorted(p.name for p in empty.iterdir()) == [
        "compliance.db",
        "demo-platform",
        "demo-sessions.jsonl",
        "report.html",
    ]
