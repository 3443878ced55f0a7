"""Run `python -m catalog_inspector ARGS…` as a real process, started by fork from a warm zygote.

`run_cli` answers as `subprocess.run(..., capture_output=True)` does: a CompletedProcess with
the exit code (negative for a signal), stdout and stderr, and TimeoutExpired (after killing
the process) when it runs too long. The process it runs is a fork of tests/fixtures/
cli_zygote.py, which imported the CLI once per test worker: the run skips the ~1.8 s of CPU
an interpreter spends importing the SDK, and nothing else. Tests that need the process
itself while it runs (signals, pipes closed early, the entry script) start it with
subprocess as before.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
CLI = (sys.executable, "-m", "catalog_inspector")
START_TIMEOUT = 60.0


class Zygote:
    """The zygote process of this test worker, started on first use and stopped at exit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._dir = tempfile.mkdtemp(prefix="cli-zygote-")
        self.path = os.path.join(self._dir, "socket")

    def ensure(self) -> str:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                if os.path.exists(self.path):
                    os.unlink(self.path)
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "tests.fixtures.cli_zygote", self.path],
                    cwd=ROOT,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
                assert self._proc.stdout is not None
                line = self._proc.stdout.readline()  # bounded by the zygote's own start; it says READY
                if line.strip() != b"READY":
                    raise RuntimeError(f"the CLI zygote did not start: {line!r}")
            return self.path

    def pid(self) -> int:
        """The zygote's process id (started if it was not)."""
        self.ensure()
        assert self._proc is not None
        return self._proc.pid

    def stop(self) -> None:
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.kill()
                self._proc.wait()
            if os.path.exists(self.path):
                os.unlink(self.path)
            os.rmdir(self._dir)


ZYGOTE = Zygote()
atexit.register(ZYGOTE.stop)


def _receive(conn: socket.socket, timeout: float | None) -> dict[str, Any]:
    conn.settimeout(timeout)
    data = conn.recv(4096)
    if not data:
        raise ConnectionError("the CLI zygote went away")
    return dict(json.loads(data))


def run_cli(
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | str | None = None,
    stdin: Path | str | bytes | None = None,
    timeout: float = 60,
    text: bool = True,
    peak: Path | None = None,
    rlimit_as: int | None = None,
) -> subprocess.CompletedProcess[Any]:
    """`python -m catalog_inspector *args`, captured; `stdin` a file to read, bytes, or None (/dev/null).

    `peak` names a file the process writes its own peak RSS to (VmHWM, bytes) as it exits;
    `rlimit_as` caps its address space (RLIMIT_AS), as a guard for memory tests.
    """
    path = ZYGOTE.ensure()
    request = {
        "argv": list(args),
        "env": dict(os.environ if env is None else env),
        "cwd": str(cwd or os.getcwd()),
        "peak": str(peak) if peak is not None else None,
        "rlimit_as": rlimit_as,
    }
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, _stdin_of(stdin) as source:
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as conn:
            conn.connect(path)
            socket.send_fds(conn, [json.dumps(request).encode()], [source.fileno(), out.fileno(), err.fileno()])
            pid = int(_receive(conn, START_TIMEOUT)["pid"])
            try:
                status = int(_receive(conn, timeout)["status"])
            except TimeoutError:
                os.kill(pid, signal.SIGKILL)
                _receive(conn, START_TIMEOUT)
                raise subprocess.TimeoutExpired([*CLI, *args], timeout, _read(out, text), _read(err, text)) from None
        return subprocess.CompletedProcess(
            [*CLI, *args], os.waitstatus_to_exitcode(status), _read(out, text), _read(err, text)
        )


def _stdin_of(stdin: Path | str | bytes | None) -> IO[bytes]:
    if isinstance(stdin, bytes):
        source = tempfile.TemporaryFile()
        source.write(stdin)
        source.seek(0)
        return source
    return open(os.devnull if stdin is None else stdin, "rb")  # noqa: SIM115


def _read(file: IO[bytes], text: bool) -> Any:
    file.seek(0)
    data = file.read()
    return data.decode("utf-8", errors="replace") if text else data
