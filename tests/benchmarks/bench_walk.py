"""Benchmark: big stdio catalogs through the app and the CLI, against a bare SDK loop measured in the same run.

Each part runs in its own subprocess so peak memory (max RSS) is its own, and
runs are interleaved so drift in machine load hits both sides. Prints figures
and ratios; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_walk.py [--tools N ...] [--runs R]

Figures:
- walk: connect + walk (+ render, for the app) against `ClientSession.list_tools` page by page;
- stalls on the app's own event loop (a 5 ms heartbeat): while the walk fills the
  tree, while a filter is typed one key at a time, while a refresh that reverses
  the catalog and edits every tenth description is walked and applied;
- the `snapshot` command against the same bare loop (time and peak memory);
- quitting: from Ctrl+Q to the process exit with the bundled demo servers connected,
  against the same app with no server.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

DEMO = [sys.executable, "-m", "catalog_inspector.demo", "--mode", "many"]
FRAME_MS = 16.0
FILTER_TEXT = "tool_0999"
KEY_INTERVAL_MS = 60  # a fast typist
SETTLE_MS = 200  # after a phase, for the view's deferred layout to happen inside that phase


def _demo_args(tools: int, page_size: int, *extra: str) -> list[str]:
    return [*DEMO[1:], "--tools", str(tools), "--page-size", str(page_size), "--many-drift", *extra]


def baseline(tools: int, page_size: int) -> dict[str, float]:
    """Connect and walk tools/list with the SDK alone."""
    import anyio
    import mcp_types as types
    from mcp import Client, StdioServerParameters

    async def walk() -> dict[str, float]:
        params = StdioServerParameters(command=DEMO[0], args=_demo_args(tools, page_size))
        start = time.perf_counter()
        async with Client(params, cache=None, read_timeout_seconds=600) as client:
            cursor: str | None = None
            found: list[Any] = []
            while True:
                page = await client.session.list_tools(
                    params=types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
                )
                found += page.tools
                if page.next_cursor is None:
                    break
                cursor = page.next_cursor
            elapsed = time.perf_counter() - start
        assert len(found) == tools, len(found)
        return {"seconds": elapsed}

    return anyio.run(walk)


def cli(tools: int, page_size: int) -> dict[str, float]:
    """The `snapshot` command, in this process, writing the document to /dev/null."""
    from catalog_inspector import cli as command

    start = time.perf_counter()
    code = command.main(
        [
            "snapshot",
            "--timeout",
            "600",
            "--deadline",
            "3600",
            "--out",
            os.devnull,
            "--",
            DEMO[0],
            *_demo_args(tools, page_size),
        ]
    )
    assert code == 0, code
    return {"seconds": time.perf_counter() - start}


class Heartbeat:
    """The longest gap between 5 ms timer ticks while measuring: how long the event loop was blocked."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._beat)
        self.last = time.perf_counter()
        self.longest = 0.0
        self.measuring = False
        self.timer.start()

    def _beat(self) -> None:
        now = time.perf_counter()
        if self.measuring:
            self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        self.measuring = True

    def stop_ms(self) -> float:
        self.measuring = False
        return max(self.longest, time.perf_counter() - self.last) * 1000


