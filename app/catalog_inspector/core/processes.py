"""Server processes: every descendant found and killed, and a record of live groups for crash recovery.

`open_server_process` starts a stdio server under its own reaper (`core.reaper`,
Linux, run from source): a process that is the server's parent and the child
subreaper of its tree, so an orphan of the tree becomes the reaper's child however
short-lived its parent was (fork, setsid, fork, the middle exiting at once) and can
never leave the tree. A sweep of our own orphans cannot do that: ours include
processes the server never made (a browser `xdg-open` double-forked for a sign-in,
another server's), indistinguishable from its daemon once their parents are gone.

`ServerTree` follows every process descended from one stdio server (Linux): the
reaper and everything below it. A kill of the server's process group misses a
descendant that called `setsid()` or double-forked into a session of its own, so:

- this process becomes a child subreaper too (`adopt_orphans`): what escapes a
  reaper that was killed first, and a server started without one (a frozen
  bundle, which has no interpreter to run the reaper with), reparents to us
  instead of to init, and stays findable;
- the server's tree is walked while it lives and again when it is killed
  (`/proc/<pid>/task/*/children`, or every process's `/proc/<pid>/stat`);
- an orphan that became our child is counted in only when it carries a mark
  of this server: it was seen in the tree, it sits in a session or group made
  in the tree, or it holds one of the server's stdio pipes. Nothing else is
  ever signalled: not other servers, not the sandbox worker, not whatever else
  the app or a test started;
- what was killed and became our child is reaped, pid by pid (never
  `waitpid(-1)`, which would steal exit statuses asyncio waits for).

`ProcessRegistry`: each app instance keeps one file, `<dir>/<app pid>.json`,
listing the process groups it started, each with the kernel's start time of its
leader (so a reused pid is never mistaken for ours). At start-up, files of app
instances that are no longer running are swept: their groups are killed and the
files removed.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc

from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.popen_process import PopenProcess
from catalog_inspector.core.proc_table import Procs, Stat, pipes_of, read_stat, signal_exactly, start_time

__all__ = [
    "ProcessRegistry",
    "ServerTree",
    "adopt_orphans",
    "end_unclaimed",
    "kill_group",
    "open_server_process",
    "reap",
    "start_early",
    "start_time",
]

REAP_TIMEOUT = 1.0  # seconds; a process that left our group could hold a pipe open
REAPER_START = 10.0  # seconds for the reaper to start the server and say so; a loaded machine can be slow
KILL_POLL = 0.01  # seconds between checks that a killed tree is gone
PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>

_subreaper: tuple[int, bool] | None = None  # (pid, outcome): the flag does not survive fork(), so it is per process
_LIVE: dict[int, ServerTree] = {}  # root pid -> tree, for the servers this process started and has not ended yet


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


def _reaper_command() -> list[str] | None:
    """How to run `core.reaper`, or None where it cannot run (not Linux, a frozen bundle, no interpreter)."""
    if sys.platform != "linux" or getattr(sys, "frozen", False) or not sys.executable:
        return None
    # -I: the server's environment (PYTHONPATH …) is not the reaper's; -S: it needs no site-packages.
    return [sys.executable, "-I", "-S", str(Path(__file__).with_name("reaper.py"))]


async def open_server_process(
    command: list[str], *, env: dict[str, str], cwd: str | None
) -> tuple[anyio.abc.Process, int | None]:
    """Start a stdio server with pipes for its stdio, in a session of its own, under its reaper where one can run;
    or take the one `start_early` started with exactly this command, environment and directory.

    Returns the process to talk to and wait for (the reaper, which exits as the server
    does and with its status) and the server's own pid (None without a reaper).

    Raises:
        OSError: the server could not be started (missing command, no permission, bad cwd).
    """
    reaper = _reaper_command()
    early = _claim(command, env, cwd)
    if early is not None:
        process: anyio.abc.Process = PopenProcess(early.popen)
        status_read = early.status_read
    elif reaper is not None:
        status_read, status_write = os.pipe()
        try:
            process = await _spawn(_under_reaper(reaper, status_write, command), env, cwd, (status_write,))
        except BaseException:
            os.close(status_read)
            raise
        finally:
            os.close(status_write)
    if early is not None or reaper is not None:
        server_pid = await _server_pid(process, status_read, command)
        if server_pid is not None:
            return process, server_pid
        # The reaper could not run here (no prctl, an interpreter that does not start): start the server alone.
    return await _spawn(command, env, cwd), None


async def _spawn(
    command: list[str], env: dict[str, str], cwd: str | None, pass_fds: tuple[int, ...] = ()
) -> anyio.abc.Process:
    """The process, started now, with a pipe for each stdio stream, in a session of its own.

    On POSIX not `anyio.open_process`: on asyncio that is the same Popen, then a wait for the loop to connect the
    pipes, and cancelled in that wait (the app quitting while its loop is busy: seen taking seconds) it SIGKILLs the
    process alone. A server's daemon made by then, in a session of its own, would outlive us. Started here, with
    no await before it returns, the process is the caller's at once, and a cancellation at its next wait ends the
    whole tree (`_end`). Windows has no readiness for pipes (`PopenProcess` needs it), and no sessions to leave."""
    if sys.platform == "win32":
        pipe = subprocess.PIPE
        return await anyio.open_process(command, stdin=pipe, stdout=pipe, stderr=pipe, env=env, cwd=cwd)
    return PopenProcess(_popen(command, env, cwd, pass_fds))


def _popen(
    command: list[str], env: dict[str, str], cwd: str | None, pass_fds: tuple[int, ...]
) -> subprocess.Popen[bytes]:
    pipe = subprocess.PIPE
    return subprocess.Popen(
        command, stdin=pipe, stdout=pipe, stderr=pipe, env=env, cwd=cwd, start_new_session=True, pass_fds=pass_fds
    )


def _under_reaper(reaper: list[str], status_write: int, command: list[str]) -> list[str]:
    return [*reaper, str(status_write), "--", *command]


async def _server_pid(process: anyio.abc.Process, status_read: int, command: list[str]) -> int | None:
    """The server's pid as its reaper reports it; None (the reaper ended) when the reaper could not run.

    Raises:
        OSError: the reaper could not execute the server (its errno).
    """
    try:
        status = await _reaper_status(status_read)
    except BaseException:  # cancelled while the reaper starts: nobody else knows of this process yet
        await _end(process)
        raise
    if status.startswith(b"+") and status[1:].strip().isdigit():
        return int(status[1:])
    await _end(process)
    if status.startswith(b"-") and status[1:].strip().isdigit():
        errno = int(status[1:])
        raise OSError(errno, os.strerror(errno), command[0])
    return None


@dataclass
class _Early:
    """A server `start_early` started, under its reaper, and the read end of the reaper's status pipe."""

    key: tuple[object, ...]
    popen: subprocess.Popen[bytes]
    status_read: int


