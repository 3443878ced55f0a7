"""Start-up: the main window comes first, built without the engine; the engine is imported behind it, then the walks."""

from __future__ import annotations

import ast
import asyncio
import gc
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from catalog_inspector.core.config import demo_servers
from catalog_inspector.runtime import ServerState
from catalog_inspector.runtime.engine import ENGINE_MODULES, EngineGate
from catalog_inspector.ui import preload
from catalog_inspector.ui.startup import PROBE_ENV, PROBE_PREFIX, first_paint, load_engine
from tests.helpers import Runtimes, assert_all_gone
from tests.ui.conftest import wait_for

DEADLINE = 90.0  # seconds a whole start-up may take on a loaded machine before the app is killed


def _app_env(home: Path) -> dict[str, str]:
    return dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(home / "cfg"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
        **{PROBE_ENV: "1"},
    )


class App:
    """The real app in a subprocess, read through its start-up probe; killed if it outlives DEADLINE."""

    def __init__(self, home: Path, command: tuple[str, ...] = ("-m", "catalog_inspector")) -> None:
        self.home = home
        self.proc = subprocess.Popen(
            [sys.executable, *command],
            env=_app_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._watchdog = threading.Timer(DEADLINE, self.proc.kill)  # a hang ends stdout: the wait below fails
        self._watchdog.start()
        self.seen: list[dict[str, Any]] = []

    def events(self) -> Iterator[dict[str, Any]]:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(PROBE_PREFIX):
                event = json.loads(line[len(PROBE_PREFIX) :])
                self.seen.append(event)
                yield event

    def wait_for(self, name: str, **fields: object) -> dict[str, Any]:
        """The first such event, seen already or read now."""
        for event in itertools.chain(list(self.seen), self.events()):
            if event["event"] == name and all(event.get(key) == value for key, value in fields.items()):
                return event
        raise AssertionError(f"the app ended (or was killed) before {name} {fields}; saw {self.seen}")

    def server_pids(self) -> list[int]:
        sessions = self.home / "cache" / "mcp-catalog-inspector" / "sessions"
        pids: list[int] = []
        for path in sessions.glob("*.json"):
            try:
                pids += [int(pid) for pid in json.loads(path.read_text())["groups"]]
            except (OSError, ValueError, KeyError):
                pass
        return pids

    def terminate(self) -> tuple[int, str]:
        try:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
            _out, err = self.proc.communicate(timeout=DEADLINE)
            return self.proc.returncode, err
        finally:
            self._watchdog.cancel()
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def test_the_main_window_is_painted_before_the_engine_is_imported_and_then_the_servers_walk(tmp_path: Path) -> None:
    app = App(tmp_path)
    try:
        first = next(app.events())
        assert first["event"] == "window", first
        assert first["engine"] == [], "the MCP SDK, pydantic, httpx or the session layer came before the window"
        assert first["late"] == [], "the window's first frame loaded what only a call, a check or a report needs"
        assert first["visible"] and first["rows"] == len(demo_servers(tmp_path))
        assert first["collecting"] is False, "the cycle collector rescanned the start-up's objects"
        assert first["pyside_reads_ours"] is False, "PySide6 read the source of the window's modules"
        # The SDK's package bodies re-export its server and HTTP stacks: the engine needs neither, nor a walk.
        engine = app.wait_for("engine")
        assert engine["sdk"] == {"mcp": False, "mcp.client": False}
        # The transport's face loads on demand (a CLI walk of a stdio server never loads HTTP): the app loads all
        # of it behind the window, so no walk, call or sign-in imports any of it on the GUI thread.
        assert engine["unloaded"] == []
        assert app.wait_for("started")["collecting"] is True, "the cycle collector was left off after start-up"
        ready = app.wait_for("state", state=ServerState.READY.value)
        assert ready["tools"] > 0
        assert ready["sdk"] == {"mcp": False, "mcp.client": False}
        pids = app.server_pids()
    finally:
        code, err = app.terminate()
    assert code == 0 and "Traceback" not in err, err
    assert_all_gone(pids)


# The app as `-m catalog_inspector` runs it, each of our core modules written down as it is first imported,
# with whether Qt was in by then.
IMPORTS_LOGGED = """
import importlib.abc, sys, runpy
log = open(sys.argv.pop(1), "w", buffering=1)
class Logged(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith("catalog_inspector.core.") and name not in sys.modules:
            log.write(f"{name} {'PySide6' in sys.modules}\\n")
        return None
sys.meta_path.insert(0, Logged())
class Marked:  # the first paint's probe line marks the log: what follows was imported after it
    def __init__(self, out):
        self.out = out
    def write(self, text):
        if '"event": "window"' in text:
            log.write("-- painted\\n")
        return self.out.write(text)
    def __getattr__(self, name):
        return getattr(self.out, name)
sys.stdout = Marked(sys.stdout)
sys.argv[0] = "mcp-catalog-inspector"
runpy.run_module("catalog_inspector", run_name="__main__", alter_sys=True)
"""


def test_every_qt_free_module_the_window_needs_is_imported_before_qt(tmp_path: Path) -> None:
    # After PySide6, each module imported is read again by shiboken's import hook (`ui.preload.BEFORE_QT`): a face
    # that loads its modules on demand (`core.calls`) must have what the window uses named there, not itself.
    log = tmp_path / "imports.txt"
    app = App(tmp_path, ("-c", IMPORTS_LOGGED, str(log)))
    try:
        app.wait_for("window")
        lines = log.read_text().splitlines()
    finally:
        code, err = app.terminate()
    assert code == 0 and "Traceback" not in err, err
    assert "-- painted" in lines, "the probe's line was seen"
    before_paint = [line.split() for line in lines[: lines.index("-- painted")]]
    assert len(before_paint) > 30, "the log saw the window's modules"
    after_qt = [name for name, qt_in in before_paint if qt_in == "True"]
    assert after_qt == [], f"imported after Qt, before the first paint: {after_qt}"


def test_quitting_while_the_engine_loads_exits_cleanly_and_leaves_no_server(tmp_path: Path) -> None:
    app = App(tmp_path)
    try:
        app.wait_for("window")
    finally:
        code, err = app.terminate()  # SIGTERM at once: the engine is still being imported
    assert code == 0 and "Traceback" not in err, err
    pids = app.server_pids()
    assert not pids, "an exit leaves no record of a server"


@pytest.mark.parametrize(
    "module",
    [
        "catalog_inspector.main",
        "catalog_inspector.ui.app",
        "catalog_inspector.ui.startup",
        "catalog_inspector.ui.main_window",
        "catalog_inspector.ui.presenters",
        "catalog_inspector.runtime",
    ],
)
def test_the_window_and_the_runtime_import_without_the_engine(module: str) -> None:
    code = f"import sys, {module}; print([m for m in {ENGINE_MODULES!r} if m in sys.modules])"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True, env=env)
    assert out.stdout.strip() == "[]"


