"""The import rules of the layers (issue #15), checked on the import graph grimp builds.

The graph holds every import statement, those inside function bodies too. A layer rule
`A imports no B` fails on any chain of imports from a module of A to a module of B,
direct or through other modules. The one exception is `compliance.cli imports no
sqlalchemy`, which counts the cli's own import statements only: the cli reaches
sqlalchemy through compliance.db, which is what compliance.db is for. A package that does
not exist (yet) imports nothing and is imported by nothing. Cycles are looked for among
the imports that run (not those under `if TYPE_CHECKING:`), one case per subpackage and
one for the rest (cycles across packages or among the top-level modules).

Cases that fail on today's tree are marked xfail(strict=True) in KNOWN: they turn into
failures the moment they hold, and the mark goes then.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass

import grimp
import pytest

import compliance

SERVICE_LAYER = ("compliance.service_layer",)
PURE = ("compliance.domain", "compliance.games", "compliance.logs")
ACROSS = "across packages"


@dataclass(frozen=True)
class Rule:
    importer: str
    forbidden: tuple[str, ...]
    what: str
    direct_only: bool = False

    @property
    def id(self) -> str:
        return f"{self.importer} imports no {self.what}"


def _rules() -> list[Rule]:
    rules = []
    for layer in PURE:
        rules += [
            Rule(layer, ("sqlalchemy",), "sqlalchemy"),
            Rule(layer, ("click",), "click"),
            Rule(layer, SERVICE_LAYER, "service layer"),
            Rule(layer, ("compliance.db",), "compliance.db"),
            Rule(layer, ("compliance.cli",), "compliance.cli"),
        ]
    rules += [
        Rule("compliance.db", SERVICE_LAYER, "service layer"),
        Rule("compliance.db", ("compliance.cli",), "compliance.cli"),
        Rule("compliance.db", ("click",), "click"),
        Rule("compliance.cli", ("sqlalchemy",), "sqlalchemy", direct_only=True),
        Rule("compliance.service_layer", ("click",), "click"),
        Rule("compliance.service_layer", ("compliance.cli",), "compliance.cli"),
    ]
    return rules


def _cycle_scopes() -> list[str]:
    """A case per subpackage of compliance, and one for all other cycles."""
    packages = [
        f"compliance.{m.name}" for m in pkgutil.iter_modules(compliance.__path__) if m.ispkg
    ]
    return [*sorted(packages), ACROSS]


# case id -> why it fails today (issue #15 fixes each; drop the entry when it passes)
KNOWN: dict[str, str] = {}


def _case(rule_id: str, value):
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN[rule_id])] if rule_id in KNOWN else []
    return pytest.param(value, id=rule_id, marks=marks)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """Every import, type-checking ones too (a type is a dependency as well)."""
    return grimp.build_graph("compliance", include_external_packages=True, cache_dir=None)


@pytest.fixture(scope="module")
def runtime_graph() -> grimp.ImportGraph:
    """The imports that run: `if TYPE_CHECKING:` blocks are the usual way out of a cycle."""
    return grimp.build_graph("compliance", exclude_type_checking_imports=True, cache_dir=None)


def _modules(graph: grimp.ImportGraph, package: str) -> set[str]:
    """The package and all in it; an outside package (sqlalchemy) is one squashed module."""
    if package not in graph.modules:
        return set()
    if graph.is_module_squashed(package):
        return {package}
    return {package, *graph.find_descendants(package)}


def _link(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    where = "; ".join(f"line {d['line_number']}: {d['line_contents']}" for d in details[:3])
    return f"  {importer} -> {imported}" + (f"   ({where})" if where else "")


def _describe(graph: grimp.ImportGraph, chain: tuple[str, ...]) -> str:
    return "\n".join(_link(graph, a, b) for a, b in zip(chain, chain[1:], strict=False))


def _violations(graph: grimp.ImportGraph, rule: Rule) -> list[tuple[str, ...]]:
    importers = _modules(graph, rule.importer)
    chains: set[tuple[str, ...]] = set()
    for target in rule.forbidden:
        if target not in graph.modules or not importers:
            continue
        if rule.direct_only:
            for module in sorted(importers):
                for imported in graph.find_modules_directly_imported_by(module):
                    if imported in _modules(graph, target):
                        chains.add((module, imported))
        else:
            chains |= graph.find_shortest_chains(
                importer=rule.importer, imported=target, as_packages=True
            )
    return sorted(chains)


@pytest.mark.parametrize("rule", [_case(r.id, r) for r in _rules()])
def test_layer_rule(graph, rule: Rule):
    chains = _violations(graph, rule)
    assert not chains, f"{rule.id}, but:\n" + "\n\n".join(_describe(graph, c) for c in chains)


def _cycles(graph: grimp.ImportGraph) -> list[tuple[list[str], list[str]]]:
    """Each strongly connected set of modules (Tarjan): a cycle through its first module, and
    all the modules of the set (more than the cycle's when the set holds several cycles)."""
    modules = sorted(m for m in graph.modules if not graph.is_module_squashed(m))
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) - {m}) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for module in modules:
        if module not in index:
            visit(module)
    return [(_cycle_through(edges, set(c)), c) for c in sorted(components)]


