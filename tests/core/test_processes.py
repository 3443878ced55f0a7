"""Process groups left by a crashed earlier run are swept at the next start; live ones never are.

And no descendant of a server outlives it, however it left the server's process group
(a classic daemon included: fork, setsid, fork, the middle gone at once, stdio let go);
nothing else this process started is touched. A server runs under its reaper, which
exits as the server does and with its status."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import anyio
import anyio.abc
import pytest

from catalog_inspector.core import processes
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import Limits
from catalog_inspector.core.processes import (
    ProcessRegistry,
    ServerTree,
    adopt_orphans,
    open_server_process,
    reap,
    start_time,
)
from catalog_inspector.core.session import SessionWorker
from tests.helpers import alive, assert_all_gone, demo_spec, end_process, pids_in, spawn_orphan, wait_until

SLEEPER = [sys.executable, "-c", "import signal; signal.pause()"]  # runs until killed


def _orphan_group() -> subprocess.Popen[bytes]:
    return subprocess.Popen(SLEEPER, start_new_session=True)


def test_groups_of_a_dead_instance_are_killed(tmp_path: Path) -> None:
    orphan = _orphan_group()
    dead_owner = subprocess.Popen([sys.executable, "-c", "pass"])
    dead_owner.wait()
    record = {"owner": dead_owner.pid, "owner_start": "1", "groups": {str(orphan.pid): start_time(orphan.pid)}}
    (tmp_path / f"{dead_owner.pid}.json").write_text(json.dumps(record))
    try:
        assert ProcessRegistry(tmp_path).sweep() == [orphan.pid]
        assert orphan.wait(timeout=10) != 0
        assert not (tmp_path / f"{dead_owner.pid}.json").exists()
    finally:
        if orphan.poll() is None:
            orphan.kill()


def test_a_running_instance_and_a_reused_pid_are_left_alone(tmp_path: Path) -> None:
    mine = _orphan_group()
    other = ProcessRegistry(tmp_path / "x")  # stands for another live app instance: this very process
    try:
        other.add(mine.pid)
        (tmp_path / "x" / "99999999.json").write_text(
            json.dumps({"owner": 99999999, "owner_start": "1", "groups": {str(mine.pid): "not-its-start-time"}})
        )
        fresh = ProcessRegistry(tmp_path / "x")
        fresh._file = tmp_path / "x" / "fresh.json"  # a second instance in the same process
        assert fresh.sweep() == []
        assert alive(mine.pid)
    finally:
        mine.kill()
        mine.wait()


def test_kill_all_ends_what_this_instance_started(tmp_path: Path) -> None:
    registry = ProcessRegistry(tmp_path)
    child = _orphan_group()
    registry.add(child.pid)
    assert registry.kill_all() == [child.pid]
    child.wait(timeout=10)
    assert not alive(child.pid)
    assert not list(tmp_path.glob("*.json"))


# Escapes from the server's process group: setsid() and the daemon's double fork.

FAST = Limits(request_timeout=3.0, deadline=30.0, max_pages=50)


async def _walk(*extra: str, on_spawn: Callable[[int], None] | None = None) -> Snapshot:
    worker = SessionWorker(demo_spec(extra[0], *extra[1:]), FAST, on_spawn=on_spawn)
    with anyio.fail_after(60):
        return await worker.walk_once()


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "status"),
    [("normal", "complete"), ("crash", "failed"), ("hang", "failed")],
    ids=["server exits on EOF", "server crashes", "server hangs and ignores SIGTERM"],
)
async def test_a_walk_leaves_no_grandchild_that_called_setsid_running(tmp_path: Path, mode: str, status: str) -> None:
    pidfile = tmp_path / "pids"
    snapshot = await _walk(mode, "--spawn-child", "--setsid", "--stubborn", "--pidfile", str(pidfile))
    assert snapshot.status == status
    pids = pids_in(pidfile)
    assert len(pids) == 2, "the server and its grandchild"
    assert_all_gone(pids)


@pytest.mark.anyio
@pytest.mark.parametrize("detach", [(), ("--detach",)], ids=["keeps the server's stdio", "classic daemon"])
async def test_a_daemonized_grandchild_whose_parent_exited_is_killed_too(tmp_path: Path, detach: tuple[str]) -> None:
    pidfile = tmp_path / "pids"
    snapshot = await _walk("normal", "--daemonize", *detach, "--pidfile", str(pidfile))
    assert snapshot.status == "complete"
    pids = pids_in(pidfile)
    assert len(pids) == 3, "the server, the middle process and the daemon"
    assert_all_gone(pids)


@pytest.mark.anyio
async def test_processes_the_test_started_survive_while_the_servers_escapees_do_not(tmp_path: Path) -> None:
    """Ours too are children of the subreaper, some in sessions of their own: only the server's tree goes."""
    pidfile = tmp_path / "pids"
    groups: list[subprocess.Popen[bytes]] = []  # in a session of its own, like a sandbox worker or another server
    orphans: list[int] = []  # double-forked by a process of ours that exited, like the server's daemon

    def start_ours(server: int) -> None:  # while the server lives, so age does not tell them apart
        groups.append(_orphan_group())
        orphans.append(spawn_orphan())

    try:
        snapshot = await _walk(
            "normal", "--spawn-child", "--setsid", "--daemonize", "--detach", "--pidfile", str(pidfile),
            on_spawn=start_ours,
        )  # fmt: skip
        assert snapshot.status == "complete"
        assert_all_gone(pids_in(pidfile))
        assert groups and orphans and all(alive(pid) for pid in [groups[0].pid, *orphans])
        assert _parent(orphans[0]) == os.getpid(), "the orphan was adopted by this process"
    finally:
        for group in groups:
            group.kill()
            group.wait()
        for pid in orphans:
            end_process(pid)


