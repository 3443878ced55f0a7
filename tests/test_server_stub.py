"""The forked test servers (tests/fixtures/server_stub.py) behave, to the app, as the process they stand for.

Most tests start the demo server and the fixture servers through the stub, so that the
suite does not pay a second of SDK import per server; these tests hold the stub to what
the app relies on: the server answers on the stub's stdio, the stub exits as the server
does (its code, or its signal), signals reach the server, killing the stub kills the
server, and options about the server's own process tree run the real server.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.cli_runner import ZYGOTE
from tests.helpers import DEMO, alive, forked, pids_in, wait_gone

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def start(*args: str) -> subprocess.Popen[bytes]:
    """The stub and its server (use as a context manager: its pipes are closed after)."""
    return subprocess.Popen([*DEMO, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def handshake(proc: subprocess.Popen[bytes]) -> dict[str, object]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    proc.stdin.flush()
    return dict(json.loads(proc.stdout.readline()))


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_the_forked_server_answers_on_the_stubs_stdio_and_an_eof_ends_both(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    with start("--mode", "normal", "--pidfile", str(pidfile)) as proc:
        assert handshake(proc)["result"]["serverInfo"]["name"]  # type: ignore[index]
        (server,) = pids_in(pidfile)
        assert server != proc.pid and parent_of(server) == ZYGOTE.pid()
        proc.stdin.close()  # type: ignore[union-attr]
        assert proc.wait(timeout=20) == 0
    wait_gone(server)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGKILL])
def test_a_signal_reaches_the_server_and_the_stub_dies_of_it(number: signal.Signals, tmp_path: Path) -> None:
    """SIGTERM is passed on to the server (as every signal the app sends but SIGKILL); on SIGKILL the zygote kills it."""
    pidfile = tmp_path / "pids"
    with start("--mode", "normal", "--pidfile", str(pidfile)) as proc:
        handshake(proc)
        (server,) = pids_in(pidfile)
        assert alive(server)
        proc.send_signal(number)
        assert proc.wait(timeout=20) == -number
    wait_gone(server)


def test_a_server_that_exits_with_a_code_makes_the_stub_exit_with_it() -> None:
    proc = subprocess.run([*forked("catalog_inspector.demo"), "--mode", "nonexistent"], capture_output=True, timeout=20)
    assert proc.returncode == 2 and b"invalid choice" in proc.stderr  # argparse's own exit, through the stub


def test_options_about_the_servers_own_process_tree_run_the_real_server(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    try:
        with start("--mode", "normal", "--spawn-child", "--pidfile", str(pidfile)) as proc:
            handshake(proc)
            server, child = pids_in(pidfile)
            assert server == proc.pid and parent_of(child) == proc.pid  # the stub became the server (exec)
            proc.kill()
    finally:
        for pid in pids_in(pidfile)[1:]:
            os.kill(pid, signal.SIGKILL)
            wait_gone(pid)
