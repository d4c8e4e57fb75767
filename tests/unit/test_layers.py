"""The arrows point one way: each layer imports only what lies below it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "compliance"
PURE = ("sqlalchemy", "click", "compliance.service_layer", "compliance.db", "compliance.cli")
FORBIDDEN = {
    "compliance.domain": PURE,
    "compliance.games": PURE,
    "compliance.logs": PURE,
    "compliance.db": ("compliance.service_layer", "compliance.cli", "click"),
    "compliance.service_layer": ("compliance.cli", "click"),
    "compliance.cli": ("sqlalchemy",),
}


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def is_under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    folder = PACKAGE / layer.split(".", 1)[1]
    wrong = sorted(
        f"{path.relative_to(PACKAGE.parent)} imports {name}"
        for path in folder.rglob("*.py")
        for name in imports_of(path)
        if any(is_under(name, banned) for banned in FORBIDDEN[layer])
    )
    assert wrong == []