def _cycle_through(edges: dict[str, list[str]], component: set[str]) -> list[str]:
    """The shortest way from the component's first module back to it (breadth first)."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in edges[v]:
                if w not in component:
                    continue
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"not a cycle: {sorted(component)}")


def _scope(cycle: list[str], scopes: list[str]) -> str:
    for scope in scopes:
        if all(m == scope or m.startswith(scope + ".") for m in cycle):
            return scope
    return ACROSS


def _cycle_case(scope: str) -> str:
    return f"no import cycle {scope}" if scope == ACROSS else f"no import cycle in {scope}"


@pytest.mark.parametrize("scope", [_case(_cycle_case(s), s) for s in _cycle_scopes()])
def test_no_import_cycle(runtime_graph, scope: str):
    found = [
        _describe(runtime_graph, tuple(cycle))
        + (f"\n  (one of the cycles among {', '.join(ring)})" if len(ring) + 1 > len(cycle) else "")
        for cycle, ring in _cycles(runtime_graph)
        if _scope(ring, _cycle_scopes()[:-1]) == scope
    ]
    assert not found, f"{len(found)} import cycle(s) in {scope}:\n" + "\n\n".join(found)


def test_a_missing_package_imports_nothing(graph):
    assert _violations(graph, Rule("compliance.no_such_package", ("sqlalchemy",), "it")) == []
    assert _violations(graph, Rule("compliance.domain", ("compliance.no_such",), "it")) == []


def test_the_checks_see_imports_in_function_bodies(tmp_path, monkeypatch):
    """The checker itself, on a made-up package: a cycle closed inside a function, a layer
    rule broken through a module in between, and a TYPE_CHECKING import left out."""
    pkg = tmp_path / "made_up"
    (pkg / "low").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "import made_up.b\n",
        "b.py": "def later():\n    from made_up import c\n",
        "c.py": "from made_up.a import *\n",
        "low/__init__.py": "from made_up import mid\n",
        "mid.py": "import json\nimport made_up.top\n",
        "top.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import made_up.low\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    made_up = grimp.build_graph("made_up", include_external_packages=True, cache_dir=None)
    runtime = grimp.build_graph("made_up", exclude_type_checking_imports=True, cache_dir=None)

    assert _cycles(runtime) == [
        (
            ["made_up.a", "made_up.b", "made_up.c", "made_up.a"],
            ["made_up.a", "made_up.b", "made_up.c"],
        )
    ]
    assert _violations(made_up, Rule("made_up.low", ("made_up.top",), "top")) == [
        ("made_up.low", "made_up.mid", "made_up.top")
    ]
    assert _violations(made_up, Rule("made_up.low", ("json",), "json", direct_only=True)) == []
    assert "line 2: from made_up import c" in _describe(made_up, ("made_up.b", "made_up.c"))