def test_first_paint_returns_once_the_widget_was_painted(qtbot: Any, qloop: Any) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    painted: list[bool] = []

    class Painted(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            painted.append(event.type() == QEvent.Type.Paint)
            return False

    spy = Painted(widget)
    widget.installEventFilter(spy)
    widget.show()
    task = asyncio.ensure_future(first_paint(widget))
    wait_for(qtbot, task.done, timeout=10_000)
    task.result()
    assert any(painted), "first_paint returned before any paint"


def test_loading_the_engine_opens_the_gate_and_turns_collection_back_on(qtbot: Any, runtimes: Runtimes) -> None:
    runtime = runtimes.runtime([], engine=EngineGate(loaded=False))
    heard: list[bool] = []
    runtime.engine_ready.connect(lambda: heard.append(True))
    task = asyncio.ensure_future(load_engine(runtime))
    wait_for(qtbot, task.done, timeout=60_000)
    task.result()
    assert runtime.engine.loaded and heard == [True]
    # The token table loads on after the gate opened (not awaited: the pages are built meanwhile); collection
    # comes back once it is in. (Checked at once, this failed whenever the table was not loaded yet.)
    wait_for(qtbot, gc.isenabled, timeout=60_000)


def test_what_the_window_imports_before_qt_has_no_qt_nor_the_engine_in_it() -> None:
    # Imported before Qt, the window's Qt-free modules skip PySide's per-module source scan (`ui.preload.BEFORE_QT`);
    # a Qt import among them would bring Qt in first again, and the engine must wait for the first frame anyway.
    code = (
        "import json, sys\n"
        "from catalog_inspector.ui.preload import BEFORE_QT, import_before_qt\n"
        "import_before_qt()\n"
        "print(json.dumps([all(name in sys.modules for name in BEFORE_QT), sorted(sys.modules)]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    imported, modules = json.loads(proc.stdout)
    assert imported
    assert not [name for name in modules if name.split(".")[0] in {"PySide6", "shiboken6", "qasync"}]
    assert not [name for name in ENGINE_MODULES if name in modules]


def _imports_qt(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        if any(name.partition(".")[0] in {"PySide6", "shiboken6", "qasync"} for name in names):
            return True
    return False


def test_every_module_of_ours_that_imports_qt_is_one_pyside_is_told_uses_it() -> None:
    # PySide6 is told which of our modules use it instead of reading them (`ui.preload.without_pyside_reading_ours`):
    # the answer by room must be True for every module that imports Qt (else a feature switch could pass it by).
    package = Path(preload.__file__).resolve().parents[1]
    imports_qt: dict[str, bool] = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        imports_qt[name] = _imports_qt(ast.parse(path.read_text(encoding="utf-8")))
    assert sum(imports_qt.values()) > 60, "the walk found the window's modules"
    assert [name for name, qt in imports_qt.items() if qt and not preload.uses_qt(name)] == []
    assert preload.uses_qt("catalog_inspector.ui") and preload.uses_qt("catalog_inspector.runtime.supervisor")
    assert not preload.uses_qt("catalog_inspector.core.catalog") and not preload.uses_qt("catalog_inspector.uix")


PYSIDE_TOLD = """
import json, sys, types
import PySide6.QtCore
from catalog_inspector.ui import preload
feature = sys.modules["shibokensupport.feature"]
read_before = preload.pyside_reads_ours()
preload.without_pyside_reading_ours()
preload.without_pyside_reading_ours()  # once is enough: not wrapped twice
asked = feature._mod_uses_pyside
inner = [cell.cell_contents for cell in asked.__closure__ if callable(cell.cell_contents)]
# Modules with no source: the scan would say False for every one of them (it cannot read them).
answers = {name: asked(types.ModuleType(name)) for name in (
    "catalog_inspector.ui.nowhere", "catalog_inspector.core.nowhere", "json", "PySide6.QtNowhere", "somewhere_else")}
from catalog_inspector.ui.widgets import labels  # after the hook: the package imported from is answered for
print(json.dumps({
    "before": read_before, "after": preload.pyside_reads_ours(), "wrapped_once": inner[0].__module__ != preload.__name__,
    "answers": answers, "widgets": feature.pyside_feature_dict.get("catalog_inspector.ui.widgets"),
}))
"""


def test_pyside_is_answered_for_our_modules_the_standard_library_and_itself_and_reads_the_rest() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, "-c", PYSIDE_TOLD], capture_output=True, text=True, timeout=60, check=True, env=env
    )
    told = json.loads(out.stdout)
    assert told["before"] is True and told["after"] is False and told["wrapped_once"] is True
    assert told["answers"] == {
        "catalog_inspector.ui.nowhere": True,  # by its room, not its (missing) source
        "catalog_inspector.core.nowhere": False,
        "json": False,
        "PySide6.QtNowhere": True,
        "somewhere_else": False,  # read as before: no source, no PySide6
    }
    assert told["widgets"] == 0, "a module of ours that uses Qt is one that uses PySide6 (0: no feature switched on)"
