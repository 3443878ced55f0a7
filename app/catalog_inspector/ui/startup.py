"""The start-up window: the sidebar from the configuration alone, shown while the engine loads behind it.

Importing the engine (the MCP SDK with pydantic and its types, httpx, jsonschema,
anyio's backend, and the runtime and main window built on them) takes most of a
second; the window does not wait for it. `run_app` shows a `StartupWindow` first,
imports the engine on a thread once the sidebar has been painted (`load_engine`),
then builds the runtime and the main window on the GUI thread and puts the main
window in this one's place (`StartupWindow.hand_over`).

Only modules are imported on the thread: every QObject is made on the GUI thread.
Nothing in this module imports the engine; `PROBE_ENV` makes the app report what
was imported when the sidebar was first painted, and a test checks that it is none
of `ENGINE_MODULES`.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QEventLoop, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QColor, QKeySequence, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QListView, QMainWindow, QSplitter, QVBoxLayout, QWidget

from catalog_inspector.core.config import EntryProblem, ServerSpec
from catalog_inspector.core.text import visible
from catalog_inspector.ui.models.roles import Role, tooltip
from catalog_inspector.ui.widgets.labels import plain_label

if TYPE_CHECKING:
    from catalog_inspector.runtime import Runtime, ServerSupervisor

__all__ = ["ENGINE_MODULES", "PROBE_ENV", "StartupWindow", "import_engine", "load_engine", "probe", "probe_states"]

# Loaded after the first frame, never before it (the probe reports which of these were there).
ENGINE_MODULES = (
    "mcp",
    "mcp_types",
    "pydantic",
    "httpx2",
    "jsonschema",
    "anyio",
    "qasync",
    "catalog_inspector.runtime",
)
PROBE_ENV = "MCP_CATALOG_INSPECTOR_STARTUP_PROBE"  # "1": one JSON line per start-up event on stdout (tests, bench)
PROBE_PREFIX = "startup-probe "
# The sidebar's colours for a server that is starting, one disabled and an entry that could not be used: those of
# `ui.models.server_list.STATE_COLORS` (which imports the runtime) for CONNECTING, NOT_CONNECTED and FAILED (tested).
STARTING_COLOR = "#1e88e5"
IDLE_COLOR = "#9e9e9e"
PROBLEM_COLOR = "#e53935"
# A window that is never painted (started minimised, on another workspace) must not hold the engine back.
LOAD_ANYWAY_MS = 300


def probe(event: str, **fields: object) -> None:
    """Report a start-up event on stdout when `PROBE_ENV` is set (a hidden hook for tests and the benchmark)."""
    if os.environ.get(PROBE_ENV) == "1":
        print(PROBE_PREFIX + json.dumps({"event": event, **fields}), flush=True)


def probe_states(runtime: Runtime) -> None:
    """Under the probe, report every state change of the servers shown when the main window opened."""
    if os.environ.get(PROBE_ENV) == "1":
        for supervisor in runtime.supervisors:
            supervisor.state_changed.connect(partial(_probe_state, supervisor))


def _probe_state(supervisor: ServerSupervisor) -> None:
    tools = len(supervisor.accepted.tools.items) if supervisor.accepted is not None else None
    probe("state", server=supervisor.spec.name, state=supervisor.state.value, tools=tools)


def import_engine() -> None:
    """Import everything `run_app` needs after the start-up window, so building the main window imports nothing.

    Runs on a thread: module code only defines classes and constants (no QObject is made here).
    """
    import anyio._backends._asyncio  # noqa: F401  # anyio imports its backend on first use: that would be the GUI thread
    import qasync  # noqa: F401

    import catalog_inspector.core.calls  # noqa: F401
    import catalog_inspector.core.config  # noqa: F401
    import catalog_inspector.core.drift  # noqa: F401
    import catalog_inspector.core.processes  # noqa: F401
    import catalog_inspector.core.session  # noqa: F401  # the session worker: the SDK, its client and transports
    import catalog_inspector.runtime  # noqa: F401
    import catalog_inspector.ui.config_watch  # noqa: F401
    import catalog_inspector.ui.loop  # noqa: F401
    import catalog_inspector.ui.main_window  # noqa: F401


class StartupWindow(QMainWindow):
    """The app's first window: the sidebar and the configuration notice, built from the configuration alone.

    It has the main window's size, place, menu titles and splitter, so the main window
    takes its place without the sidebar moving.

    Attributes:
        servers: the sidebar's rows: each server ("starting…"), then each entry that could not be used.
        server_list: the sidebar's view (`startupServerList`).
        was_painted: `painted` was emitted.
        finished: closed by the user (or a quit) before the main window was ready.

    Signals:
        painted(): the sidebar has been painted once (or `LOAD_ANYWAY_MS` passed without a paint).
        closed(): the user closed the window, or the app was asked to quit, before the main window was ready.
    """

    painted = Signal()
    closed = Signal()

    def __init__(
        self, specs: Sequence[ServerSpec], problems: Sequence[EntryProblem], notice: str, settings: QSettings
    ) -> None:
        super().__init__()
        self.setObjectName("startupWindow")
        self.setWindowTitle("MCP Catalog Inspector")
        self.finished = False
        self.was_painted = False
        self._successor: QMainWindow | None = None  # the main window, once handed over
        self._retired = False
        self.servers = QStandardItemModel(self)
        for spec in specs:
            state, color = ("disabled in the config", IDLE_COLOR) if spec.disabled else ("starting…", STARTING_COLOR)
            self.servers.appendRow(self._row(spec.name, f"{spec.transport} · {state}", color, spec.describe()))
        for problem in problems:
            self.servers.appendRow(
                self._row(problem.name, "not loaded: fix this entry", PROBLEM_COLOR, problem.message)
            )
        self._build(notice)
        geometry = settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        last = settings.value("lastServer")
        rows = [self.servers.item(row).data(Role.KEY) for row in range(self.servers.rowCount())]
        if rows:
            self.server_list.setCurrentIndex(self.servers.index(rows.index(last) if last in rows else 0, 0))
        self._chosen = self.chosen  # what the user picks while the engine loads is handed over
        self.server_list.viewport().installEventFilter(self)
        QTimer.singleShot(LOAD_ANYWAY_MS, self._on_first_paint)

    @staticmethod
    def _row(name: str, state: str, color: str, details: str) -> QStandardItem:
        item = QStandardItem(f"{visible(name, 80)}\n{state}")
        item.setEditable(False)
        item.setData(QColor(color), Qt.ItemDataRole.DecorationRole)
        item.setData(tooltip(details), Qt.ItemDataRole.ToolTipRole)
        item.setData(name, Role.KEY)
        return item

    def _build(self, notice: str) -> None:
        self.server_list = QListView(self)
        self.server_list.setObjectName("startupServerList")
        self.server_list.setModel(self.servers)
        self.server_list.setSpacing(2)
        note = plain_label("startupNotice", self)
        note.setMargin(6)
        note.setStyleSheet("QLabel#startupNotice { background: #fff8e1; border: 1px solid #e0d090; }")
        note.setText(notice)
        note.setVisible(bool(notice))
        sidebar = QWidget(self)
        side = QVBoxLayout(sidebar)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(note)
        side.addWidget(self.server_list)
        status = plain_label("startupStatus", self, wrap=False)
        status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        status.setText("Starting…")
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(sidebar)
        splitter.addWidget(status)
        splitter.setSizes([280, 1100])  # as the main window's
        self.setCentralWidget(splitter)
        # The main window's menu bar (Quit works already), so nothing moves at the hand-over.
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        quit_action.triggered.connect(self.close)
        self.menuBar().addMenu("&File").addAction(quit_action)
        self.addAction(quit_action)
        for title in ("&Servers", "&Help"):
            self.menuBar().addMenu(title).setEnabled(False)
        self.resize(1400, 860)

    @property
    def chosen(self) -> str | None:
        """The name of the selected row, if any."""
        current = self.server_list.currentIndex()
        return current.data(Role.KEY) if current.isValid() else None

    @property
    def picked(self) -> str | None:
        """The row the user selected while this window was shown (None: they did not change it)."""
        chosen = self.chosen
        return chosen if chosen != self._chosen else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            # Acted on once this paint has been done: the sidebar's first, then the main window's first.
            QTimer.singleShot(0, self._on_first_paint if watched is self.server_list.viewport() else self._retire)
        return False

    def _on_first_paint(self) -> None:
        if self.was_painted or self._successor is not None or self.finished:
            return
        self.was_painted = True
        self.server_list.viewport().removeEventFilter(self)
        engine = [name for name in ENGINE_MODULES if name in sys.modules]
        rows = self.servers.rowCount()
        probe("sidebar", engine=engine, rows=rows, visible=self.isVisible())
        self.painted.emit()

    def hand_over(self, window: QMainWindow) -> None:
        """Show `window` in this one's place; this one goes once `window` has been painted (nothing flashes)."""
        self._successor = window
        if self.isMaximized() or self.isFullScreen():
            window.setWindowState(self.windowState())
        else:
            window.setGeometry(self.geometry())  # where the user may have moved it (saved geometry shifts on X11)
        window.installEventFilter(self)
        window.show()
        QTimer.singleShot(LOAD_ANYWAY_MS, self._retire)  # a window that is never painted must not keep this one

    def _retire(self) -> None:
        if self._successor is None or self._retired:
            return
        self._retired = True
        self._successor.removeEventFilter(self)
        probe("window", visible=self._successor.isVisible())
        self.hide()
        self.deleteLater()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._successor is None:
            if not self.finished:
                self.finished = True
                self.closed.emit()
        elif not self._retired:  # closed while the main window was being built: that is quitting the app
            self._successor.close()
        event.accept()


