"""A bounded stdio transport: the SDK's stdio contract with the limits an inspector needs.

Why not `mcp.client.stdio.stdio_client` as is: its line reader has no size cap
and is quadratic in line length, it needs a real file for stderr and lets the
child flood it, it keeps going after a non-JSON-RPC line, and it never tells
the caller the process id, so grandchildren and crashed runs cannot be swept.
This transport keeps the SDK's environment allowlist, its message parsing and
its shutdown order (close stdin, wait, terminate), and adds:

- a byte cap per line, enforced while reading (linear, bytes), reported as a fault;
- stderr captured line by line into a bounded `ServerLog`;
- strictness: a line that is not JSON-RPC is a protocol fault and closes the stream;
- the process group is always killed at the end, so grandchildren do not survive;
- `on_spawn`/`on_exit` hooks so a caller can record live process groups.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

import anyio
import anyio.abc
import mcp_types as types
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.errors import CatalogError, ErrorKind, make_error

__all__ = ["Faults", "ServerLog", "bounded_stdio_client", "kill_group"]

EXIT_GRACE = 1.0  # seconds for the server to exit on its own after stdin closes
TERM_GRACE = 1.0  # seconds after SIGTERM before SIGKILL
MAX_LOG_LINE = 2000


@dataclass
class ServerLog:
    """A server's stderr, bounded by bytes: the oldest lines go first.

    Attributes:
        lines: the kept lines, oldest first.
        dropped: how many lines were discarded to stay within `max_bytes`.
    """

    max_bytes: int = 256 * 1024
    lines: deque[str] = field(default_factory=deque)
    dropped: int = 0
    _size: int = 0
    on_line: Callable[[str], None] | None = None

    def append(self, line: str) -> None:
        if len(line) > MAX_LOG_LINE:
            line = line[:MAX_LOG_LINE] + f"… [{len(line) - MAX_LOG_LINE} more characters]"
        self.lines.append(line)
        self._size += len(line) + 1
        while self._size > self.max_bytes and self.lines:
            self._size -= len(self.lines.popleft()) + 1
            self.dropped += 1
        if self.on_line is not None:
            self.on_line(line)

    def text(self) -> str:
        head = f"[{self.dropped} earlier lines dropped]\n" if self.dropped else ""
        return head + "\n".join(self.lines)


@dataclass
class Faults:
    """Transport-level faults seen on a connection; the first one explains what follows it.

    Attributes:
        first: the first fault, or None.
        hurry: set when the server is known to be hung: shutdown then skips the
            grace periods and kills the process group at once.
    """

    first: CatalogError | None = None
    event: anyio.Event = field(default_factory=anyio.Event)
    hurry: bool = False

    def report(self, error: CatalogError) -> None:
        if self.first is None:
            self.first = error
            self.event.set()


def kill_group(pid: int, sig: int = signal.SIGKILL) -> bool:
    """Signal the process group led by `pid`; False if there was none."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _excerpt(data: bytes, limit: int = 120) -> str:
    text = data[:limit].decode("utf-8", errors="replace")
    return repr(text) + ("…" if len(data) > limit else "")