_EARLY: list[_Early] = []


def _early_key(command: list[str], env: dict[str, str], cwd: str | None) -> tuple[object, ...]:
    return (tuple(command), tuple(sorted(env.items())), cwd)


def start_early(command: list[str], *, env: dict[str, str], cwd: str | None) -> bool:
    """Start a stdio server now, before the engine (the SDK, ~1 s of imports) is loaded, so the two start-ups
    overlap; `open_server_process` takes it when asked for exactly this command, environment and directory.

    Only under a reaper (Linux, from source), as that function would start it. Whether it started: where it
    could not, nothing happened, and the server is started when it is asked for, as always. One that nobody
    takes (the command stopped at a usage error first) is killed, whole group, when this process exits.
    """
    reaper = _reaper_command()
    if reaper is None:
        return False
    adopt_orphans()  # before the spawn, as for every server: its orphans must come to us
    status_read, status_write = os.pipe()
    try:
        popen = _popen(_under_reaper(reaper, status_write, command), env, cwd, (status_write,))
    except (OSError, ValueError):  # a bad cwd, say: the usual start reports it, in its words
        os.close(status_read)
        return False
    finally:
        os.close(status_write)
    if not _EARLY:
        atexit.register(end_unclaimed)
    _EARLY.append(_Early(_early_key(command, env, cwd), popen, status_read))
    return True


