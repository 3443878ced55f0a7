"""Benchmark: process start to the main window painted (a click on a server works), next to a bare PySide6 window.

Each run starts a new process and times, from just before it is spawned, the
line it prints once its first window's list has been painted:

- bare: a QMainWindow holding a QTreeView with six rows, Qt and nothing else
  (the floor for any PySide6 window);
- app: `python -m catalog_inspector` with the bundled demo servers (a fresh,
  empty config, cache and data directory per run), reporting through its hidden
  start-up probe (`ui.startup.PROBE_ENV`): the main window's sidebar painted
  (built without the engine: selecting, filtering and the Servers menu work), the
  engine imported behind it, the first server's catalog accepted.

Both print at the same moment: the first paint of their list, once it is done.
The runs are interleaved so that drift in machine load hits both sides. Prints
medians (and the spread) in ms and the ratio app / bare; asserts only that the
engine was not imported before the window was painted.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PREFIX = "startup-probe "
PROBE_ENV = "MCP_CATALOG_INSPECTOR_STARTUP_PROBE"  # as ui.startup (not imported here: it would load Qt)
TIMEOUT = 120.0  # seconds one run may take before it is killed

BARE = """
import json, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QMainWindow, QTreeView

app = QApplication([sys.argv[0]])
window = QMainWindow()
window.setWindowTitle("bare")
model = QStandardItemModel()
for row in range(6):
    model.appendRow(QStandardItem(f"server {row}\\nstdio"))
tree = QTreeView()
tree.setModel(model)
window.setCentralWidget(tree)
window.resize(1400, 860)

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            tree.viewport().removeEventFilter(self)
            QTimer.singleShot(0, done)  # once this paint has been done, as the app reports it
        return False

def done():
    print("startup-probe " + json.dumps({"event": "window"}), flush=True)
    app.quit()

probe = FirstPaint()
tree.viewport().installEventFilter(probe)
window.show()
app.exec()
"""


def _events(args: list[str], env: dict[str, str], until: str) -> dict[str, float]:
    """Spawn `args`; ms from spawn to each probe event's first line, until `until` (then SIGTERM and wait)."""
    started = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    watchdog = threading.Timer(TIMEOUT, proc.kill)  # a hung run ends its stdout, and the check below fails
    watchdog.start()
    seen: dict[str, float] = {}
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.startswith(PREFIX):
                continue
            now = (time.perf_counter() - started) * 1000
            event = json.loads(line[len(PREFIX) :])
            name = event["event"] if event["event"] != "state" else f"state:{event['state']}"
            seen.setdefault(name, now)
            if name == "window" and event.get("engine"):
                raise AssertionError(f"the engine was imported before the first frame: {event['engine']}")
            if name == until:
                break
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=TIMEOUT)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert until in seen, f"{args[:3]} ended without {until!r} (saw {sorted(seen)})"
    return seen


def bare() -> dict[str, float]:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    return _events([sys.executable, "-c", BARE], env, "window")


def app() -> dict[str, float]:
    home = tempfile.mkdtemp(prefix="bench-startup-")
    env = dict(
        os.environ,
        QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
        XDG_CONFIG_HOME=os.path.join(home, "config"),
        XDG_CACHE_HOME=os.path.join(home, "cache"),
        XDG_DATA_HOME=os.path.join(home, "data"),
        PYTHONDONTWRITEBYTECODE="",  # as an install: the untimed first run writes the bytecode the others read
        **{PROBE_ENV: "1"},
    )
    return _events([sys.executable, "-m", "catalog_inspector"], env, "state:ready")


def _line(what: str, values: list[float], floor: float | None = None) -> str:
    median = statistics.median(values)
    text = f"{what:<46}: {median:6.0f} ms (min {min(values):.0f}, max {max(values):.0f})"
    return text + (f"  ratio to bare {median / floor:.2f}" if floor else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    bares: list[float] = []
    apps: list[dict[str, float]] = []
    bare()  # one untimed run each: the first start after an install compiles bytecode and fills the disk cache
    app()
    for _ in range(args.runs):
        bares.append(bare()["window"])
        apps.append(app())
    floor = statistics.median(bares)
    print(f"\n== process start to first window, offscreen; median of {args.runs} interleaved runs ==")
    print(_line("bare PySide6 window + QTreeView painted", bares))
    print(_line("app: main window painted (a click works)", [run["window"] for run in apps], floor))
    print(_line("app: engine imported behind it", [run["engine"] for run in apps], floor))
    print(_line("app: first server's catalog accepted", [run["state:ready"] for run in apps]))


if __name__ == "__main__":
    main()
