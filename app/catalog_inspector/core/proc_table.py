"""What Linux's /proc says about a process: its stat, its children, its pipes; and a signal to exactly it.

`core.processes` walks server trees with these; each read is a few system calls and
gives None (or nothing) for a process that is gone or unreadable, never an error.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Procs", "Stat", "children_files", "pipes_of", "read_stat", "signal_exactly", "start_time"]


@dataclass(frozen=True)
class Stat:
    """What a walk needs from `/proc/<pid>/stat`."""

    ppid: int
    pgid: int
    sid: int
    start: int  # clock ticks after boot: with the pid, it names one process for good
    zombie: bool


def read_stat(pid: int) -> Stat | None:
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
    except OSError:
        return None
    try:
        data = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = data[data.rfind(b")") + 2 :].split()  # the name in parentheses may hold anything
    try:
        return Stat(int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19]), fields[0] == b"Z")
    except (IndexError, ValueError):
        return None


@functools.cache
def children_files() -> bool:
    # `task/<tid>/children` needs CONFIG_PROC_CHILDREN; without it every process's stat is read instead.
    return os.path.exists(f"/proc/self/task/{threading.get_native_id()}/children")


class Procs:
    """One look at /proc, for one walk: each process's stat is read at most once."""

    def __init__(self) -> None:
        self._stats: dict[int, Stat | None] = {}
        self._by_parent: dict[int, list[int]] | None = None

    def stat(self, pid: int) -> Stat | None:
        if pid not in self._stats:
            self._stats[pid] = read_stat(pid)
        return self._stats[pid]

    def children(self, pid: int) -> list[int]:
        if children_files():
            found: list[int] = []
            with suppress(OSError):
                for tid in os.listdir(f"/proc/{pid}/task"):  # each thread lists the children it forked
                    with suppress(OSError, ValueError):
                        found += map(int, Path(f"/proc/{pid}/task/{tid}/children").read_text().split())
            return found
        if self._by_parent is None:
            self._by_parent = {}
            with suppress(OSError):
                for name in os.listdir("/proc"):
                    if name.isdigit() and (stat := self.stat(int(name))) is not None:
                        self._by_parent.setdefault(stat.ppid, []).append(int(name))
        return self._by_parent.get(pid, [])


def pipes_of(pid: int, fds: Iterable[str] | None = None) -> set[str]:
    """The pipes among a process's open files (all, or `fds`), as /proc names them: `pipe:[inode]`."""
    base = f"/proc/{pid}/fd"
    found: set[str] = set()
    with suppress(OSError):
        for fd in os.listdir(base) if fds is None else fds:
            with suppress(OSError):
                if (target := os.readlink(f"{base}/{fd}")).startswith("pipe:"):
                    found.add(target)
    return found


def signal_exactly(pid: int, start: int, sig: int) -> None:
    """Signal `pid` only while it is the process that started at `start`: a pidfd pins it during the check."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except OSError:  # no pidfds (before Linux 5.3): a check and a plain kill
        stat = read_stat(pid)
        if stat is not None and stat.start == start:
            with suppress(OSError):
                os.kill(pid, sig)
        return
    try:
        stat = read_stat(pid)
        if stat is not None and stat.start == start:
            with suppress(OSError):
                signal.pidfd_send_signal(fd, sig)
    finally:
        os.close(fd)


def start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), or None if unknown or gone."""
    if sys.platform != "linux":
        return None
    stat = read_stat(pid)
    return str(stat.start) if stat is not None else None