def load_engine(window: StartupWindow) -> bool:
    """Import the engine on a thread, started once `window` is painted; the window stays live meanwhile.

    Returns True once everything is imported, False when the window was closed (or
    the app asked to quit) first; either way the thread has ended. An error of the
    import is raised here, on the GUI thread, as if it had been imported here.
    """

    class Done(QObject):
        finished = Signal()

    done = Done()
    errors: list[BaseException] = []
    imported = threading.Event()

    def work() -> None:
        try:
            import_engine()
        except BaseException as exc:  # re-raised on the GUI thread below
            errors.append(exc)
        finally:
            imported.set()
            done.finished.emit()  # queued to the GUI thread, where `done` lives

    if window.finished:
        return False
    thread = threading.Thread(target=work, name="engine-import")
    waiting = QEventLoop()
    done.finished.connect(waiting.quit)
    window.closed.connect(waiting.quit)
    # No collection while the thread runs: one started there would delete whatever Qt objects of the GUI
    # thread had become garbage, on the wrong thread (it crashed the app when quit during the import).
    collecting = gc.isenabled()
    gc.disable()
    try:
        if window.was_painted:
            thread.start()
        else:
            window.painted.connect(thread.start)
        waiting.exec()  # also left when the application quits
        in_time = imported.is_set()  # else the window was closed, or the app asked to quit, first
    finally:
        if thread.ident is not None:
            thread.join()  # quitting waits for the import in progress (a thread cannot be stopped)
        if collecting:
            gc.enable()
    if errors:
        raise errors[0]
    return in_time and not window.finished
