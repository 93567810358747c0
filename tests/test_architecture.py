"""The package layout: one package per stage, imports pointing down the data flow only.

Each stage package states in its ``__init__`` docstring which packages it may
import (``May import: core, inputs.``); every import in the engine, including
imports inside functions, is checked against that table, and the table itself
must have no cycle.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ENGINE = REPO / "engine"
_MAY_IMPORT = re.compile(r"May import: (.*?)\.\s*$", re.S)


def _stage_packages() -> list[str]:
    return sorted(p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file())


@cache
def _allowed() -> dict[str, set[str]]:
    """stage → the stages its docstring says it may import."""
    table = {}
    for stage in _stage_packages():
        doc = ast.get_docstring(ast.parse((ENGINE / stage / "__init__.py").read_text()))
        match = _MAY_IMPORT.search(doc or "")
        assert match, f"engine/{stage}/__init__.py does not say which packages it may import"
        words = " ".join(match.group(1).split())
        table[stage] = (
            set() if words == "nothing from the engine" else {w.strip() for w in words.split(",")}
        )
    return table


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = REPO.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imports(path: Path) -> set[str]:
    """Engine modules the module at ``path`` imports."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return _imports_in(path.read_text(), package)


def _imports_in(source: str, package: str) -> set[str]:
    """Engine modules ``source`` (a module of ``package``) imports anywhere in its body,
    functions and ``TYPE_CHECKING`` blocks included; ``from pkg import mod`` counts as
    ``pkg.mod``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                found.add(candidate if _is_module(candidate) else module)
    return {m for m in found if m == "engine" or m.startswith("engine.")}


@cache
def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in sorted(ENGINE.rglob("*.py"))}


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and _is_package(parts[1])) else None


def _is_package(name: str) -> bool:
    return (ENGINE / name / "__init__.py").is_file()


def test_only_the_facade_and_main_are_top_level_modules() -> None:
    top = sorted(p.name for p in ENGINE.glob("*.py"))
    assert top == ["__init__.py", "__main__.py"]


def test_stage_packages_import_nothing_in_their_init() -> None:
    for stage in _stage_packages():
        tree = ast.parse((ENGINE / stage / "__init__.py").read_text())
        statements = [n for n in tree.body if not isinstance(n, ast.Expr)]
        assert statements == [], f"engine/{stage}/__init__.py does more than document the package"


def test_every_import_is_in_the_allowed_table() -> None:
    allowed = _allowed()
    stages = set(allowed)
    for stage, targets in allowed.items():
        assert targets <= stages, f"{stage} names unknown packages: {targets - stages}"
    wrong = []
    for module, imported in _graph().items():
        source = _stage(module)
        if source is None:
            continue
        for target in imported:
            dest = _stage(target)
            if target == "engine":
                wrong.append(f"{module} imports the facade")
            elif dest not in (None, source) and dest not in allowed[source]:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_the_allowed_table_has_no_cycle() -> None:
    allowed = _allowed()
    done: set[str] = set()

    def visit(stage: str, path: tuple[str, ...]) -> None:
        assert stage not in path, f"cycle: {' -> '.join((*path, stage))}"
        if stage in done:
            return
        for target in sorted(allowed[stage]):
            visit(target, (*path, stage))
        done.add(stage)

    for stage in allowed:
        visit(stage, ())


def test_no_module_imports_itself_back() -> None:
    """No import cycle between modules either (Tarjan's strongly connected components)."""
    graph = {m: {t for t in targets if t in _graph() and t != m} for m, targets in _graph().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    assert cycles == []


def test_the_checker_sees_every_kind_of_import() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from engine.results.report import ScanReport\n"
        "def f():\n    from engine.cli import main\n    import engine.wasm.host\n"
        "from .memory import ValueReader\n"
        "from . import values\n"
    )
    assert _imports_in(source, "engine.wasm") == {
        "engine.results.report",
        "engine.cli.main",
        "engine.wasm.host",
        "engine.wasm.memory",
        "engine.wasm.values",
    }


@pytest.mark.parametrize(
    ("group", "name"), [("scripts", "rego-engine"), ("entry-points.pytest11", "rego_engine")]
)
def test_entry_points_name_real_modules(group: str, name: str) -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    table = project
    for key in group.split("."):
        table = table[key]
    module, _, attribute = table[name].partition(":")
    assert _is_module(module), f"{group} {name} names {module}, which does not exist"
    if attribute:
        tree = ast.parse(REPO.joinpath(*module.split(".")).with_suffix(".py").read_text())
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert attribute in defined


def test_importing_the_facade_loads_no_stage() -> None:
    code = (
        "import sys, engine\n"
        "print(sorted(m for m in sys.modules if m.startswith('engine.')))\n"
        "engine.scan, engine.ScanOptions, engine.ScanReport, engine.build_bundle\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert done.stdout.strip() == "[]"


def test_test_modules_have_unique_names() -> None:
    """Test folders are not packages: pytest imports each test module by its file name."""
    names: dict[str, list[str]] = {}
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        names.setdefault(path.name, []).append(str(path.relative_to(REPO)))
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}
