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
- the server's whole process tree is killed at the end, so no descendant survives,
  not even one that left the process group with setsid() (see `ServerTree`);
- `on_spawn`/`on_exit` hooks so a caller can record live process groups.
"""

from __future__ import annotations

import enum
import signal
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
from catalog_inspector.core.processes import ServerTree, adopt_orphans, open_server_process, reap
from catalog_inspector.core.server_log import MAX_LOG_LINE, ServerLog
from catalog_inspector.core.transport.classify import TOO_DEEP, too_deep
from catalog_inspector.core.transport.sizes import ResponseSizes
from catalog_inspector.core.transport.wire import NotJson, parse_message

__all__ = ["Faults", "Goodbye", "ServerLog", "bounded_stdio_client", "environment_names"]


def environment_names(spec: ServerSpec) -> tuple[list[str], list[str]]:
    """The variables a stdio server starts with: those passed on from ours (the SDK's small
    allowlist, where set) and those its entry configures. Names only: values may be secrets."""
    inherited = sorted(name for name in get_default_environment() if name not in spec.env)
    return inherited, sorted(spec.env)


# A server is ended in bounded steps, all of them well within the 0.5 s a person waits for a quit
# (issue 20): the CLI exits, and the app quits, only once its servers are gone.
# Close stdin, then wait EXIT_GRACE: a server that stops at the end of its input has done its own
# shutdown in milliseconds (an SDK 2.3 MCPServer has returned from `run` and run its atexit handlers
# 3 ms after EOF). What it does next is the interpreter's teardown: garbage collections over the SDK's
# and pydantic's objects, 0.4-0.9 s on the 2-core machine, which the SDK's own client waits out (it
# gives 2 s). A signal then cuts only that: nothing the server meant to do is lost. 0.2 s is ten
# times what a prompt exit took on a loaded machine.
EXIT_GRACE = 0.2
# SIGTERM the tree, then wait TERM_GRACE: for a server that handles SIGTERM itself (uvicorn, node) to
# run its handler; what still runs after it is killed. The quitting app sends SIGTERM with the stdin
# close: together 0.35 s at worst, plus the kill and the reaping (~10 ms), under 0.5 s for any server.
TERM_GRACE = 0.15
WALK_FIRST = 0.05  # seconds from the spawn to the first walk of the server's process tree
WALK_MAX = 1.0  # seconds between walks later: the interval doubles up to this
STDERR_GATHER = 0.01  # seconds the stderr reader waits for more after each read
TAIL_LINES = 5  # the server's last words shown with an exit
# A server that stops reading or writing (stdin or stdout closed) is usually on its way out: an SDK server's
# `run` has returned and its interpreter tears down for 0.4-0.9 s (2-core machine) before the exit code comes.
# Its exit code and last stderr lines say why ("exit code 3", "Error: API_KEY is not set"), the pipe closing
# says nothing: the first fault waits this long for the exit before it is reported without one.
EXIT_WAIT = 2.0


class Goodbye(enum.Enum):
    """How a session's server process is ended when the session closes.

    A close under way follows a later, hastier goodbye: an app that quits while a
    replaced session closes politely waits out nobody's grace period.
    """

    POLITE = "polite"  # the SDK's order: close stdin, wait, SIGTERM the group, wait, SIGKILL the group
    QUICK = "quick"  # the app is quitting: close stdin and SIGTERM together, a short wait, then SIGKILL
    NOW = "now"  # the server is known to be hung: SIGKILL the group at once


@dataclass
class Faults:
    """Transport-level faults seen on a connection; the first one explains what follows it.

    Attributes:
        first: the first fault, or None.
        goodbye: how the process will be ended (a hung server gets no grace period;
            a quitting app waits for nobody).
    """

    first: CatalogError | None = None
    event: anyio.Event = field(default_factory=anyio.Event)
    goodbye: Goodbye = Goodbye.POLITE

    def hurry(self) -> None:
        """The server is hung: kill it without grace periods when the session closes."""
        self.goodbye = Goodbye.NOW

    def quit_soon(self) -> None:
        """The app is quitting: end the server quickly (unless it is already to be killed at once)."""
        if self.goodbye is Goodbye.POLITE:
            self.goodbye = Goodbye.QUICK

    def report(self, error: CatalogError) -> None:
        if self.first is None:
            self.first = error
            self.event.set()


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
    sizes: ResponseSizes | None = None,
) -> AsyncIterator[
    tuple[anyio.abc.ObjectReceiveStream[SessionMessage | Exception], anyio.abc.ObjectSendStream[SessionMessage]]
]:
    """Spawn `spec`'s command in its own process group and speak newline-delimited JSON-RPC to it.

    `sizes` receives the length of each response's line, under its id.

    Raises:
        OSError: the process could not be started (missing command, no permission, bad cwd).
    """
    env = get_default_environment() | dict(spec.env)
    first_line = log.total  # this process's own stderr starts here (the log spans sessions)
    adopt_orphans()  # before the spawn: the server's orphans must come to us, not to init
    # Under its reaper where one can run (see `open_server_process`): `process` is then the reaper.
    process, server_pid = await open_server_process([spec.command, *spec.args], env=env, cwd=spec.cwd)
    tree = ServerTree(process.pid, server_pid)
    if on_spawn is not None:
        try:
            on_spawn(process.pid)
        except BaseException:
            # Not recorded anywhere: nobody else could ever stop it.
            with anyio.CancelScope(shield=True):
                await _shutdown(process, tree, Faults(goodbye=Goodbye.NOW))
            raise
    link = _StdioLink(
        process, tree, max_line_bytes=max_line_bytes, log=log, faults=faults, sizes=sizes, first_line=first_line
    )
    async with anyio.create_task_group() as tg:
        link.start(tg)
        try:
            yield link.read_stream, link.write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await link.close()
                if on_exit is not None:
                    on_exit(process.pid)
            tg.cancel_scope.cancel()


class _StdioLink:
    """One running stdio server and the tasks that speak to it: its stdout read into messages, what the
    session sends written to its stdin, its stderr gathered into the log, its exit watched.

    Attributes:
        process: the process we talk to and wait for (the server's reaper, or the server itself).
        tree: every process descended from it.
        read_stream: the messages read from stdout (or the exceptions the SDK is to see), for the session.
        write_stream: what the session sends, for stdin.
        first_line: where this process's own stderr starts in `log` (the log spans sessions).
        shutting_down: the session is closing: the process ending from now on is no fault.
    """

    def __init__(
        self,
        process: anyio.abc.Process,
        tree: ServerTree,
        *,
        max_line_bytes: int,
        log: ServerLog,
        faults: Faults,
        sizes: ResponseSizes | None,
        first_line: int,
    ) -> None:
        self.process = process
        self.tree = tree
        self.first_line = first_line
        self.shutting_down = False
        self._max_line_bytes = max_line_bytes
        self._log = log
        self._faults = faults
        self._sizes = sizes
        self._read_writer, self.read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        self.write_stream, self._write_reader = anyio.create_memory_object_stream[SessionMessage](0)
        self._stdout_done = anyio.Event()
        self._stderr_done = anyio.Event()

    def start(self, tg: anyio.abc.TaskGroup) -> None:
        tg.start_soon(self._read_stdout)
        tg.start_soon(self._gather_stderr)
        tg.start_soon(self._write_stdin)
        tg.start_soon(self._watch_exit)

    async def close(self) -> None:
        """End the server as `faults.goodbye` says, then close both streams (call shielded)."""
        self.shutting_down = True
        await _shutdown(self.process, self.tree, self._faults)
        await self.write_stream.aclose()
        await self.read_stream.aclose()

    def _exit_error(self, closed: str = "stdout") -> CatalogError:
        # The server's own last words (a missing API key, a traceback) usually say why.
        code = self.process.returncode
        details = {"exit_code": code, "stderr": self._log.tail(TAIL_LINES, since=self.first_line)}
        if code is None and closed == "stdin":  # it stopped reading, yet the process runs on
            words = "the server closed its input (stdin) while still running: nothing more can be sent"
            return make_error(ErrorKind.CONNECTION, words, details=details)
        if code is None:  # stdout ended, yet the process runs on: it closed its end itself
            words = "the server closed its output (stdout) while still running: nothing more can arrive"
            return make_error(ErrorKind.CONNECTION, words, details=details)
        return make_error(ErrorKind.CONNECTION, f"the server process exited (exit code {code})", details=details)

    async def _drained(self) -> None:
        # Let the readers deliver what the server wrote before dying.
        with anyio.move_on_after(0.5):
            await self._stdout_done.wait()
            await self._stderr_done.wait()

    async def _report_exit(self, closed: str = "stdout") -> None:
        """Once the readers delivered the server's last words: its exit (or the pipe it `closed` while it runs on),
        as the fault that explains what follows."""
        await self._drained()
        if not self.shutting_down:
            self._faults.report(self._exit_error(closed))

    async def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        buffer = bytearray()
        async with self._read_writer:
            try:
                async for chunk in self.process.stdout:
                    start = len(buffer)
                    buffer += chunk
                    cut = 0
                    while (end := buffer.find(b"\n", max(start, cut))) != -1:
                        line = bytes(buffer[cut:end])
                        cut = end + 1
                        if not await self._deliver(line):
                            return
                    del buffer[:cut]
                    if len(buffer) > self._max_line_bytes:
                        self._faults.report(self._over_cap(len(buffer), unended=True))
                        return
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                return
            finally:
                self._stdout_done.set()
            # EOF: the process is gone or closed its stdout (and is most likely on its way out).
            await _exited(self.process, EXIT_WAIT, hurried=lambda: self.shutting_down)
            await self._report_exit()

    def _over_cap(self, length: int, *, unended: bool = False) -> CatalogError:
        cap = self._max_line_bytes
        if unended:  # no line end yet: reading stops before the whole line is in memory
            words = f"a response exceeded the {cap:,}-byte cap (more than {length:,} bytes without a line end)"
            return make_error(
                ErrorKind.SIZE_LIMIT,
                words + "; reading stopped",
                details={"budget": cap, "value": length, "cut_off": True},
            )
        words = f"a response of {length:,} bytes exceeded the {cap:,}-byte cap"
        return make_error(ErrorKind.SIZE_LIMIT, words, details={"budget": cap, "value": length})

    async def _deliver(self, line: bytes) -> bool:
        """Hand one line to the session as a message; False when reading must stop (a fault, or nobody reads)."""
        if len(line) > self._max_line_bytes:
            self._faults.report(self._over_cap(len(line)))
            return False
        if not line.strip():
            return True
        try:
            message = parse_message(line)
        except NotJson as exc:
            what = f"a message {TOO_DEEP}" if exc.too_deep else f"a line that is not JSON ({exc})"
            self._faults.report(make_error(ErrorKind.PROTOCOL, f"the server wrote {what}: {_excerpt(line)}"))
            return False
        except ValueError as exc:
            what = f"a message {TOO_DEEP}" if too_deep(exc) else "a line that is not JSON-RPC"
            self._faults.report(make_error(ErrorKind.PROTOCOL, f"the server wrote {what}: {_excerpt(line)}"))
            return False
        if (
            self._sizes is not None
            and isinstance(message, types.JSONRPCResponse | types.JSONRPCError)
            and message.id is not None
        ):
            self._sizes.add(message.id, len(line))
        try:
            await self._read_writer.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return False
        return True

    async def _watch_exit(self) -> None:
        # A grandchild that inherited stdout keeps the pipe open after the server
        # dies, so EOF alone would leave a request waiting for its timeout.
        # The process tree is walked meanwhile, often at first (when servers start
        # their helpers), then less: a helper seen before its parent exits is still
        # known as this server's when it has become our orphan.
        interval = WALK_FIRST
        next_walk = anyio.current_time() + interval
        while self.process.returncode is None:
            await anyio.sleep(0.05)
            if anyio.current_time() >= next_walk:
                self.tree.refresh()
                interval = min(interval * 2, WALK_MAX)
                next_walk = anyio.current_time() + interval
        await self._report_exit()
        if not self.shutting_down:
            await self._read_writer.aclose()

    async def _gather_stderr(self) -> None:
        assert self.process.stderr is not None
        pending = bytearray()
        try:
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for chunk in self.process.stderr:
                    pending += chunk
                    *complete, rest = pending.split(b"\n")
                    for raw in complete:
                        self._log.append(raw.decode("utf-8", errors="replace"))
                    pending = bytearray(rest[-MAX_LOG_LINE * 4 :])
                    # A server's stderr is line-buffered: one write per log line. Read at once, each line
                    # would cost an event-loop wake-up (under qasync, a Qt event: 200,000 lines took minutes).
                    # A moment's pause lets the pipe gather what follows; the server waits on a full pipe at worst.
                    await anyio.sleep(STDERR_GATHER)
            if pending:
                self._log.append(pending.decode("utf-8", errors="replace"))
        finally:
            self._stderr_done.set()

    async def _write_stdin(self) -> None:
        assert self.process.stdin is not None
        async with self._write_reader:
            try:
                async for message in self._write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await self.process.stdin.send((data + "\n").encode("utf-8"))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                # Its stdin is gone, most often because the server is exiting (a missing API key): its exit
                # and last stderr lines explain that, not the stream closing it causes. They are the fault
                # before anything closes: a request failing meanwhile is told them, not "connection closed".
                await _exited(self.process, EXIT_WAIT, hurried=lambda: self.shutting_down)
                await self._report_exit("stdin")
                await self._read_writer.aclose()


async def _shutdown(process: anyio.abc.Process, tree: ServerTree, faults: Faults) -> None:
    """End the process the way `faults.goodbye` says, hurrying if it turns hastier meanwhile; its whole tree
    is always SIGKILLed last (grandchildren included)."""
    assert process.stdin is not None
    tree.refresh()  # while the server still runs: once it exits, its children are orphans
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    gone = faults.goodbye is Goodbye.POLITE and await _exited(
        process, EXIT_GRACE, hurried=lambda: faults.goodbye is not Goodbye.POLITE
    )
    if not gone and faults.goodbye is not Goodbye.NOW:
        tree.signal(signal.SIGTERM)
        await _exited(process, TERM_GRACE, hurried=lambda: faults.goodbye is Goodbye.NOW)
    await tree.kill()
    await reap(process)


async def _exited(process: anyio.abc.Process, timeout: float, hurried: Callable[[], bool] = lambda: False) -> bool:
    """Whether the process has exited, waiting up to `timeout` for it (less once `hurried()` says so)."""
    # Poll returncode rather than wait(): wait() also waits for pipe EOF, which a
    # grandchild holding the pipes would delay.
    with anyio.move_on_after(timeout):
        while process.returncode is None and not hurried():
            await anyio.sleep(0.01)
    return process.returncode is not None
