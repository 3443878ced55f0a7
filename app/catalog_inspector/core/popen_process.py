"""A process started by `subprocess.Popen`, spoken to as an `anyio.abc.Process`.

Every stdio server on POSIX is started this way (`core.processes`): at once, never halfway
through an await that a cancellation could cut (see `_spawn` there); the command
line's head start (`core.processes.start_early`) before any event loop runs too.
The transport needs what `anyio.open_process` gives: byte streams over the three
pipes, the exit status, signals. This is that, over the raw pipe descriptors
(non-blocking, woken by the loop's readiness callbacks) and a pidfd for the exit.
"""

from __future__ import annotations

import os
import signal
import subprocess
from contextlib import suppress
from typing import IO

import anyio
import anyio.abc

__all__ = ["PopenProcess"]

CHUNK = 65_536
EXIT_POLL = 0.01  # seconds between exit checks where the kernel has no pidfd


class _PipeReceive(anyio.abc.ByteReceiveStream):
    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self._fd: int | None = fd

    async def receive(self, max_bytes: int = CHUNK) -> bytes:
        while True:
            if self._fd is None:
                raise anyio.ClosedResourceError
            try:
                data = os.read(self._fd, max_bytes)
            except BlockingIOError:
                await anyio.wait_readable(self._fd)
                continue
            if not data:
                raise anyio.EndOfStream
            return data

    async def aclose(self) -> None:
        _close(self)


class _PipeSend(anyio.abc.ByteSendStream):
    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self._fd: int | None = fd

    async def send(self, item: bytes) -> None:
        view = memoryview(item)
        while view:
            if self._fd is None:
                raise anyio.ClosedResourceError
            try:
                view = view[os.write(self._fd, view) :]
            except BlockingIOError:
                await anyio.wait_writable(self._fd)
            except (BrokenPipeError, ConnectionResetError) as exc:
                raise anyio.BrokenResourceError from exc

    async def aclose(self) -> None:
        _close(self)


def _close(stream: _PipeReceive | _PipeSend) -> None:
    fd, stream._fd = stream._fd, None
    if fd is not None:
        anyio.notify_closing(fd)  # a task waiting on it gets ClosedResourceError, not a dead descriptor
        os.close(fd)


class PopenProcess(anyio.abc.Process):
    """`popen` (started with three pipes) as anyio's process; it owns the pipes from now on."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
        self._popen = popen
        # Taken from the file objects, so that only these streams ever close them.
        self._stdin = _PipeSend(_take(popen.stdin))
        self._stdout = _PipeReceive(_take(popen.stdout))
        self._stderr = _PipeReceive(_take(popen.stderr))

    async def aclose(self) -> None:
        await self._stdin.aclose()
        await self._stdout.aclose()
        await self._stderr.aclose()
        await self.wait()

    async def wait(self) -> int:
        try:
            pidfd = os.pidfd_open(self._popen.pid)
        except OSError:  # already reaped, or a kernel without pidfds: poll
            pidfd = None
        try:
            while (code := self._popen.poll()) is None:
                if pidfd is not None:
                    await anyio.wait_readable(pidfd)
                else:
                    await anyio.sleep(EXIT_POLL)
            return code
        finally:
            if pidfd is not None:
                os.close(pidfd)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def send_signal(self, value: int) -> None:
        with suppress(ProcessLookupError):
            self._popen.send_signal(value)

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    @property
    def stdin(self) -> anyio.abc.ByteSendStream:
        return self._stdin

    @property
    def stdout(self) -> anyio.abc.ByteReceiveStream:
        return self._stdout

    @property
    def stderr(self) -> anyio.abc.ByteReceiveStream:
        return self._stderr


def _take(pipe: IO[bytes]) -> int:
    """A descriptor of its own for a Popen pipe, whose file object is closed (so it closes nothing later)."""
    fd = os.dup(pipe.fileno())
    pipe.close()
    return fd