def app(tools: int, page_size: int) -> dict[str, float]:
    """The real window and runtime: walk and fill, type a filter, refresh into a reversed, edited catalog."""
    import asyncio
    import tempfile

    import qasync
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from catalog_inspector.core.catalog import preload_encoding
    from catalog_inspector.core.config import Limits, ServerSpec
    from catalog_inspector.runtime import Runtime
    from catalog_inspector.ui.app import freeze_startup_objects, prefer_the_gui_thread
    from catalog_inspector.ui.main_window import MainWindow
    from catalog_inspector.ui.presenters import AppPresenter
    from catalog_inspector.ui.startup import import_engine

    qapp = QApplication([])
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    state = os.path.join(tempfile.mkdtemp(), "walks.json")  # so the refresh, a new process, is walk 1
    spec = ServerSpec(name="many", command=DEMO[0], args=tuple(_demo_args(tools, page_size, "--state", state)))
    runtime = Runtime([spec], Limits(request_timeout=600, deadline=3600))
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    supervisor = runtime.supervisors[0]
    result: dict[str, float] = {}
    heart = Heartbeat()
    done = loop.create_future()
    start = [0.0]
    window: MainWindow

    def on_first_page(*_args: object) -> None:
        # Measure from the first page on: walking and filling the tree, not window start-up.
        if not heart.measuring and "walk_stall_ms" not in result:
            heart.start()

    def on_applied() -> None:
        # A while later: the view lays rows out in later events, and that belongs to this phase too.
        QTimer.singleShot(SETTLE_MS, walked if "walk_stall_ms" not in result else refreshed)

    def walked() -> None:
        result["seconds"] = time.perf_counter() - start[0] - SETTLE_MS / 1000
        result["walk_stall_ms"] = heart.stop_ms()
        result["tools"] = len(window.tools_pane.model.tool_names())
        keys = list(FILTER_TEXT)
        heart.start()

        def type_next() -> None:
            if keys:
                window.tools_pane.filter.insert(keys.pop(0))
                QTimer.singleShot(KEY_INTERVAL_MS, type_next)
                return
            QTimer.singleShot(SETTLE_MS, typed)

        QTimer.singleShot(KEY_INTERVAL_MS, type_next)

    def typed() -> None:
        result["filter_stall_ms"] = heart.stop_ms()
        result["filter_rows"] = window.tools_pane.tree.model().rowCount()
        heart.start()
        window.tools_pane.filter.clear()
        QTimer.singleShot(SETTLE_MS, cleared)

    def cleared() -> None:
        result["clear_stall_ms"] = heart.stop_ms()
        heart.start()
        supervisor.refresh()  # walk 1: reversed, every tenth description edited

    def refreshed() -> None:
        result["refresh_stall_ms"] = heart.stop_ms()
        model = window.tools_pane.model
        result["reversed"] = float(model.index(0, 0).data() == f"tool_{tools - 1:05d}")
        window.close()

    supervisor.page_arrived.connect(on_first_page)
    window = MainWindow(AppPresenter(runtime), settings)  # selecting the only server starts the walk
    window.pages.build_all()  # as the app does after the first frame
    window.tools_pane.tools_applied.connect(on_applied)
    import_engine()  # as run_app does behind the window: nothing the walk needs is imported during it
    preload_encoding()  # and the token table, which run_app loads behind the window once the engine is in
    freeze_startup_objects()  # as run_app does
    prefer_the_gui_thread()
    start[0] = time.perf_counter()
    window.show()
    window.closed.connect(lambda: done.done() or done.set_result(None))
    with loop:
        loop.run_until_complete(done)
    assert result.get("tools") == tools, result
    return result


def qt_idle(tools: int, page_size: int) -> dict[str, float]:
    """The same window with no server: the memory Qt and the widgets cost by themselves."""
    import tempfile

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from catalog_inspector.core.config import Limits
    from catalog_inspector.runtime import Runtime
    from catalog_inspector.ui.main_window import MainWindow
    from catalog_inspector.ui.presenters import AppPresenter

    qapp = QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(AppPresenter(Runtime([], Limits())), settings)
    window.pages.build_all()  # as the app does after the first frame
    window.show()
    qapp.processEvents()
    return {"seconds": 0.0}


QUIT_SCRIPT = """
import os, sys, time
from PySide6.QtCore import QTimer
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui import app, main_window

class Probe(main_window.MainWindow):
    def __init__(self, presenter, *args, **kwargs):
        super().__init__(presenter, *args, **kwargs)
        for supervisor in presenter.runtime.supervisors:
            supervisor.ensure_started()
        QTimer.singleShot(50, self._probe)

    def _probe(self):
        settled = (ServerState.READY, ServerState.FAILED, ServerState.STALE)
        if all(s.state in settled and not s.busy for s in self.app.runtime.supervisors):
            print("QUIT", time.time(), flush=True)
            self.close()  # what Ctrl+Q does
        else:
            QTimer.singleShot(20, self._probe)

main_window.MainWindow = Probe
sys.exit(app.run_app(sys.argv[1:]))
"""


