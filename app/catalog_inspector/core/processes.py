"""A record of live server process groups, so a crashed run's servers can be swept at the next start.

Each app instance keeps one file, `<dir>/<app pid>.json`, listing the process
groups it started, each with the kernel's start time of its leader (so a reused
pid is never mistaken for ours). At start-up, files of app instances that are
no longer running are swept: their groups are killed and the files removed.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import anyio
import anyio.abc

from catalog_inspector.core.files import write_text_safely

__all__ = ["ProcessRegistry", "kill_group", "reap", "start_time"]

REAP_TIMEOUT = 1.0  # seconds; a process that left our group could hold a pipe open


def kill_group(pid: int, sig: int = signal.SIGKILL) -> bool:
    """Signal the process group led by `pid`; False if there was none."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


async def reap(process: anyio.abc.Process, timeout: float = REAP_TIMEOUT) -> None:
    """Close a killed process's pipes and collect its exit status, within `timeout`."""
    with anyio.move_on_after(timeout), suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.aclose()
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    if transport is not None:
        transport.close()  # otherwise asyncio closes it at GC, possibly after the loop is gone


def start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), or None if unknown or gone."""
    if sys.platform != "linux":
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


class ProcessRegistry:
    """Process groups started by this app instance, persisted for crash recovery.

    Attributes:
        directory: where every instance keeps its file.
        groups: pid -> leader start time, for this instance.

    `submit` runs the file writes elsewhere (the app passes its worker threads:
    the GUI thread never waits on the disk); without it they run inline.
    """

    def __init__(self, directory: Path, submit: Callable[[Callable[[], None]], object] | None = None) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.owner = os.getpid()
        self.owner_start = start_time(self.owner)
        self.groups: dict[int, str | None] = {}
        self._file = directory / f"{self.owner}.json"
        self._submit = submit
        self._lock = threading.Lock()
        self._version = 0
        self._written = 0

    def _save(self) -> None:
        self._version += 1
        version, text = self._version, json.dumps({"owner": self.owner, "owner_start": self.owner_start, "groups": self.groups})
        if self._submit is None:
            self._write(version, text)
        else:
            self._submit(lambda: self._write(version, text))

    def _write(self, version: int, text: str) -> None:
        # Writes may finish out of order on a pool: an older state never overwrites a newer one.
        with self._lock:
            if version <= self._written:
                return
            write_text_safely(self._file, lambda handle: handle.write(text))
            self._written = version

    def add(self, pid: int) -> None:
        self.groups[pid] = start_time(pid)
        self._save()

    def remove(self, pid: int) -> None:
        self.groups.pop(pid, None)
        self._save()

    def kill_all(self) -> list[int]:
        """Kill every group this instance still records (the last resort at exit)."""
        killed = [pid for pid in list(self.groups) if kill_group(pid, signal.SIGKILL)]
        self.groups.clear()
        with self._lock:
            self._written = self._version = self._version + 1  # a write still queued must not bring it back
            self._file.unlink(missing_ok=True)
        return killed

    def sweep(self) -> list[int]:
        """Kill the groups left by app instances that are gone; returns the pids signalled."""
        killed: list[int] = []
        for path in self.directory.glob("*.json"):
            if path == self._file:
                continue
            try:
                data = json.loads(path.read_text())
                owner, owner_start = int(data["owner"]), data.get("owner_start")
                groups = {int(pid): start for pid, start in data.get("groups", {}).items()}
            except (OSError, ValueError, KeyError, TypeError):
                path.unlink(missing_ok=True)
                continue
            if owner_start is not None and start_time(owner) == owner_start:
                continue  # that instance still runs
            for pid, start in groups.items():
                if start is not None and start_time(pid) == start and kill_group(pid, signal.SIGKILL):
                    killed.append(pid)
            path.unlink(missing_ok=True)
        return killed
