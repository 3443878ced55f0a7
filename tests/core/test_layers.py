"""The layers hold: imports point one way, rooms are entered through their faces, and core never imports Qt.

The package's own import graph is read from the source (every `import`, also the
ones under `TYPE_CHECKING` and inside functions): a newcomer's new module that
reaches around a face, or two rooms that need each other, fail here with the
import that did it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "app" / "catalog_inspector"
ROOMS = ("config", "transport", "oauth", "catalog", "session", "calls", "drift", "reports")
# Which top-level parts may import which (ui → runtime → core, cli → core; demo is a server of its own).
MAY_IMPORT = {
    "core": {"core"},
    "runtime": {"runtime", "core"},
    "ui": {"ui", "runtime", "core"},
    "cli": {"cli", "core"},
    "demo": {"demo", "core"},
    "main": {"main", "cli", "ui", "core", "demo"},
    "root": set(),  # the package itself (its version) may be imported by anyone
}
SDK_ADAPTER = "catalog_inspector.core.transport.sdk"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _exported(path: Path) -> set[str]:
    """The names a package's `__init__` lists in `__all__` (a face re-exports them)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__":
            return set(ast.literal_eval(node.value))
    return set()


def _imports() -> dict[str, list[tuple[str, int]]]:
    """Every module of the package → the modules it imports, with the line."""
    found: dict[str, list[tuple[str, int]]] = {}
    faces = {_module_name(path): _exported(path) for path in PACKAGE.rglob("__init__.py")}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: list[tuple[str, int]] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.extend((alias.name, node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets.append((base, node.lineno))
                # `from catalog_inspector.core import errors` imports the module errors (unless a face exports the name)
                targets.extend(
                    (f"{base}.{alias.name}", node.lineno)
                    for alias in node.names
                    if base.startswith("catalog_inspector") and alias.name not in faces.get(base, ())
                )
        found[name] = targets
    return found


# Read when a test first asks, not when the module is collected: every worker collects it, one runs these tests
# (parsing the package took 0.85 s of each worker's collection).
@cache
def _graph() -> tuple[dict[str, list[tuple[str, int]]], frozenset[str]]:
    found = _imports()
    return found, frozenset(found)


def _own(target: str) -> str | None:
    """The package module an import names (the longest known prefix), or None for an outside one."""
    while target:
        if target in _graph()[1]:
            return target
        target = target.rpartition(".")[0]
    return None


def _part(module: str) -> str:
    """core, runtime, ui, cli, demo, root (the package itself) or main (the entry points `main` and `__main__`)."""
    parts = module.split(".")
    if module == "catalog_inspector":
        return "root"
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else "main"


def _room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "core" and parts[2] in ROOMS else None


def test_every_import_points_down_the_layers() -> None:
    wrong = [
        f"{module}:{line} imports {target}"
        for module, targets in _graph()[0].items()
        for target, line in targets
        if (own := _own(target)) is not None and _part(own) not in MAY_IMPORT[_part(module)] | {"root"}
    ]
    assert not wrong, "\n".join(wrong)


def test_a_room_is_entered_only_through_its_face() -> None:
    wrong = []
    for module, targets in _graph()[0].items():
        for target, line in targets:
            own = _own(target)
            room = _room(own) if own else None
            if own is None or room is None or room == _room(module):
                continue
            if own != f"catalog_inspector.core.{room}" and module != "catalog_inspector.main":
                wrong.append(f"{module}:{line} reaches around the face of core.{room}: {own}")
    assert not wrong, "\n".join(wrong)


def _room_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module, targets in _graph()[0].items():
        source = _room(module) or ("core" if _part(module) == "core" else None)
        if source is None:
            continue
        for target, _line in targets:
            own = _own(target)
            if own is None or _part(own) != "core":
                continue
            goal = _room(own) or "core"
            if goal != source:
                graph[source].add(goal)
    return graph


def test_no_two_rooms_need_each_other() -> None:
    graph = _room_graph()
    # core's shared modules (errors, text, files …) are the floor: they import no room at all
    assert not graph.get("core"), f"core's shared modules import rooms: {sorted(graph['core'])}"
    cycles = []

    def visit(room: str, path: list[str]) -> None:
        for goal in sorted(graph.get(room, ())):
            if goal in path:
                cycles.append(" → ".join([*path[path.index(goal) :], goal]))
            else:
                visit(goal, [*path, goal])

    for room in ROOMS:
        visit(room, [room])
    assert not cycles, "\n".join(sorted(set(cycles)))


@pytest.mark.parametrize("room", ROOMS)
def test_each_face_says_what_the_room_holds_and_exports_what_it_imports(room: str) -> None:
    face = PACKAGE / "core" / room / "__init__.py"
    tree = ast.parse(face.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    assert "Holds" in doc and "Imports" in doc, f"core.{room}'s docstring must say what it holds and may import"
    # A face that loads its modules when a name is asked for (PEP 562) imports them for the type checker only,
    # and says at run time which module holds each name (`_HOMES`, read by `core.faces.load_on_demand`): both must
    # be what it exports.
    lazy = [node.body for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    imported = {
        alias.asname or alias.name
        for node in [*tree.body, *(n for body in lazy for n in body)]
        if isinstance(node, ast.ImportFrom)
        and node.module not in ("__future__", "typing", "catalog_inspector.core.faces")
        for alias in node.names
    }
    declared = next(
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__"
    )
    assert isinstance(declared, ast.List)
    exported = {ast.literal_eval(element) for element in declared.elts}
    assert exported == imported
    homes = [
        node.value for node in tree.body if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "_HOMES"
    ]
    if lazy:
        assert homes, f"core.{room} imports its names for the type checker only: `_HOMES` must say where they live"
        held = ast.literal_eval(homes[0])
        # A name imported at once (a function that shares its module's name, which importing the module would
        # otherwise shadow) needs no home.
        eager = [
            alias.asname or alias.name
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("catalog_inspector.core.")
            and node.module != "catalog_inspector.core.faces"
            for alias in node.names
        ]
        assert sorted([*(name for names in held.values() for name in names), *eager]) == sorted(exported)
        for node in lazy[0]:
            if isinstance(node, ast.ImportFrom):
                assert all(alias.name in held[node.module.rsplit(".", 1)[1]] for alias in node.names), node.module


def test_the_sdks_private_modules_are_imported_in_one_adapter_only() -> None:
    wrong = [
        f"{module}:{line} imports {target}"
        for module, targets in _graph()[0].items()
        for target, line in targets
        if target.split(".")[0] in ("mcp", "mcp_types")
        and any(part.startswith("_") for part in target.split(".")[1:])
        and module != SDK_ADAPTER
    ]
    assert not wrong, "\n".join(wrong)


QT_FREE = """
import sys
sys.modules["PySide6"] = None
sys.modules["qasync"] = None
import catalog_inspector.core as core
import catalog_inspector.core.session, catalog_inspector.core.calls, catalog_inspector.core.drift, catalog_inspector.cli
import catalog_inspector.demo.server
assert not any(m.startswith(("PySide6", "qasync", "catalog_inspector.ui", "catalog_inspector.runtime")) for m in sys.modules if sys.modules[m] is not None)
print("ok")
"""

SDK_FREE = """
import sys
for blocked in ("mcp", "mcp_types", "httpx2", "pydantic", "PySide6", "qasync"):
    sys.modules[blocked] = None
from catalog_inspector.core import errors, text
from catalog_inspector.core.catalog import FORMAT, Snapshot
from catalog_inspector.core.drift import diff_catalogs, catalog_items
from catalog_inspector.core.calls import CallReport, Outcome, validate
doc = Snapshot.from_json({"format": FORMAT, "status": "complete", "resources": {"status": "not_offered"},
    "resource_templates": {"status": "not_offered"}, "prompts": {"status": "not_offered"}})
assert doc.tools.status == "complete"
assert diff_catalogs(catalog_items(doc), catalog_items(doc)).empty
print("ok")
"""

SANDBOX_WORKER_LIGHT = """
import sys
import catalog_inspector.core.calls.sandbox_worker
heavy = sorted(m for m in ("mcp", "mcp_types", "httpx2", "pydantic", "PySide6") if m in sys.modules)
assert not heavy, heavy
print("ok")
"""


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)


def test_core_and_cli_import_without_qt() -> None:
    out = _run(QT_FREE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_catalogs_drift_and_call_reports_import_without_the_sdk_or_the_network_stack() -> None:
    out = _run(SDK_FREE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_sandbox_worker_starts_without_the_sdk() -> None:
    out = _run(SANDBOX_WORKER_LIGHT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