def quit_time(with_servers: bool) -> float:
    """Seconds from Ctrl+Q to the app's process exit (the bundled demo servers connected, or none)."""
    import tempfile

    home = tempfile.mkdtemp()
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(home, "cfg"), XDG_CACHE_HOME=os.path.join(home, "cache"))
    args = [sys.executable, "-c", QUIT_SCRIPT]
    if not with_servers:
        empty = os.path.join(home, "empty.json")
        with open(empty, "w") as handle:
            json.dump({"mcpServers": {}}, handle)
        args += ["--config", empty]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    asked = None
    for line in proc.stdout:
        if line.startswith("QUIT"):
            asked = float(line.split()[1])
            break
    proc.wait(timeout=60)
    exited = time.time()
    assert asked is not None and proc.returncode == 0, proc.returncode
    return exited - asked


def _run_part(part: str, tools: int, page_size: int) -> dict[str, float]:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    out = subprocess.run(
        [sys.executable, __file__, "--part", part, "--tools", str(tools), "--page-size", str(page_size)],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def _walks(tools: int, page_size: int, runs: int) -> None:
    parts: dict[str, list[dict[str, float]]] = {"baseline": [], "app": [], "cli": []}
    for _ in range(runs):
        for part in parts:  # interleaved, so drift in machine load hits every side
            parts[part].append(_run_part(part, tools, page_size))
    b, a, c = (_median(parts[p]) for p in ("baseline", "app", "cli"))
    print(f"\n== {tools:,} tools in {tools // page_size:,} pages over stdio; median of {runs} runs ==")
    print(f"bare SDK loop        : {b['seconds']:.2f} s connect+walk, max RSS {b['max_rss_mib']:.0f} MiB")
    print(f"app (runtime+window) : {a['seconds']:.2f} s connect+walk+render, max RSS {a['max_rss_mib']:.0f} MiB")
    print(f"snapshot CLI         : {c['seconds']:.2f} s connect+walk+write, max RSS {c['max_rss_mib']:.0f} MiB")
    print(f"walk time ratio, app / SDK     : {a['seconds'] / b['seconds']:.2f}")
    print(f"peak memory ratio, app / SDK   : {a['max_rss_mib'] / b['max_rss_mib']:.2f}")
    print(f"walk time ratio, CLI / SDK     : {c['seconds'] / b['seconds']:.2f}")
    print(f"peak memory ratio, CLI / SDK   : {c['max_rss_mib'] / b['max_rss_mib']:.2f}")
    for key, what in (
        ("walk_stall_ms", "while the walk fills the tree"),
        ("filter_stall_ms", f"while typing {FILTER_TEXT!r}"),
        ("clear_stall_ms", "when the filter is cleared"),
        ("refresh_stall_ms", "while a reversed, edited refresh is walked and applied"),
    ):
        print(f"longest stall {what:<55}: {a[key]:5.0f} ms ({a[key] / FRAME_MS:.1f} frames)")
    assert a["reversed"] == 1.0 and a["filter_rows"] >= 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--page-size", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--part", choices=["baseline", "app", "cli", "qt_idle"])
    args = parser.parse_args()
    if args.part:
        parts = {"baseline": baseline, "app": app, "cli": cli, "qt_idle": qt_idle}
        figures = parts[args.part](args.tools[0], args.page_size)
        figures["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(figures))
        return
    for tools in args.tools:
        _walks(tools, args.page_size, args.runs if tools <= 10_000 else max(1, args.runs - 1))
    idle = _run_part("qt_idle", args.tools[0], args.page_size)
    print(f"\nfor reference, the window with no server: max RSS {idle['max_rss_mib']:.0f} MiB")
    with_servers = statistics.median(quit_time(True) for _ in range(args.runs))
    without = statistics.median(quit_time(False) for _ in range(args.runs))
    print(
        f"quit to process exit, the bundled demo servers connected: {with_servers * 1000:.0f} ms "
        f"(no server: {without * 1000:.0f} ms; ratio {with_servers / without:.2f})"
    )


if __name__ == "__main__":
    main()