# The middle process leaves its stdio and session, then forks its child when told to (SIGUSR1) and exits;
# the child leaves the middle's group as well.
_HIDING = """
import os, signal, sys
pidfile = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    with open(pidfile, "a") as f:
        f.write(f"{os.getpid()}\\n")
    signal.sigwait([signal.SIGUSR1])
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)  # out of the middle's group too: only the session is left to tell
        while True:
            signal.pause()
    with open(pidfile, "a") as f:
        f.write(f"{child}\\n")
    os._exit(0)
while True:
    signal.pause()
"""


@pytest.mark.anyio
async def test_an_orphan_born_after_the_last_walk_is_claimed_by_the_session_the_walk_saw(tmp_path: Path) -> None:
    """No pipe of the server, never seen itself: only its session id ties the orphan to the server."""
    assert adopt_orphans()
    pidfile = tmp_path / "pids"
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])  # inherited: the middle waits for it with sigwait
    try:
        root = subprocess.Popen(
            [sys.executable, "-c", _HIDING, str(pidfile)],
            start_new_session=True,
            stdin=subprocess.PIPE,  # a pipe of the server's, as in production, which the middle lets go
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGUSR1])
    tree = ServerTree(root.pid)
    try:
        wait_until(lambda: len(pids_in(pidfile)) == 1, what="the middle process")
        [middle] = pids_in(pidfile)
        assert middle in tree.refresh()
        os.kill(middle, signal.SIGUSR1)
        wait_until(lambda: len(pids_in(pidfile)) == 2, what="the orphan")
        orphan = pids_in(pidfile)[1]
        wait_until(lambda: _parent(orphan) == os.getpid(), what="the orphan's adoption")
        assert orphan not in tree.seen
        with anyio.fail_after(30):
            killed = await tree.kill()
        assert orphan in killed and root.pid in killed
        assert_all_gone([root.pid, orphan])
    finally:
        root.kill()
        root.wait()
        if root.stdin is not None:
            root.stdin.close()


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[1])


# The reaper on its own: a server that daemonizes a helper and exits at once, before anyone could look.

