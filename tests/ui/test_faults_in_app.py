"""The fault-injection cases through the app, offscreen: the same hostile servers as `tests/test_faults.py`.

Each case opens the real window on a misbehaving server (a demo mode on stdio,
`tests/fixtures/hostile_http.py` at the HTTP layer, the demo over legacy SSE)
and checks what a user of the app is promised:

- the banner names the fault: the classified kind's heading (the one table in
  `core.errors`), the page where there is one, and the server has left
  "connecting" — within the limit the case is about;
- the window stays responsive: the longest stall of the app's own event loop
  while the fault happens (a 5 ms heartbeat, as `tests/benchmarks/bench_walk.py`
  measures) is reported and bounded;
- where a good catalog came first (the fault arrives on a refresh), it stays:
  the tool tree still shows it and the banner says the refresh failed;
- a failed attempt's processes go at once, and closing the window leaves no
  server process (stdio demo servers write theirs to `--pidfile`), no socket,
  no task, and no async generator for the garbage collector to close outside
  the loop (the app's loop adopts asyncio's async-generator hooks for this:
  without them, httpx's body iterators of a response cut at the byte cap were
  closed wherever they were dropped, and a 20 MB legacy SSE page lost its page).

`FAULT_FIGURES=FILE` appends one JSON line of figures per case.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import weakref
from collections.abc import AsyncGenerator, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import AsyncGeneratorType
from typing import Any, Literal, cast

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QListView, QPlainTextEdit, QPushButton

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.runtime import ServerState, ServerSupervisor
from catalog_inspector.ui.main_window import LOG_LINES, MainWindow
from tests.helpers import DEMO, alive, assert_all_gone, demo_spec, hostile_http, http_demo, pids_in
from tests.test_faults import CASES, STARTUP, TIMEOUT, Case
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_main_window import banner_text, names_in_tree, timeline

GOOD = ["echo", "count_items", "delete_everything"]  # the demo's normal catalog
STALL_BOUND_MS = 3000.0  # generous on a loaded machine; reading a 1 GB body on the GUI thread takes far longer
GONE_S = 10.0  # for a failed attempt's processes to go, a stubborn one included

# The cases of `tests/test_faults.py` run here, and whether a good catalog comes first (the fault
# then arrives on a refresh). Legacy SSE and the hanging HTTP demo fault every walk: first walk only.
APP_CASES: dict[str, bool] = {
    "crash-on-page-1": True,
    "hang-on-page-1": True,
    "garbage-line": True,
    "100-mb-stdio-page": True,
    "stderr-flood": False,
    "stubborn-grandchild": True,
    "http-json-endless": True,
    "http-json-1-gb": True,
    "http-sse-20-mb": True,
    "http-body-cut-off": True,
    "http-redirect-away": True,
    "http-hang-on-page-1": False,
    "sse-no-endpoint": False,
    "sse-20-mb-page": False,
}

# A stdio server that is the demo in `normal` mode for its first walks and the fault's mode from walk
# `start` on. Every walk of the app is a new process (a refresh runs in a candidate session), so the
# walks are counted in a file; `exec` keeps the pid the app recorded. The demo is `server` (JSON): this
# worker's forked one (`tests.helpers.DEMO`), which runs the real one for a mode about its own process tree.
SWITCH = """
import json, os, sys
counter, start, pidfile, server, *fault = sys.argv[1:]
with open(counter, "a+") as walks:
    walks.seek(0)
    walk = len(walks.read())
    walks.write(".")
