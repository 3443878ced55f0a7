"""Start-up: the main window first, built from the configuration alone; the engine imported behind it.

Importing the engine (the MCP SDK with its two generations of pydantic types,
httpx, OAuth and the session layer: `runtime.engine`) takes most of a second.
The window does not wait for it: `run_app` builds the runtime and the main window
without it, shows the window, and once the window has been painted imports the
engine on a thread (`load_engine`), then opens the runtime's engine gate, and the
walks that were asked for meanwhile start. Selecting a server, the filter, the
Servers menu and quitting work from the first frame.

Only modules are imported on the thread: every QObject is made on the GUI thread.
The thread also imports what the first frame did not need of the calls and drift
rooms (`ui.preload.BEHIND_FIRST_FRAME`). `PROBE_ENV` makes the app report its start-up
events; a test checks that none of `ENGINE_MODULES`, nor any module of those rooms
that `ui.preload.BEFORE_QT` does not name, was imported when the window was first painted.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from catalog_inspector.runtime.engine import ENGINE_MODULES
from catalog_inspector.ui.preload import load_behind_first_frame

if TYPE_CHECKING:
    from catalog_inspector.runtime import Runtime, ServerSupervisor

__all__ = [
    "ENGINE_MODULES",
    "PROBE_ENV",
    "engine_unloaded",
    "first_paint",
    "import_engine",
    "load_engine",
    "probe",
    "probe_states",
]

PROBE_ENV = "MCP_CATALOG_INSPECTOR_STARTUP_PROBE"  # "1": one JSON line per start-up event on stdout (tests, bench)
PROBE_PREFIX = "startup-probe "
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
    probe("state", server=supervisor.spec.name, state=supervisor.state.value, tools=tools, sdk=sdk_bodies())


def sdk_bodies() -> dict[str, bool]:
    """Of the SDK's packages whose bodies the engine defers (`core.sdk_packages`), which have run theirs."""
    from catalog_inspector.core.sdk_packages import PACKAGES, deferred

    return {name: name in sys.modules and not deferred(name) for name in PACKAGES}


def engine_imported() -> list[str]:
    """Which of `ENGINE_MODULES` are imported now."""
    return [name for name in ENGINE_MODULES if name in sys.modules]


def import_engine() -> None:
    """Import the engine, so that nothing the walks, calls and sign-ins do imports it on the GUI thread.

    Runs on a thread: module code only defines classes and constants (no QObject is made here).
    """
    from catalog_inspector.core.sdk_packages import defer

    defer()  # the SDK's package bodies, which the engine does not need (`core.sdk_packages`)
    import anyio._backends._asyncio  # noqa: F401  # anyio imports its backend on first use: that would be the GUI thread
    import jsonschema_specifications  # type: ignore[import-untyped]  # noqa: F401  # else the first lint imports these
    import referencing.jsonschema  # noqa: F401
    from jsonschema import validators  # noqa: F401

    from catalog_inspector.core import session  # the session worker: the SDK, its client and transports

    session.load_http()  # the HTTP link, the OAuth client, all of the transport: a CLI walk over stdio loads none
    load_behind_first_frame()


def engine_unloaded() -> list[str]:
    """What a walk, call or sign-in would still import on the GUI thread (`core.session.http_unloaded`): empty once
    `import_engine` has run."""
    from catalog_inspector.core import session

    return session.http_unloaded()


class _FirstPaint(QObject):
    """Resolves `done` once `widget` has been painted (after that paint), or after LOAD_ANYWAY_MS."""

    def __init__(self, widget: QWidget, done: asyncio.Future[None]) -> None:
        super().__init__(widget)
        self._widget = widget
        self._done = done
        widget.installEventFilter(self)
        QTimer.singleShot(LOAD_ANYWAY_MS, self, self._finish)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, self, self._finish)  # once this paint has been done
        return False

    def _finish(self) -> None:
        if not self._done.done():
            self._widget.removeEventFilter(self)
            self._done.set_result(None)


async def first_paint(widget: QWidget) -> None:
    """Return once `widget` has been painted for the first time (or LOAD_ANYWAY_MS passed without a paint)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    watcher = _FirstPaint(widget, done)
    try:
        await done
    finally:
        watcher.deleteLater()


async def load_engine(runtime: Runtime) -> None:
    """Import the engine on a thread, then open the runtime's engine gate (the walks that wait for it start).

    An error of the import is raised here, on the GUI thread, as if it had been imported here.
    """
    # No collection while the thread imports: one started there would delete whatever Qt objects of the GUI
    # thread had become garbage, on the wrong thread (it crashed the app when quit during the import). The
    # thread itself turns collection back on once it is done, even when quitting stopped waiting for it.
    collecting = gc.isenabled()
    gc.disable()

    def work() -> None:
        try:
            import_engine()
        finally:
            if collecting:
                gc.enable()

    await asyncio.get_running_loop().run_in_executor(None, work)
    runtime.engine_loaded()
    # Then the token table (~0.2 s, most of it holding the GIL): while the first walks wait on their servers'
    # start-up, not later under a catalog's count, where it stalled the tree 75 ms (`make bench`, walk stall).
    collecting = gc.isenabled()
    gc.disable()

    def tokens() -> None:
        try:
            from catalog_inspector.core.catalog import preload_encoding

            preload_encoding()
        finally:
            if collecting:
                gc.enable()

    asyncio.get_running_loop().run_in_executor(None, tokens)