def _claim(command: list[str], env: dict[str, str], cwd: str | None) -> _Early | None:
    key = _early_key(command, env, cwd)
    for index, early in enumerate(_EARLY):
        if early.key == key:
            return _EARLY.pop(index)
    return None


def end_unclaimed() -> None:
    """Kill every server `start_early` started that nobody took (each one's whole group)."""
    while _EARLY:
        early = _EARLY.pop()
        ServerTree(early.popen.pid).kill_blocking()  # the reaper still runs: every descendant is below it
        with suppress(subprocess.TimeoutExpired):
            early.popen.wait(timeout=REAP_TIMEOUT)
        for pipe in (early.popen.stdin, early.popen.stdout, early.popen.stderr):
            if pipe is not None:
                with suppress(OSError):
                    pipe.close()
        os.close(early.status_read)


async def _reaper_status(fd: int) -> bytes:
    """The reaper's one line (b"" if it ended or took too long without one)."""
    os.set_blocking(fd, False)
    data = b""
    try:
        with anyio.move_on_after(REAPER_START):
            while not data.endswith(b"\n"):
                await anyio.wait_readable(fd)
                try:
                    chunk = os.read(fd, 64)
                except BlockingIOError:
                    continue
                if not chunk:
                    break
                data += chunk
    finally:
        os.close(fd)
    return data if data.endswith(b"\n") else b""


async def _end(process: anyio.abc.Process) -> None:
    """End a reaper whose server nobody holds yet, and the server's whole tree: a daemon it made already is in
    a session of its own, out of the reaper's group, and the reaper killed cannot kill it any more."""
    with anyio.CancelScope(shield=True):
        await ServerTree(process.pid).kill()
        await reap(process)


def adopt_orphans() -> bool:
    """Make this process a child subreaper, once (Linux); returns whether it is one.

    An orphaned descendant (a server's grandchild whose parent exited) then
    reparents to us instead of to init: it can still be found, killed and reaped.
    """
    global _subreaper
    pid = os.getpid()
    if _subreaper is None or _subreaper[0] != pid:
        _subreaper = (pid, sys.platform == "linux" and _prctl(PR_SET_CHILD_SUBREAPER, 1))
    return _subreaper[1]


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