_DAEMON_THEN_EXIT = """
import os, signal, sys
pidfile, code = sys.argv[1], int(sys.argv[2])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        with open(pidfile, "a") as f:
            f.write(f"{os.getpid()}\\n")
        while True:
            signal.pause()
    os._exit(0)
os.wait()
while not open(pidfile).read():
    pass
if code < 0:
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


async def _spawn(*args: str) -> tuple[anyio.abc.Process, int | None]:
    return await open_server_process([sys.executable, "-c", *args], env=dict(os.environ), cwd=None)


@pytest.mark.anyio
@pytest.mark.parametrize("code", [0, 3, -signal.SIGTERM], ids=["exits 0", "exits 3", "killed by SIGTERM"])
async def test_a_daemon_of_a_server_that_exits_at_once_goes_with_it_and_the_status_comes_through(
    tmp_path: Path, code: int
) -> None:
    """Nobody walks this tree: the daemon is the reaper's child from its parent's exit on, and the reaper kills it."""
    pidfile = tmp_path / "pids"
    pidfile.touch()
    process, server = await _spawn(_DAEMON_THEN_EXIT, str(pidfile), str(code))
    assert server is not None and server != process.pid, "the server runs under its reaper"
    with anyio.fail_after(30):
        assert await process.wait() == code
    [daemon] = pids_in(pidfile)
    assert_all_gone([daemon, server])
    await reap(process)


@pytest.mark.anyio
async def test_a_command_that_cannot_be_executed_is_an_oserror_naming_it(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-server")
    with pytest.raises(FileNotFoundError) as raised:
        await open_server_process([missing, "--flag"], env=dict(os.environ), cwd=None)
    assert raised.value.filename == missing
    not_executable = tmp_path / "server.txt"
    not_executable.write_text("not a program")
    with pytest.raises(PermissionError):
        await open_server_process([str(not_executable)], env=dict(os.environ), cwd=None)


_DAEMON_THEN_SERVE = _DAEMON_THEN_EXIT.replace("if code < 0:", "while True:\n    signal.pause()\nif code < 0:")


@pytest.mark.anyio
async def test_the_apps_last_resort_kills_a_live_servers_classic_daemon(tmp_path: Path) -> None:
    """`ProcessRegistry.kill_all` at the app's exit: the tree is walked while the reaper still holds the daemon."""
    pidfile = tmp_path / "pids"
    pidfile.touch()
    process, server = await _spawn(_DAEMON_THEN_SERVE, str(pidfile), "0")
    tree = ServerTree(process.pid, server)
    registry = ProcessRegistry(tmp_path / "sessions")
    registry.add(process.pid)
    try:
        wait_until(lambda: len(pids_in(pidfile)) == 1, what="the daemon")
        [daemon] = pids_in(pidfile)
        assert daemon not in tree.seen, "no walk saw it: only the reaper holds it"
        assert registry.kill_all() == [process.pid]
        assert_all_gone([daemon, server, process.pid])
    finally:
        await tree.kill()
        await reap(process)


@pytest.mark.anyio
@pytest.mark.parametrize("how", ["cancel scope", "task.cancel()"])
async def test_a_start_cancelled_before_the_reapers_line_was_read_leaves_no_daemon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The app quit before its loop read the reaper's line (a loaded machine's start-up: over a second), and the
    server had made its daemon by then: killing the reaper's group would miss it, and the reaper, killed, could not
    kill it any more. The quitting app's supervisor cancels its tasks the asyncio way, which no shield holds off."""
    pidfile = tmp_path / "pids"
    pidfile.touch()
    daemonized = anyio.Event()

    async def read_too_late(fd: int) -> bytes:
        try:
            # Nothing announces another process's write: the shared poll under its deadline, off the loop.
            await anyio.to_thread.run_sync(
                lambda: wait_until(lambda: bool(pids_in(pidfile)), timeout=30, what="daemon")
            )
            daemonized.set()
            await anyio.sleep_forever()
        finally:
            os.close(fd)
        return b""

    monkeypatch.setattr(processes, "_reaper_status", read_too_late)
    adopt_orphans()  # as the stdio transport does before every spawn
    if how == "cancel scope":
        async with anyio.create_task_group() as tg:
            tg.start_soon(_spawn, _DAEMON_THEN_SERVE, str(pidfile), "0")
            await daemonized.wait()
            tg.cancel_scope.cancel()
    else:
        task = asyncio.ensure_future(_spawn(_DAEMON_THEN_SERVE, str(pidfile), "0"))
        await daemonized.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    [daemon] = pids_in(pidfile)
    assert_all_gone([daemon])