@asynccontextmanager
async def bounded_stdio_client(
    spec: ServerSpec,
    *,
    max_line_bytes: int,
    log: ServerLog,
    faults: Faults,
    on_spawn: Callable[[int], None] | None = None,
    on_exit: Callable[[int], None] | None = None,
) -> AsyncIterator[tuple[anyio.abc.ObjectReceiveStream[SessionMessage | Exception], anyio.abc.ObjectSendStream[SessionMessage]]]:
    """Spawn `spec`'s command in its own process group and speak newline-delimited JSON-RPC to it.

    Raises:
        OSError: the process could not be started (missing command, no permission, bad cwd).
    """
    env = get_default_environment() | dict(spec.env)
    process = await anyio.open_process(
        [spec.command, *spec.args],
        env=env,
        cwd=spec.cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    if on_spawn is not None:
        try:
            on_spawn(process.pid)
        except BaseException:
            # Not recorded anywhere: nobody else could ever stop it.
            with anyio.CancelScope(shield=True):
                await _shutdown(process, hurry=True)
            raise
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    stdout_done = anyio.Event()
    shutting_down = False

    def exited() -> CatalogError:
        return make_error(ErrorKind.CONNECTION, f"the server process exited (exit code {process.returncode})")

    async def stdout_reader() -> None:
        assert process.stdout is not None
        buffer = bytearray()
        async with read_writer:
            try:
                async for chunk in process.stdout:
                    start = len(buffer)
                    buffer += chunk
                    cut = 0
                    while (end := buffer.find(b"\n", max(start, cut))) != -1:
                        line = bytes(buffer[cut:end])
                        cut = end + 1
                        if not await _deliver(line):
                            return
                    del buffer[:cut]
                    if len(buffer) > max_line_bytes:
                        faults.report(
                            make_error(
                                ErrorKind.SIZE_LIMIT,
                                f"a response exceeded the {max_line_bytes:,}-byte cap "
                                f"(more than {len(buffer):,} bytes without a line end); reading stopped",
                            )
                        )
                        return
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                return
            finally:
                stdout_done.set()
            # EOF: the process is gone or closed its stdout.
            await _exited(process, 0.5)
            if not shutting_down:
                faults.report(exited())

    async def exit_watcher() -> None:
        # A grandchild that inherited stdout keeps the pipe open after the server
        # dies, so EOF alone would leave a request waiting for its timeout.
        while process.returncode is None:
            await anyio.sleep(0.05)
        with anyio.move_on_after(0.5):
            await stdout_done.wait()  # let the reader deliver what the server wrote before dying
        if not shutting_down:
            faults.report(exited())
            await read_writer.aclose()

    async def _deliver(line: bytes) -> bool:
        if len(line) > max_line_bytes:
            faults.report(
                make_error(ErrorKind.SIZE_LIMIT, f"a response of {len(line):,} bytes exceeded the {max_line_bytes:,}-byte cap")
            )
            return False
        if not line.strip():
            return True
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError:
            faults.report(make_error(ErrorKind.PROTOCOL, f"the server wrote a line that is not JSON-RPC: {_excerpt(line)}"))
            return False
        try:
            await read_writer.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return False
        return True

    async def stderr_reader() -> None:
        assert process.stderr is not None
        pending = bytearray()
        with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async for chunk in process.stderr:
                pending += chunk
                *complete, rest = pending.split(b"\n")
                for raw in complete:
                    log.append(raw.decode("utf-8", errors="replace"))
                pending = bytearray(rest[-MAX_LOG_LINE * 4 :])
        if pending:
            log.append(pending.decode("utf-8", errors="replace"))

    async def stdin_writer() -> None:
        assert process.stdin is not None
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((data + "\n").encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stdout_reader)
        tg.start_soon(stderr_reader)
        tg.start_soon(stdin_writer)
        tg.start_soon(exit_watcher)
        try:
            yield read_stream, write_stream
        finally:
            shutting_down = True
            with anyio.CancelScope(shield=True):
                await _shutdown(process, hurry=faults.hurry)
                await write_stream.aclose()
                await read_stream.aclose()
                if on_exit is not None:
                    on_exit(process.pid)
            tg.cancel_scope.cancel()


async def _shutdown(process: anyio.abc.Process, hurry: bool = False) -> None:
    """Close stdin, wait, SIGTERM the group, wait, then SIGKILL the group (grandchildren included)."""
    assert process.stdin is not None
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    if not hurry and not await _exited(process, EXIT_GRACE):
        kill_group(process.pid, signal.SIGTERM)
        await _exited(process, TERM_GRACE)
    kill_group(process.pid, signal.SIGKILL)
    # aclose() closes the pipes and reaps the child; bounded, because a process
    # that left our group could still hold a pipe open.
    with anyio.move_on_after(1.0), suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.aclose()
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    if transport is not None:
        transport.close()  # otherwise asyncio closes it at GC, possibly after the loop is gone


async def _exited(process: anyio.abc.Process, timeout: float) -> bool:
    # Poll returncode rather than wait(): wait() also waits for pipe EOF, which a
    # grandchild holding the pipes would delay.
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(0.01)
        return True
    return False
