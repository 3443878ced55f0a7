"""Drive the real app to the README's pictures and grab its window (run by packaging/screenshot.sh).

Usage: python packaging/screenshot_driver.py [--dark] OUT_DIR  (under a display, e.g. xvfb-run)

It starts the app exactly as `mcp-catalog-inspector` does (`run_app`), so with no
user config it shows the app's own bundled demo servers, then works the window
through its public methods and widgets, waiting for the runtime's states, never
for a fixed time:

- `screenshot-call.png`: the clean demo catalog's `count_items` called from the Call
  tab; the server's answer breaks the tool's own output schema, and the verdict says so;
- `screenshot-drift.png`: the Drift tab after the drifting demo server's second walk;
- `screenshot.png`: the duplicate-on-refresh demo server after its rejected refresh,
  with the failed attempt's timeline and the duplicated name marked on its page.

With `--dark` it takes one picture instead, in the Fusion style with a dark palette
(`ui.theme.dark_palette`), as a desktop in dark mode would give it:

- `screenshot-dark.png`: the duplicate-on-refresh server's rejected refresh (its sidebar
  square red, the failed attempt's timeline), then the drifting demo server after its
  second walk, on the Tools tab: the drift banner, the tree's added, changed and removed
  marks and the notice above the sidebar.
"""

from __future__ import annotations

import asyncio
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTableView

from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.app import run_app
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.theme import dark_palette

STEP_TIMEOUT = 60.0  # seconds for any one thing to happen
POLL = 0.05
SIZE = (1400, 860)
failures: list[str] = []


async def until(what: str, condition: Callable[[], bool], timeout: float = STEP_TIMEOUT) -> None:
    """Let the app run until `condition` holds; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(POLL)


async def settled(window: MainWindow) -> None:
    """Wait for the tree to finish planning and let pending repaints run."""
    await until("the tool tree", lambda: not window.tools_pane.planning)
    for _ in range(5):  # a few turns of the loop for batched repaints (timeline rows, log lines)
        await asyncio.sleep(POLL)


async def select(window: MainWindow, name: str, state: ServerState) -> None:
    assert window.select_server(name), f"no server {name!r} in the sidebar"
    await until(
        f"{name} to be {state.value}", lambda: window.current is not None and window.current.supervisor.state is state
    )
    await until("its drift report", lambda: window.presenter is not None and window.presenter.report is not None)


async def refresh(window: MainWindow, state: ServerState) -> None:
    assert window.current is not None
    supervisor = window.current.supervisor
    started = asyncio.Event()
    supervisor.walk_started.connect(started.set)
    window.refresh()
    await asyncio.wait_for(started.wait(), STEP_TIMEOUT)
    await until(f"the refresh to end {state.value}", lambda: not supervisor.busy and supervisor.state is state)
    await until("its drift report", lambda: window.presenter is not None and window.presenter.report is not None)


def grab(window: MainWindow, path: Path) -> None:
    if not window.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    print(f"wrote {path}")


async def call_picture(window: MainWindow, out: Path) -> None:
    await select(window, "demo: clean catalog", ServerState.READY)
    await settled(window)
    tree = window.tools_pane.tree
    model = tree.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "count_items")
    tree.setCurrentIndex(model.index(row, 0))
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    assert panel.tool is not None and panel.tool.get("name") == "count_items"
    editor = panel.findChild(QPlainTextEdit, "callArguments")
    assert editor is not None
    editor.setPlainText('{"items": ["apples", "pears"]}')
    await until("the arguments' check", lambda: panel.validation is not None and panel.send_button.isEnabled())
    assert window.current is not None
    supervisor = window.current.supervisor
    finished = asyncio.Event()
    supervisor.call_finished.connect(lambda *_: finished.set())
    assert panel.send(), "the call was not sent"
    await asyncio.wait_for(finished.wait(), STEP_TIMEOUT)
    await settled(window)
    grab(window, out / "screenshot-call.png")


async def drift_picture(window: MainWindow, out: Path) -> None:
    await select(window, "demo: drifting catalog", ServerState.READY)
    await refresh(window, ServerState.READY)
    window.tabs.setCurrentWidget(window.drift_pane)
    view = window.findChild(QTableView, "driftView")
    assert view is not None
    model = view.model()
    # The worst change inside a schema (a JSON pointer), its old and new values side by side.
    pointed = [r for r in range(model.rowCount()) if model.index(r, 4).data()]
    if pointed:
        view.selectRow(pointed[0])
    await settled(window)
    grab(window, out / "screenshot-drift.png")


async def main_picture(window: MainWindow, out: Path) -> None:
    await select(window, "demo: duplicate on refresh", ServerState.READY)
    await refresh(window, ServerState.FAILED)
    window.tabs.setCurrentWidget(window.tools_pane)
    await settled(window)
    grab(window, out / "screenshot.png")


async def dark_picture(window: MainWindow, out: Path) -> None:
    await select(window, "demo: duplicate on refresh", ServerState.READY)
    await refresh(window, ServerState.FAILED)
    await select(window, "demo: drifting catalog", ServerState.READY)
    await refresh(window, ServerState.READY)
    window.tabs.setCurrentWidget(window.tools_pane)
    await settled(window)
    grab(window, out / "screenshot-dark.png")


async def drive(window: MainWindow, out: Path, dark: bool) -> None:
    try:
        window.resize(*SIZE)  # the app's own default size, whatever the screen
        await until("the window's size", lambda: (window.width(), window.height()) == SIZE)
        if dark:
            await dark_picture(window, out)
        else:
            await call_picture(window, out)
            await drift_picture(window, out)
            await main_picture(window, out)
    except Exception:  # the picture run failed: say why, and still close the window (and its servers)
        failures.append(traceback.format_exc())
    finally:
        QTimer.singleShot(0, window.close)  # from the event loop, not from inside this task


def main(argv: list[str]) -> int:
    dark = argv[:1] == ["--dark"]
    argv = argv[1:] if dark else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication([sys.argv[0]])
    if dark:
        app.setStyle("Fusion")
        app.setPalette(dark_palette())
    tasks: list[asyncio.Task[None]] = []

    def start() -> None:  # polled until run_app has built and shown the window
        window = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)
        if window is not None and not tasks:
            poll.stop()
            tasks.append(asyncio.ensure_future(drive(window, out, dark)))

    poll = QTimer()
    poll.setInterval(int(POLL * 1000))
    poll.timeout.connect(start)
    poll.start()
    code = run_app([])
    if failures or not tasks:
        print("".join(failures) or "the app never showed its window", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
