"""Benchmark: a flood of a server's log messages (`notifications/message`) through the app, against the same
number of stderr lines measured in the same run.

The real window and runtime on the app's own (qasync) loop, over the log fixture
server on stdio (`tests/fixtures/log_server.py`). One test call of its `flood` tool
sends N log messages while it runs (each one parsed by the SDK, put in the server
log and under the call); the baseline is its `flood_stderr` tool, which writes N
lines to stderr: the flood the server log took before log messages existed.
Runs are interleaved so drift in machine load hits both sides. For each: the
longest stall of the app's loop (a 5 ms heartbeat, as `bench_walk.py` measures),
from the call's start until its lines are shown; the call's wall time; the GUI
thread's CPU time per 1,000 lines. For the CPU time a second baseline, in a
process of its own: the SDK's bare `Client` receiving the same flood with a
logging callback that only counts (what parsing the messages costs at all).
Prints a table and the ratios; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_server_log.py [--count 10000] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the fixture server is `tests.fixtures.log_server`

from bench_walk import FRAME_MS, Heartbeat  # noqa: E402  (the same heartbeat as the walk's figures)

SETTLE_S = 0.3  # after the call: the panes' batches (every 100 ms) are shown within the phase
SERVER = (sys.executable, "-m", "tests.fixtures.log_server")
PHASES = {  # name → (tool, the tab shown)
    "stderr lines (baseline)": ("flood_stderr", "log"),
    "log messages, Server & log shown": ("flood", "log"),
    "log messages, Call tab shown": ("flood", "call"),
}


async def _measure(window: Any, tool: str, tab: str, count: int, heart: Heartbeat) -> dict[str, float]:
    from catalog_inspector.runtime import CallTicket

    presenter = window.current
    supervisor = presenter.supervisor
    window.tabs.setCurrentWidget(window.call_panel if tab == "call" else window.server_log.parentWidget())
    finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_finished(ticket: CallTicket, _outcome: object) -> None:
        if ticket is mine and not finished.done():
            finished.set_result(None)

    supervisor.call_finished.connect(on_finished)
    heart.start()
    cpu, started = time.thread_time(), time.perf_counter()
    mine = supervisor.call_tool(tool, {"count": count}, timeout=600)
    assert mine is not None
    presenter.call.answer.start(mine, "benchmark")  # the Call tab follows this call, as when Send is pressed
    await finished
    wall = time.perf_counter() - started
    await asyncio.sleep(SETTLE_S)
    stall = heart.stop_ms()
    cpu = time.thread_time() - cpu
    supervisor.call_finished.disconnect(on_finished)
    return {"stall_ms": stall, "wall_s": wall, "cpu_ms_per_1000": cpu * 1000 / (count / 1000)}


async def _run(window: Any, count: int, runs: int, closed: asyncio.Future[None]) -> dict[str, list[dict[str, float]]]:
    from catalog_inspector.runtime import ServerState

    supervisor = window.app.runtime.supervisor("logs")
    ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_state() -> None:
        if supervisor.state is ServerState.READY and window.current is not None and not ready.done():
            ready.set_result(None)

    supervisor.state_changed.connect(on_state)
    on_state()  # it may be ready already
    await asyncio.wait_for(ready, 120)  # the walk's signal, not a poll
    supervisor.state_changed.disconnect(on_state)
    heart = Heartbeat()
    await _measure(window, "flood", "log", 100, heart)  # warm: the first call pays for imports and layouts
    found: dict[str, list[dict[str, float]]] = {name: [] for name in PHASES}
    for _ in range(runs):
        for name, (tool, tab) in PHASES.items():
            found[name].append(await _measure(window, tool, tab, count, heart))
    window.close()
    await closed  # every session closed, its server gone
    return found


def bare(count: int) -> dict[str, float]:
    """The SDK's own client, no window: the CPU time of receiving `count` log messages during one call."""
    import anyio
    from mcp import Client, StdioServerParameters

    async def run() -> dict[str, float]:
        heard = [0]

        async def counted(_params: object) -> None:
            heard[0] += 1

        params = StdioServerParameters(command=SERVER[0], args=list(SERVER[1:]))
        async with Client(
            params, cache=None, read_timeout_seconds=600, logging_callback=counted, log_level="info"
        ) as c:
            await c.call_tool("flood", {"count": 100})  # warm, as the app's part
            cpu, started = time.thread_time(), time.perf_counter()
            await c.call_tool("flood", {"count": count})
            wall, cpu = time.perf_counter() - started, time.thread_time() - cpu
        assert heard[0] >= count, heard
        return {"wall_s": wall, "cpu_ms_per_1000": cpu * 1000 / (count / 1000)}

    return anyio.run(run)


def _bare_part(count: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--part", "bare", "--count", str(count)],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--part", choices=["bare"])
    args = parser.parse_args()
    os.chdir(Path(__file__).resolve().parents[2])
    if args.part == "bare":
        print(json.dumps(bare(args.count)))
        return
    sdk = [_bare_part(args.count) for _ in range(args.runs)]

    import qasync
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from catalog_inspector.core.config import Limits, ServerSpec
    from catalog_inspector.runtime import Runtime
    from catalog_inspector.ui.app import freeze_startup_objects, prefer_the_gui_thread
    from catalog_inspector.ui.main_window import MainWindow
    from catalog_inspector.ui.presenters import AppPresenter
    from catalog_inspector.ui.startup import import_engine

    qapp = QApplication([])
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    spec = ServerSpec(name="logs", command=SERVER[0], args=SERVER[1:])
    runtime = Runtime([spec], Limits(request_timeout=600, deadline=600))
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(AppPresenter(runtime), settings)  # selecting the only server starts its walk
    window.pages.build_all()  # as the app does after the first frame
    import_engine()  # as run_app does behind the window: nothing the walk needs is imported during it
    freeze_startup_objects()  # as run_app does
    prefer_the_gui_thread()
    window.show()
    done = loop.create_future()
    window.closed.connect(lambda: done.done() or done.set_result(None))
    with loop:
        found = loop.run_until_complete(_run(window, args.count, args.runs, done))
    median = {name: {key: statistics.median(r[key] for r in rows) for key in rows[0]} for name, rows in found.items()}
    print(f"\n== a flood of {args.count:,} lines during one test call, stdio; median of {args.runs} runs ==")
    print(f"{'':34} {'longest stall':>14} {'wall':>8} {'GUI-thread CPU':>22}")
    for name, row in median.items():
        print(
            f"{name:34} {row['stall_ms']:9.0f} ms ({row['stall_ms'] / FRAME_MS:4.1f} frames) "
            f"{row['wall_s']:6.2f} s {row['cpu_ms_per_1000']:9.1f} ms / 1,000 lines"
        )
    bare_cpu = statistics.median(run["cpu_ms_per_1000"] for run in sdk)
    bare_wall = statistics.median(run["wall_s"] for run in sdk)
    print(f"{'bare SDK Client, no window':34} {'':>25} {bare_wall:6.2f} s {bare_cpu:9.1f} ms / 1,000 lines")
    base = median["stderr lines (baseline)"]
    for name, row in median.items():
        if row is not base:
            print(
                f"{name:32}: stall {row['stall_ms'] / base['stall_ms']:.2f}× the stderr flood's; "
                f"GUI-thread CPU {row['cpu_ms_per_1000'] / bare_cpu:.2f}× the bare SDK's"
            )


if __name__ == "__main__":
    main()
