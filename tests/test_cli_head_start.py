"""The head start: a command's stdio server starts before the engine loads, is taken by the walk, or is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.stdio import get_default_environment

from catalog_inspector.cli import head_start
from catalog_inspector.core import processes
from catalog_inspector.core.popen_process import PopenProcess
from tests.cli_runner import run_cli
from tests.helpers import DEMO, REAL_DEMO, assert_all_gone, pids_in, wait_until

CLI = (sys.executable, "-m", "catalog_inspector")


def test_the_copied_environment_is_the_sdks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server started early must get exactly what the transport would give it, or it is not taken."""
    monkeypatch.setenv("SHELL", "() { evil; }")  # a shell function: both leave it out
    monkeypatch.setenv("TERM", "xterm-test")
    monkeypatch.delenv("LOGNAME", raising=False)
    assert head_start.inherited_environment() == get_default_environment()


def test_the_server_is_started_once_and_before_the_engine_loads(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    proc = run_cli("snapshot", "--", *DEMO, "--pidfile", str(pidfile), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "complete"
    assert len(pids_in(pidfile)) == 1, "one start: the head start was taken, not doubled"
    assert_all_gone(pids_in(pidfile))


def test_begin_starts_it_and_the_walk_takes_that_very_process(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    argv = ["snapshot", "--out", str(tmp_path / "s.json"), "--", *REAL_DEMO, "--pidfile", str(pidfile)]
    try:  # the real server: that it runs under the reaper is the point
        assert head_start.begin(argv)
        [early] = processes._EARLY
        reaper = early.popen.pid
        wait_until(lambda: bool(pids_in(pidfile)), timeout=30, what="the server started early")
        assert pids_in(pidfile)[0] in _children(reaper), "the server runs under the reaper started early"
        from catalog_inspector import cli

        assert cli._main(argv) == 0  # the command without its own head start: it takes this one
        assert not processes._EARLY
    finally:
        head_start.finish()
        processes.end_unclaimed()
    assert json.loads((tmp_path / "s.json").read_text())["status"] == "complete"
    assert len(pids_in(pidfile)) == 1, "no second server was started"
    assert_all_gone(pids_in(pidfile))


def test_a_usage_error_after_the_head_start_leaves_no_server(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    busy = tmp_path / "busy"
    server = [*DEMO, "--mode", "hang", "--spawn-child", "--pidfile", str(pidfile), "--busy-file", str(busy)]
    proc = run_cli("snapshot", "--url", "http://127.0.0.1:9/mcp", "--", *server, timeout=60)
    assert proc.returncode == 2 and "give exactly one server" in proc.stderr
    if pids_in(pidfile):  # it may have been killed before it wrote its pids: then nothing ran on
        assert_all_gone(pids_in(pidfile))
    assert not busy.exists(), "the server that was not asked for was never walked"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_the_engine_loads_kills_the_server_started_early(tmp_path: Path, signum: int) -> None:
    """A server that starts in a moment (a shell) is up long before the CLI has loaded its engine."""
    pidfile = tmp_path / "pids"
    server = ["/bin/sh", "-c", f'echo $$ >> "{pidfile}"; exec sleep 600']
    proc = subprocess.Popen(
        [*CLI, "snapshot", "--timeout", "60", "--", *server],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        wait_until(lambda: bool(pids_in(pidfile)), timeout=30, what="the server started early")
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert_all_gone(pids_in(pidfile))
    if out:  # the walk had begun (the machine was quick): it answered the signal as a walk does
        assert proc.returncode == 4 and json.loads(out)["error"]["kind"] == "cancelled", err
    elif signum == signal.SIGINT:  # still loading: what SIGINT did before any walk
        assert proc.returncode == 130 and err == "mcp-catalog-inspector snapshot: stopped by SIGINT\n"
    else:
        assert proc.returncode == -signum


def test_a_process_started_by_popen_speaks_as_anyio_s(tmp_path: Path) -> None:
    async def scenario() -> tuple[bytes, bytes, int, int]:
        pipe = subprocess.PIPE
        popen = subprocess.Popen(["/bin/sh", "-c", "cat; echo oops >&2; exit 7"], stdin=pipe, stdout=pipe, stderr=pipe)
        process = PopenProcess(popen)
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        got = bytearray()

        async def feed() -> None:
            assert process.stdin is not None
            await process.stdin.send(b"x" * 200_000)  # more than a pipe holds: written as it is read
            await process.stdin.aclose()

        async with anyio.create_task_group() as group:
            group.start_soon(feed)
            async for chunk in process.stdout:
                got += chunk
        err = b"".join([chunk async for chunk in process.stderr])
        code = await process.wait()
        await process.aclose()
        killed = PopenProcess(subprocess.Popen(["sleep", "60"], stdin=pipe, stdout=pipe, stderr=pipe))
        killed.kill()
        return bytes(got), err, code, await killed.wait()

    got, err, code, killed = anyio.run(scenario)
    assert got == b"x" * 200_000 and err == b"oops\n" and code == 7 and killed == -signal.SIGKILL


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_no_head_start_for_help_or_other_commands() -> None:
    for argv in (["snapshot", "--help", "--", "srv"], ["diff", "a", "--", "b"], ["snapshot", "--server", "x"]):
        assert not head_start.begin(argv)
    assert not processes._EARLY


def test_check_gets_a_head_start_only_with_a_baseline_that_is_a_plain_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    baseline = tmp_path / "old.json"
    baseline.write_text("{}")
    assert not head_start.begin(["check", "--baseline", str(fifo), "--", "true"])
    assert not head_start.begin(["check", "--baseline", str(tmp_path / "missing.json"), "--", "true"])
    try:
        assert head_start.begin(["check", f"--baseline={baseline}", "--", "true"])
    finally:
        processes.end_unclaimed()
        head_start.finish()
