"""Shared test helpers: demo server specs, process liveness, HTTP demo servers."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.processes import ProcessRegistry

DEMO = (sys.executable, "-m", "catalog_inspector.demo")


def demo_spec(mode: str, *extra: str, name: str | None = None) -> ServerSpec:
    return ServerSpec(name=name or f"demo-{mode}", command=DEMO[0], args=(*DEMO[1:], "--mode", mode, *extra))


def alive(pid: int) -> bool:
    """True if `pid` runs (a zombie counts as gone: it holds no resources but its exit status)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


POLL_INTERVAL = 0.02


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
    flag = "--sse" if sse else "--http"
    proc = subprocess.Popen(
        [*DEMO, "--mode", mode, flag, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("READY "), f"demo server did not start: {line!r}"
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

