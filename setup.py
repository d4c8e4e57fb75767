"""The build step pyproject.toml cannot say: the wheel carries data/ and migrations/.

Both folders stay at the top of the repository; a (non-editable) build copies them into
the package as compliance/_data and compliance/_migrations, where compliance/resources.py
finds them. An editable install skips the copy and reads the repository's folders.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# folder in the repository -> folder inside the package (compliance/resources.py: BUNDLED)
BUNDLED = {"data": "_data", "migrations": "_migrations"}
SKIP = shutil.ignore_patterns("__pycache__", "*.py[cod]", ".*")


class BuildWithResources(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source, inside in BUNDLED.items():
            target = Path(self.build_lib) / "compliance" / inside
            shutil.rmtree(target, ignore_errors=True)  # no file left from an earlier build
            shutil.copytree(HERE / source, target, ignore=SKIP)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        for inside in BUNDLED.values():
            root = Path(self.build_lib) / "compliance" / inside
            outputs += [str(p) for p in sorted(root.rglob("*")) if p.is_file()]
        return outputs


setup(cmdclass={"build_py": BuildWithResources})
