"""Start-up: the window with its sidebar comes first, the engine is imported behind it, then the servers walk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSettings
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QListView, QMainWindow

from catalog_inspector.core.config import EntryProblem, demo_servers
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.server_list import STATE_COLORS
from catalog_inspector.ui.startup import PROBE_ENV, PROBE_PREFIX, StartupWindow, load_engine
from tests.helpers import assert_all_gone, demo_spec

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

    def __init__(self, home: Path) -> None:
        self.home = home
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "catalog_inspector"],
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
        for event in self.events():
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


def test_the_sidebar_is_painted_before_the_engine_is_imported_and_then_the_servers_walk(tmp_path: Path) -> None:
    app = App(tmp_path)
    try:
        first = next(app.events())
        assert first["event"] == "sidebar", first
        assert first["engine"] == [], "the MCP SDK, pydantic, httpx, jsonschema or the runtime came before the window"
        assert first["visible"] and first["rows"] == len(demo_servers(tmp_path))
        app.wait_for("window")
        ready = app.wait_for("state", state=ServerState.READY.value)
        assert ready["tools"] > 0
        pids = app.server_pids()
    finally:
        code, err = app.terminate()
    assert code == 0 and "Traceback" not in err, err
    assert_all_gone(pids)


def test_quitting_while_the_engine_loads_exits_cleanly_and_leaves_no_server(tmp_path: Path) -> None:
    app = App(tmp_path)
    try:
        app.wait_for("sidebar")
    finally:
        code, err = app.terminate()  # SIGTERM at once: the engine is still being imported
    assert code == 0 and "Traceback" not in err, err
    pids = app.server_pids()
    assert not pids, "an exit leaves no record of a server"


def _settings(tmp_path: Path, **values: object) -> QSettings:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    for key, value in values.items():
        settings.setValue(key, value)
    return settings


def test_the_startup_window_lists_the_servers_then_the_unusable_entries_in_the_sidebars_colours(
    qtbot: Any, tmp_path: Path
) -> None:
    specs = [
        demo_spec("normal", name="one"),
        demo_spec("normal", name="two"),
        replace(demo_spec("normal"), disabled=True),
    ]
    problems = [EntryProblem("broken", "mcpServers.broken needs a command")]
    window = StartupWindow(specs, problems, "2 entries were odd", _settings(tmp_path, lastServer="two"))
    qtbot.addWidget(window)
    rows = [window.servers.item(row) for row in range(window.servers.rowCount())]
    assert [row.data(Role.KEY) for row in rows] == ["one", "two", "demo-normal", "broken"]
    assert rows[0].text() == "one\nstdio · starting…"
    assert rows[2].text() == "demo-normal\nstdio · disabled in the config"
    assert rows[3].text() == "broken\nnot loaded: fix this entry"
    assert rows[0].data(1) == QColor(STATE_COLORS[ServerState.CONNECTING])  # 1: DecorationRole
    assert rows[2].data(1) == QColor(STATE_COLORS[ServerState.NOT_CONNECTED])
    assert rows[3].data(1) == QColor(STATE_COLORS[ServerState.FAILED])
    assert window.chosen == "two" and window.picked is None  # the last server, as the main window will select
    window.server_list.setCurrentIndex(window.servers.index(0, 0))
    assert window.picked == "one"  # a choice made while the engine loads is handed over
    assert window.findChild(QListView, "startupServerList") is window.server_list


def test_the_engine_loads_once_the_sidebar_is_painted(qtbot: Any, tmp_path: Path) -> None:
    window = StartupWindow([demo_spec("normal")], [], "", _settings(tmp_path))
    qtbot.addWidget(window)
    window.show()
    assert load_engine(window)  # returns once the import thread is done (the modules are there already here)
    assert window.was_painted and not window.finished


def test_closing_the_startup_window_before_the_engine_is_there_says_so(qtbot: Any, tmp_path: Path) -> None:
    window = StartupWindow([demo_spec("normal")], [], "", _settings(tmp_path))
    qtbot.addWidget(window)
    window.show()
    window.close()
    assert window.finished
    assert not load_engine(window)


@pytest.mark.parametrize(
    "module", ["catalog_inspector.main", "catalog_inspector.ui.app", "catalog_inspector.ui.startup"]
)
def test_the_modules_before_the_first_frame_do_not_import_the_engine(module: str) -> None:
    from catalog_inspector.ui.startup import ENGINE_MODULES

    code = f"import sys, {module}; print([m for m in {ENGINE_MODULES!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_the_main_window_takes_the_startup_windows_place_and_the_startup_window_goes_once_it_is_painted(
    qtbot: Any, tmp_path: Path
) -> None:
    startup = StartupWindow([demo_spec("normal")], [], "", _settings(tmp_path))
    startup.setGeometry(120, 80, 900, 600)  # where the user moved it while the engine loaded
    startup.show()
    main = QMainWindow()
    qtbot.addWidget(main)
    with qtbot.waitSignal(startup.destroyed, timeout=10_000):
        startup.hand_over(main)
        assert startup.isVisible() and main.isVisible()  # both, until the main window has been painted
    assert main.geometry() == QRect(120, 80, 900, 600)
    assert not startup.finished, "handing over is not closing"
