"""Shared test helpers: demo server specs, process liveness, HTTP demo servers."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.processes import ProcessRegistry
from catalog_inspector.core.steps import Steps
from tests.cli_runner import ZYGOTE

if TYPE_CHECKING:
    from catalog_inspector.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")


# `python -m catalog_inspector.demo`, forked from this worker's zygote by a bare stub (tests/fixtures/server_stub.py):
# a real server process over real stdio, without a second of SDK import per start.
def forked(module: str) -> tuple[str, ...]:
    """The command that runs `python -m MODULE` as a fork of this worker's zygote (tests/fixtures/server_stub.py)."""
    return (sys.executable, "-I", "-S", str(ROOT / "tests" / "fixtures" / "server_stub.py"), ZYGOTE.path, module)


DEMO = forked("catalog_inspector.demo")
REAL_DEMO = (sys.executable, "-m", "catalog_inspector.demo")  # where the server's own ancestry or argv is the point


def demo_spec(mode: str, *extra: str, name: str | None = None) -> ServerSpec:
    return ServerSpec(name=name or f"demo-{mode}", command=DEMO[0], args=(*DEMO[1:], "--mode", mode, *extra))


def fixture_spec(module: str, name: str, *extra: str, era: str = "auto") -> ServerSpec:
    """A configured stdio server that runs `python -m tests.fixtures.MODULE EXTRA…` (forked), in `era`."""
    command = forked(f"tests.fixtures.{module}")
    return ServerSpec(name=name, command=command[0], args=(*command[1:], *extra), cwd=str(ROOT), protocol_era=era)  # type: ignore[arg-type]


def alive(pid: int) -> bool:
    """True if `pid` runs (a zombie counts as gone: it holds no resources but its exit status)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


POLL_INTERVAL = 0.02


def steps_taken(steps: Steps[T]) -> tuple[int, T]:
    """Run `steps` (`core.steps`) to its end: how many steps it took, and its result."""
    taken = 0
    try:
        while True:
            next(steps)
            taken += 1
    except StopIteration as done:
        return taken, done.value


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    """Poll `condition` until it holds; fail after `timeout` seconds.

    Only for conditions no event announces (another process writing a file);
    process exits are awaited through pidfds instead (`assert_all_gone`).
    """
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(POLL_INTERVAL)


def wait_gone(pid: int, timeout: float = 10.0) -> None:
    """Block until `pid` has exited (a zombie counts), woken by its pidfd; fail after `timeout`."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        deadline = time.monotonic() + timeout
        while alive(pid):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"process {pid} still runs after {timeout} s")
            select.select([fd], [], [], remaining)  # readable once the process has exited
    finally:
        os.close(fd)


def recording_registry(directory: Path, pids: list[int]) -> ProcessRegistry:
    """A process registry that also appends every server pid it records to `pids`."""
    registry = ProcessRegistry(directory)
    add = registry.add
    registry.add = lambda pid: (pids.append(pid), add(pid))[1]  # type: ignore[method-assign]
    return registry


def spin_until_gone(qtbot, pids: list[int], timeout: int = 15_000) -> None:  # type: ignore[no-untyped-def]
    """Wait, spinning the Qt loop (where shutdowns run), until these processes are gone."""
    assert pids, "no process was recorded"
    qtbot.waitUntil(lambda: not any(alive(p) for p in pids), timeout=timeout)


def pids_in(pidfile: Path) -> list[int]:
    return [int(line) for line in pidfile.read_text().split()] if pidfile.exists() else []


def assert_all_gone(pids: list[int], timeout: float = 10.0) -> None:
    assert pids, "no process was recorded"
    for pid in pids:
        wait_gone(pid, timeout)


@contextmanager
def http_demo(mode: str, *extra: str, sse: bool = False) -> Iterator[str]:
    """Run the demo server over Streamable HTTP (or SSE) on 127.0.0.1; yield its URL."""
    with serving([*DEMO, "--mode", mode, "--sse" if sse else "--http", *extra]) as url:
        yield url


@contextmanager
def hostile_http(fault: str, *extra: str) -> Iterator[str]:
    """Run `tests/fixtures/hostile_http.py` with one fault; yield its URL."""
    with serving([*forked("tests.fixtures.hostile_http"), "--fault", fault, *extra]) as url:
        yield url


@contextmanager
def serving(command: list[str]) -> Iterator[str]:
    """Run a server that prints `READY <url>` first; yield the URL; stop it afterwards."""
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("READY "), f"server did not start: {line!r}"
        yield line.split()[1]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


# Double-forks into a new session and exits once its grandchild runs: the grandchild is an orphan.
_ORPHAN = """
import os, signal
os.setsid()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_RDWR), 1)
    while True:
        signal.pause()
print(pid, flush=True)
os._exit(0)
"""


def spawn_orphan() -> int:
    """Start an orphan of the test's own (a double fork whose middle process exits); returns its pid.

    When the test process is a child subreaper the orphan becomes its child, just like a
    server's daemonized helper: it stands for a process nobody may kill but the test.
    """
    middle = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert middle.stdout is not None
    with middle.stdout:
        line = middle.stdout.readline()
    middle.wait(timeout=30)
    return int(line)


def end_process(pid: int) -> None:
    """SIGKILL a process the test started, wait until it is gone and reap it if it became our child."""
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    wait_gone(pid)
    with suppress(ChildProcessError):
        os.waitpid(pid, 0)


def app_env(tmp_path: Path) -> dict[str, str]:
    """The environment of an app started as a new user would start it: offscreen, its files under `tmp_path`."""
    return dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(tmp_path / "cfg"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        XDG_DATA_HOME=str(tmp_path / "data"),
    )


async def next_turn() -> None:
    """Suspend until the event loop's next turn: an event set by the loop itself, not a timed sleep."""
    import asyncio

    turned = asyncio.Event()
    asyncio.get_running_loop().call_soon(turned.set)
    await turned.wait()


RUNTIME_LIMITS = Limits(request_timeout=5.0, deadline=30.0)
RUNTIME_WAIT = 20_000  # ms


class Runtimes:
    """Makes runtimes whose spawns are recorded; at teardown shuts them down and proves no process is left."""

    def __init__(self, qtbot: Any, tmp_path: Path) -> None:  # qtbot: pytest-qt's
        self.qtbot = qtbot
        self.tmp_path = tmp_path
        self.made: list[Runtime] = []
        self.pids: list[int] = []

    def runtime(self, specs: list[ServerSpec], **desks: Any) -> Runtime:
        registry = recording_registry(self.tmp_path / f"sessions-{len(self.made)}", self.pids)
        from catalog_inspector.runtime import Runtime

        runtime = Runtime(specs, RUNTIME_LIMITS, registry, **desks)
        self.made.append(runtime)
        return runtime

    def teardown(self) -> None:
        for runtime in self.made:
            if not runtime._shutting_down:
                with self.qtbot.waitSignal(runtime.shutdown_finished, timeout=RUNTIME_WAIT):
                    runtime.shutdown()
        if self.pids:
            spin_until_gone(self.qtbot, self.pids)
