"""Benchmark: a 10,000-tool, 100-page stdio catalog through the app's runtime and tree model.

Compared, in the same run, with a bare SDK loop (`ClientSession.list_tools` page
by page) over the same demo server. Each side runs in its own subprocess so
peak memory (max RSS) is its own. Prints figures and ratios; asserts nothing.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_walk.py [--tools N] [--page-size K] [--runs R]
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

DEMO = [sys.executable, "-m", "catalog_inspector.demo", "--mode", "many"]


def _demo_args(tools: int, page_size: int) -> list[str]:
    return [*DEMO[1:], "--tools", str(tools), "--page-size", str(page_size)]


def baseline(tools: int, page_size: int) -> dict[str, float]:
    """Connect and walk tools/list with the SDK alone."""
    import anyio
    import mcp_types as types
    from mcp import Client, StdioServerParameters

    async def walk() -> dict[str, float]:
        params = StdioServerParameters(command=DEMO[0], args=_demo_args(tools, page_size))
        start = time.perf_counter()
        async with Client(params, cache=None, read_timeout_seconds=60) as client:
            cursor: str | None = None
            count = pages = 0
            while True:
                page = await client.session.list_tools(
                    params=types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
                )
                count += len(page.tools)
                pages += 1
                if page.next_cursor is None:
                    break
                cursor = page.next_cursor
            elapsed = time.perf_counter() - start
        assert count == tools, count
        return {"seconds": elapsed, "tools": count, "pages": pages}

    return anyio.run(walk)


def app(tools: int, page_size: int) -> dict[str, float]:
    """Connect and walk through the runtime's supervisor; fill the real window's tree; watch the loop."""
    import asyncio
    import tempfile

    import qasync
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from catalog_inspector.core.config import Limits, ServerSpec
    from catalog_inspector.runtime import Runtime
    from catalog_inspector.ui.app import freeze_startup_objects
    from catalog_inspector.ui.main_window import MainWindow

    qapp = QApplication([])
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    spec = ServerSpec(name="many", command=DEMO[0], args=tuple(_demo_args(tools, page_size)))
    runtime = Runtime([spec], Limits(request_timeout=60, deadline=600))
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    result: dict[str, float] = {}
    last = [time.perf_counter()]
    stall = [0.0]

    measuring = [False]

    def beat() -> None:
        now = time.perf_counter()
        if measuring[0]:
            stall[0] = max(stall[0], now - last[0])
        last[0] = now

    def first_page(*_args: object) -> None:
        # Measure from the first page on: walking and filling the tree, not window start-up.
        if not measuring[0]:
            measuring[0] = True
            last[0] = time.perf_counter()

    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(beat)
    done = loop.create_future()
    start = [0.0]
    supervisor = runtime.supervisors[0]

    def accepted(_snapshot: object) -> None:
        # The window renders on this same signal; measure once it has filled the tree.
        QTimer.singleShot(0, finish)

    def finish() -> None:
        tree_rows = window.tools_pane.model.rowCount()
        result.update(seconds=time.perf_counter() - start[0], tools=tree_rows, stall_ms=stall[0] * 1000)
        fill = time.perf_counter()
        window.tools_pane.model.set_tools([])  # remove all, then insert all again: the model's worst case
        window.tools_pane.model.set_tools(supervisor.accepted.tools.items)  # type: ignore[union-attr]
        result["tree_refill_ms"] = (time.perf_counter() - fill) * 1000
        window.close()

    supervisor.catalog_accepted.connect(accepted)
    supervisor.page_arrived.connect(first_page)
    window = MainWindow(runtime, settings)  # selecting the only server starts the walk
    freeze_startup_objects()  # as run_app does
    start[0] = time.perf_counter()
    last[0] = start[0]
    heartbeat.start()
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

    qapp = QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Runtime([], Limits()), settings)
    window.show()
    qapp.processEvents()
    return {"seconds": 0.0}


def _run_part(part: str, tools: int, page_size: int) -> dict[str, float]:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    out = subprocess.run(
        [sys.executable, __file__, "--part", part, "--tools", str(tools), "--page-size", str(page_size)],
        capture_output=True, text=True, env=env, timeout=900, check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--page-size", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--part", choices=["baseline", "app", "qt_idle"])
    args = parser.parse_args()
    if args.part:
        figures = {"baseline": baseline, "app": app, "qt_idle": qt_idle}[args.part](args.tools, args.page_size)
        figures["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(figures))
        return
    runs = {"baseline": [], "app": []}  # type: dict[str, list[dict[str, float]]]
    for _ in range(args.runs):
        for part in ("baseline", "app"):  # interleaved, so drift in machine load hits both
            runs[part].append(_run_part(part, args.tools, args.page_size))
    med = {part: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for part, rs in runs.items()}
    b, a = med["baseline"], med["app"]
    print(f"catalog: {args.tools:,} tools in {args.tools // args.page_size} pages over stdio; median of {args.runs} runs")
    print(f"bare SDK loop   : {b['seconds']:.2f} s connect+walk, max RSS {b['max_rss_mib']:.0f} MiB")
    print(f"app (runtime+UI): {a['seconds']:.2f} s connect+walk+render, max RSS {a['max_rss_mib']:.0f} MiB")
    print(f"walk time ratio (app / SDK)      : {a['seconds'] / b['seconds']:.2f}")
    print(f"peak memory ratio (app / SDK)    : {a['max_rss_mib'] / b['max_rss_mib']:.2f}")
    print(f"longest event-loop stall (app)   : {a['stall_ms']:.0f} ms (5 ms heartbeat)")
    print(f"tree refill, 10k rows (app)      : {a['tree_refill_ms']:.0f} ms")
    idle = _run_part("qt_idle", args.tools, args.page_size)
    print(f"for reference, the window with no server: max RSS {idle['max_rss_mib']:.0f} MiB "
          f"(so the catalog itself costs the app {a['max_rss_mib'] - idle['max_rss_mib']:.0f} MiB)")


if __name__ == "__main__":
    main()