mode = fault if walk >= int(start) else ["--mode", "normal"]
command = json.loads(server)
os.execv(command[0], [*command, *mode, "--pidfile", pidfile])
"""


class Heartbeat:
    """The longest gap between ticks of a 5 ms timer on the app's loop: how long the loop was blocked.

    The same measure as `tests/benchmarks/bench_walk.py`; the ticks come while
    qtbot's waits spin the Qt loop, which is also where the runtime's tasks run.
    """

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._beat)
        self.last = time.perf_counter()
        self.longest = 0.0

    def _beat(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        self.timer.start()

    def stop_ms(self) -> float:
        self.timer.stop()
        return max(self.longest, time.perf_counter() - self.last) * 1000


class Generators:
    """Every async generator first iterated during a test (the app's, the SDK's, httpx's), watched weakly,
    and every finalizer that raised while the test ran.

    One abandoned while suspended (a response body nobody read to its end) is
    closed by the loop's finalizer hook, in a task, when it is collected — if a
    hook was in force when it started. Without one (qasync installs none on
    Python 3.11) it is closed wherever its last reference goes or the garbage
    collector runs, in whatever task that is or in none: its cleanup raises
    there, and Python can only print that.

    Attributes:
        raised: the finalizers that raised, by the name of what they finalized.
    """

    def __init__(self) -> None:
        self.found: weakref.WeakKeyDictionary[AsyncGeneratorType[Any, Any], bool] = weakref.WeakKeyDictionary()
        self.raised: list[str] = []
        self._old = sys.get_asyncgen_hooks()
        self._old_unraisable = sys.unraisablehook

    def _first_iteration(self, agen: AsyncGenerator[Any, Any]) -> None:
        self.found[cast(AsyncGeneratorType[Any, Any], agen)] = self._old.finalizer is not None  # a loop will close it
        if self._old.firstiter is not None:
            self._old.firstiter(agen)

    def _unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        what = unraisable.object
        self.raised.append(str(getattr(what, "__qualname__", type(what).__name__)))

    def __enter__(self) -> Generators:
        sys.set_asyncgen_hooks(firstiter=self._first_iteration, finalizer=self._old.finalizer)
        sys.unraisablehook = self._unraisable
        return self

    def __exit__(self, *_exc: object) -> None:
        sys.set_asyncgen_hooks(*self._old)
        sys.unraisablehook = self._old_unraisable

    def orphans(self) -> list[AsyncGeneratorType[Any, Any]]:
        """Suspended generators still alive that no loop will close."""
        found = list(self.found.items())
        return [agen for agen, hooked in found if agen.ag_frame is not None and not agen.ag_running and not hooked]

    def sweep(self, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
        """Close the orphans in a task of the app's loop, as a finalizer hook would (so no later test pays);
        returns their names and those of the finalizers that raised."""
        orphans = self.orphans()

        async def close_all() -> None:
            for agen in orphans:
                with suppress(Exception):
                    await agen.aclose()

        task = asyncio.ensure_future(close_all())
        qtbot.waitUntil(task.done, timeout=10_000)
        return sorted({agen.__qualname__ for agen in orphans} | set(self.raised))


@pytest.fixture
def generators(qloop) -> Iterator[Generators]:  # type: ignore[no-untyped-def]
    with Generators() as watched:
        yield watched


def open_sockets() -> int:
    """Sockets this process holds open (the app's connections to HTTP servers among them)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        with suppress(OSError):
            count += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
    return count


def limits_of(case: Case) -> Limits:
    """The CLI options of a case, as the app's budgets."""
    limits = Limits(request_timeout=TIMEOUT, deadline=30.0)
    fields = {"--timeout": "request_timeout", "--deadline": "deadline", "--max-page-bytes": "max_page_bytes",
              "--max-pages": "max_pages"}  # fmt: skip
    for option, value in zip(case.args, case.args[1:], strict=False):  # `--sse` takes no value
        if option in fields:
            kind = type(getattr(limits, fields[option]))
            limits = replace(limits, **{fields[option]: kind(value)})
    return limits


@contextmanager
def reach(case: Case, tmp: Path, good_first: bool) -> Iterator[tuple[ServerSpec, Path | None]]:
    """The server of `case`, running: its spec, and the pidfile its processes write (stdio demo only)."""
    how, *rest = case.server.split(" ", 1)
    words = rest[0].split(" ") if rest else []
    transport: Literal["http", "sse"] = "sse" if "--sse" in case.args or how == "sse-demo" else "http"
    if how == "demo":
        pidfile = tmp / "pids"
        if good_first:
            switch = ("-c", SWITCH, str(tmp / "walks"), "1", str(pidfile), json.dumps(DEMO), "--mode", *words)
            yield ServerSpec(name="faulty", command=sys.executable, args=switch), pidfile
        else:
            yield demo_spec(words[0], *words[1:], "--pidfile", str(pidfile), name="faulty"), pidfile
    elif how == "http":
        with hostile_http(*words, "--from-walk", "1" if good_first else "0", "--end-on-disconnect") as url:
            yield ServerSpec(name="faulty", transport=transport, url=url), None
    else:
        assert not good_first, "the demo's HTTP modes fault every walk"
        with http_demo(words[0], *words[1:], sse=how == "sse-demo") as url:
            yield ServerSpec(name="faulty", transport=transport, url=url), None


def settled(supervisor: ServerSupervisor, case: Case) -> bool:
    """The walk has ended the way the case expects: failed (banner up), or a complete catalog."""
    if supervisor.busy:
        return False
    return supervisor.state is (ServerState.FAILED if case.kind is not None else ServerState.READY)


def sidebar_text(window: MainWindow) -> str:
    return str(window.findChild(QListView, "serverList").model().index(0, 0).data())


def check_banner(window: MainWindow, case: Case, good_first: bool) -> None:
    """The banner names the fault, where it happened, and what stays on screen."""
    text = banner_text(window)
    if case.kind is None:
        assert not window.banner.isVisible(), text
        return
    kind = ErrorKind(case.kind)
    assert window.banner.isVisible() and window.banner.state == "failure" and window.banner.kind == case.kind
    headline = text.splitlines()[0]
    assert headline.startswith(f"{'Rejected' if kind.rejected else 'Failed'}: {kind.heading}"), text
    if case.page is not None:
        assert f"{kind.heading} on page {case.page} of tools" in headline, text
        pages = timeline(window).model()  # the failed attempt's own timeline, the failing page last
        last = pages.rowCount() - 1
        assert pages.index(last, 0).data() == str(case.page) and pages.index(last, 6).data() == kind.outcome
    else:
        assert " on page " not in headline, text
    retry = window.findChild(QPushButton, "retryButton")
    assert retry.isEnabled() and window.findChild(QPushButton, "refreshButton").isEnabled()
    if good_first:
        assert "The last good catalog" in text and "stays on screen" in text, text
        assert "failed (last good: 3 tools)" in sidebar_text(window)
    else:
        assert "No catalog has been accepted" in text, text
        assert names_in_tree(window) == [] and sidebar_text(window).endswith(" · failed")


@dataclass
class Figures:
    """What one case measured: the classified error, the longest stall, the time to the banner, what was left."""

    kind: str | None = None
    page: int | None = None
    stall_ms: float = 0.0
    wall_s: float = 0.0
    banner: str = ""
    leftovers: list[str] = field(default_factory=list)


def run_the_fault(window: MainWindow, case: Case, good_first: bool, pidfile: Path | None, qtbot) -> Figures:  # type: ignore[no-untyped-def]
    """From the start of the faulty walk until it has ended and its processes are gone, the heartbeat running."""
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    heart = Heartbeat()
    before: list[int] = []
    if good_first:
        wait_for(qtbot, lambda: shown(window) and names_in_tree(window) == GOOD)
        before = pids_in(pidfile) if pidfile is not None else []
        heart.start()
        started = time.monotonic()
        qtbot.mouseClick(window.findChild(QPushButton, "refreshButton"), Qt.MouseButton.LeftButton)
        assert supervisor.busy
    else:
        heart.start()  # the first walk has been asked for, and starts when the loop next runs
        started = time.monotonic()
    # A complete catalog is settled once the window shows it (published with its first drift report).
    wait_for(
        qtbot,
        lambda: settled(supervisor, case) and (case.kind is not None or shown(window)),
        timeout=int((case.limit + STARTUP) * 1000),
    )
    wall = time.monotonic() - started
    if pidfile is not None and case.kind is not None:
        # The failed attempt's processes go now, not when the window closes (a stubborn one is killed).
        failed = [pid for pid in pids_in(pidfile) if pid not in before]
        assert failed, "the faulty server wrote no pid"
        qtbot.waitUntil(lambda: not any(alive(pid) for pid in failed), timeout=int(GONE_S * 1000))
    stall = heart.stop_ms()
    attempt = supervisor.attempt
    error = attempt.snapshot.error if attempt is not None and attempt.snapshot is not None else None
    kind, page = (str(error.kind), error.page) if error is not None else (None, None)
    return Figures(kind, page, stall, wall, banner_text(window).split("\n")[0])


def close_and_sweep(harness: Harness, window: MainWindow, pidfile: Path | None, generators: Generators) -> list[str]:
    """Close the window; prove no process, socket or task is left; returns the orphaned async generators."""
    harness.close(window)
    if pidfile is not None:
        assert_all_gone(pids_in(pidfile))
    if harness.pids:
        harness.assert_gone(list(harness.pids))
    assert not [task for task in asyncio.all_tasks(asyncio.get_event_loop()) if not task.done()]
    return generators.sweep(harness.qtbot)


def record(name: str, good_first: bool, figures: Figures) -> None:
    if path := os.environ.get("FAULT_FIGURES"):
        row = {"case": name, "path": "app", "kind": figures.kind, "page": figures.page,
               "stall_ms": round(figures.stall_ms), "wall_s": round(figures.wall_s, 2),
               "on": "refresh" if good_first else "first walk", "banner": figures.banner,
               "leftovers": figures.leftovers}  # fmt: skip
        with open(path, "a") as out:
            out.write(json.dumps(row) + "\n")


@pytest.mark.parametrize("name", list(APP_CASES))
def test_a_fault_is_named_in_the_banner_while_the_window_stays_responsive_and_nothing_is_left(  # type: ignore[no-untyped-def]
    name: str, harness: Harness, qtbot, tmp_path: Path, generators: Generators
) -> None:
    case, good_first = CASES[name], APP_CASES[name]
    with reach(case, tmp_path, good_first) as (spec, pidfile):
        sockets = open_sockets()
        window = harness.window([spec], limits=limits_of(case))  # selecting the server starts its walk
        figures = run_the_fault(window, case, good_first, pidfile, qtbot)
        assert (figures.kind, figures.page) == (case.kind, case.page), figures
        check_banner(window, case, good_first)
        if good_first or case.kind is None:
            assert names_in_tree(window) == GOOD, "the last good catalog stays"
        if "--stderr-flood" in case.server:
            assert window.findChild(QPlainTextEdit, "serverLog").blockCount() <= LOG_LINES
        assert figures.wall_s <= case.limit + STARTUP, figures
        assert figures.stall_ms < STALL_BOUND_MS, f"the window stalled for {figures.stall_ms:.0f} ms"
        figures.leftovers = close_and_sweep(harness, window, pidfile, generators)
        assert open_sockets() <= sockets, "a connection to the server is still open"
    record(name, good_first, figures)
    assert not figures.leftovers, f"left suspended, or raised when finalized: {figures.leftovers}"


@pytest.mark.parametrize("name", ["stubborn-grandchild", "http-hang-on-page-1"])
def test_quitting_while_a_page_hangs_does_not_wait_for_the_timeout_and_leaves_nothing(  # type: ignore[no-untyped-def]
    name: str, harness: Harness, qtbot, tmp_path: Path, generators: Generators
) -> None:
    case = CASES[name]
    limits = limits_of(case)
    with reach(case, tmp_path, good_first=False) as (spec, pidfile):
        sockets = open_sockets()
        window = harness.window([spec], limits=limits)
        supervisor = window.current.supervisor if window.current is not None else None
        assert supervisor is not None
        # Page 0 came; page 1 was asked for and will never be answered.
        wait_for(qtbot, lambda: supervisor.attempt is not None and len(supervisor.attempt.pages_of("tools")) == 1)
        heart = Heartbeat()
        heart.start()
        started = time.monotonic()
        leftovers = close_and_sweep(harness, window, pidfile, generators)
        took, stall = time.monotonic() - started, heart.stop_ms()
        assert open_sockets() <= sockets, "a connection to the server is still open"
    assert took < limits.request_timeout, f"quitting took {took:.1f} s"
    assert stall < STALL_BOUND_MS, f"the loop stalled for {stall:.0f} ms while quitting"
    assert not leftovers