class ServerTree:
    """Every process descended from one server, however it left the server's process group or session (Linux).

    Attributes:
        root: the process we started, the server's reaper or the server itself; it leads its
            own session and process group.
        root_start: its start time; no descendant is older.
        seen: pid -> start time of every process ever seen in the tree.
        ids: session and process group ids seen in the tree (never this process's own).
        pipes: the server's stdio pipes (`pipe:[inode]`); a process holding one got it from the server.

    `server`: the server's pid when a reaper started it (its fds 0-2 are the pipes: the
    reaper lets go of two of them). Elsewhere than on Linux only the process group is signalled.
    """

    def __init__(self, root: int, server: int | None = None) -> None:
        self.root = root
        stat = read_stat(root) if sys.platform == "linux" else None
        self.root_start = stat.start if stat is not None else None
        self.seen: dict[int, int] = {} if stat is None else {root: stat.start}
        self.ids: set[int] = set()
        # Read at once: the server's fds 0-2 are still the pipes we gave it.
        stdio = ("0", "1", "2")
        held = pipes_of(root, stdio) | (pipes_of(server, stdio) if server is not None else set())
        self.pipes = frozenset(held) if stat is not None else frozenset()
        self._ours = {os.getpid(), os.getpgid(0), os.getsid(0)}
        _LIVE[root] = self
        self.refresh()

    def refresh(self) -> dict[int, Stat]:
        """Walk the tree now and remember what it holds; returns the members still present (zombies too)."""
        if sys.platform != "linux":
            return {}
        procs = Procs()
        starts = [
            pid for pid, start in self.seen.items() if (stat := procs.stat(pid)) is not None and stat.start == start
        ]
        # Orphans of the tree are our children now (we are a subreaper); so are processes we started on purpose.
        starts += [pid for pid in procs.children(os.getpid()) if pid not in _LIVE and self._claims(pid, procs)]
        members: dict[int, Stat] = {}
        while starts:
            pid = starts.pop()
            stat = procs.stat(pid)
            if stat is None or pid in members:
                continue
            members[pid] = stat
            self.seen[pid] = stat.start
            self.ids |= {pid, stat.sid, stat.pgid} - self._ours
            starts += procs.children(pid)
        return members

    def _claims(self, pid: int, procs: Procs) -> bool:
        """Whether a child of ours is an orphan of this tree rather than something else we (or a test) started."""
        stat = procs.stat(pid)
        if stat is None or (self.root_start is not None and stat.start < self.root_start):
            return False  # older than the server: not its descendant
        if self.seen.get(pid) == stat.start:
            return True
        # A session or group bears the pid of the process that made it, and only that
        # process's descendants can join it; a process's own id proves nothing.
        if (stat.sid != pid and stat.sid in self.ids) or (stat.pgid != pid and stat.pgid in self.ids):
            return True
        return bool(self.pipes and self.pipes & pipes_of(pid))

    def signal(self, sig: int) -> dict[int, Stat]:
        """Send `sig` to the server's group and to every process of its tree and their groups; returns the tree."""
        members = self.refresh()
        for pgid in ({self.root} | {stat.pgid for stat in members.values()}) - self._ours:
            kill_group(pgid, sig)
        for pid, stat in members.items():
            if not stat.zombie:
                signal_exactly(pid, stat.start, sig)
        return members

    async def kill(self, timeout: float = REAP_TIMEOUT) -> list[int]:
        """SIGKILL the whole tree until none of it is left (within `timeout`); returns the pids killed.

        Those that became our children are reaped; the server itself is left to its owner (asyncio).
        """
        killed: dict[int, int] = {}
        try:
            with anyio.move_on_after(timeout):
                while not self._kill_round(killed):
                    await anyio.sleep(KILL_POLL)
        finally:
            _LIVE.pop(self.root, None)
        return sorted(killed)

    def kill_blocking(self, timeout: float = REAP_TIMEOUT) -> None:
        """`kill`, for where no event loop runs (a process about to exit)."""
        deadline = time.monotonic() + timeout
        killed: dict[int, int] = {}
        try:
            while not self._kill_round(killed) and time.monotonic() < deadline:
                time.sleep(KILL_POLL)
        finally:
            _LIVE.pop(self.root, None)

    def _kill_round(self, killed: dict[int, int]) -> bool:
        """SIGKILL what is left, adding it to `killed`; whether all of `killed` is gone."""
        # Walked again each round: a process may have forked, or been orphaned, meanwhile.
        killed |= {pid: stat.start for pid, stat in self.signal(signal.SIGKILL).items()}
        return all([self._gone(pid, start) for pid, start in killed.items()])

    def _gone(self, pid: int, start: int) -> bool:
        stat = read_stat(pid)
        if stat is None or stat.start != start:
            return True
        if not stat.zombie:
            return False
        if pid == self.root:
            return True  # asyncio waits for it; reaping it here would steal its exit status
        if stat.ppid != os.getpid():
            return False  # its parent is dying too: it will be ours to reap in a moment
        with suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # this pid only: other children of ours have other owners
        return True


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
        version, text = (
            self._version,
            json.dumps({"owner": self.owner, "owner_start": self.owner_start, "groups": self.groups}),
        )
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
        """Kill every group this instance still records, and the rest of each tree (the last resort at exit)."""
        killed: list[int] = []
        for pid in list(self.groups):
            tree = _LIVE.get(pid)
            if tree is not None:
                # The tree first, whatever of it left the group too: it is walked before anything in it
                # dies, while the server's reaper still holds every orphan as its child.
                tree.signal(signal.SIGKILL)
            if kill_group(pid, signal.SIGKILL) or tree is not None:
                killed.append(pid)
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
