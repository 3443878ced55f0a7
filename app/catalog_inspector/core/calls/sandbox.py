"""A place to validate untrusted JSON Schemas that can be stopped: a worker process with a time budget per call.

Why a process: a schema's `pattern` such as `^(a+)+$` backtracks for minutes on a
thirty-character string, and `uniqueItems` on a huge array or a deep `$ref` chain can
be slow too. Python's `re` holds the GIL for the whole match, and a thread cannot be
killed, so validation runs in a warm worker (`core.calls.sandbox_worker`) that is killed,
with its whole process group, when a call runs past its budget. The next call
starts a fresh one.

What a call costs and what it is bounded by:

- the budget covers sending the request, compiling the schema and validating; the
  worker's start (about 80 ms: it imports jsonschema) has its own
  timeout and is not charged to the call that happens to start it;
- schemas and instances whose JSON is over `max_bytes` are refused before anything
  is sent; answers are capped (problems, message length, bytes) by the worker;
- one request is in flight at a time; other callers queue in order;
- cancelling a call kills the worker (it is busy with a request nobody will read).

Usage::

    async with Sandbox(prestart=True) as sandbox:
        validation = await sandbox.validate(schema, arguments, budget=0.5)
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
from anyio.streams.buffered import BufferedByteReceiveStream

import catalog_inspector
from catalog_inspector.core.launch import python_module_command
from catalog_inspector.core.processes import kill_group, reap

# Validation and lint are imported where a request is made: the app makes its sandboxes at start, before its
# first frame, which needs neither (`ui.preload.BEHIND_FIRST_FRAME`).
if TYPE_CHECKING:
    from catalog_inspector.core.calls.lint import LintIssue
    from catalog_inspector.core.calls.validation import ResultVerdict, Validation

__all__ = ["DEFAULT_MAX_BYTES", "Sandbox", "worker_command", "worker_environment"]

DEFAULT_MAX_BYTES = 8 * 1024 * 1024  # of a schema's or an instance's JSON, each
MAX_PROBLEMS = 1000  # per answer; `truncated` says there were more
MESSAGE_LIMIT = 2000  # characters per problem message (messages quote the instance)
RESPONSE_LIMIT = 1024 * 1024  # bytes per answer: parsing it runs on the caller's event loop
START_TIMEOUT = 10.0  # seconds for a worker to import jsonschema and say it is ready
REAP_TIMEOUT = 2.0  # seconds to wait for a SIGKILLed worker to be reaped
STDERR_TAIL = 2000  # bytes of a crashed worker's stderr kept for its report


def worker_command() -> list[str]:
    """The command line that starts a worker.

    `-P` keeps the working directory off `sys.path`, so a stray `jsonschema.py`
    there is never imported. A frozen bundle (PyInstaller) has no `-m` (nor a working
    directory on its path): it runs its own executable with a hidden flag (`core.launch`).
    """
    program, args = python_module_command("catalog_inspector.core.calls.sandbox_worker", interpreter_flags=("-P",))
    return [program, *args]


def worker_environment() -> dict[str, str]:
    """The worker's whole environment: what it takes to start Python and import this package, nothing more.

    `sys.executable` of a virtualenv finds the venv's site-packages by itself; `PYTHONPATH`
    leads with the directory this package was imported from, so the worker runs the app's
    own code even from a source tree; `LD_LIBRARY_PATH` is kept for interpreters built
    with a shared libpython outside the system paths.
    """
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LD_LIBRARY_PATH", "SYSTEMROOT") if key in os.environ}
    root = str(Path(catalog_inspector.__file__).resolve().parent.parent)
    inherited = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    env["PYTHONPATH"] = os.pathsep.join([root, *inherited])
    return env


@dataclass
class _Worker:
    process: anyio.abc.Process
    stdout: BufferedByteReceiveStream
    recorded: bool = False  # on_spawn accepted it, so on_exit is owed
    gone: bool = False


@dataclass(frozen=True)
class _Request:
    schema: bytes
    instance: bytes
    digest: str
    op: str = "validate"  # or "lint": the schema's lint with its metaschema pass, issues as problems


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):.1f} MiB" if count >= 1024 * 1024 else f"{count:,} bytes"


def _encode(schema: Any, instance: Any, max_bytes: int) -> _Request | Validation:
    """Both documents as compact JSON lines (ASCII: no raw newlines), or why they are refused."""
    from catalog_inspector.core.calls.validation import Failure, Validation

    lines = []
    for what, document in (("schema", schema), ("instance", instance)):
        try:
            line = json.dumps(document, separators=(",", ":")).encode("ascii")
        except RecursionError:
            return Validation(failure=Failure.TOO_LARGE, detail=f"the {what} is nested too deeply to send")
        if len(line) > max_bytes:
            detail = f"the {what}'s JSON is {_size(len(line))}, over the {_size(max_bytes)} cap; it was not checked"
            return Validation(failure=Failure.TOO_LARGE, detail=detail)
        lines.append(line)
    # Keyed by the bytes as sent, keys in their own order: messages quote schema parts
    # and errors at one place come in keyword order, so the order is part of the validator.
    return _Request(lines[0], lines[1], hashlib.sha256(lines[0]).hexdigest())


def _decode(line: bytes, request_id: int) -> Validation | None:
    """The worker's answer, or None if it is not one (the worker is then not to be trusted)."""
    from catalog_inspector.core.calls.validation import Failure, FieldProblem, Validation

    try:
        answer = json.loads(line)
        if not isinstance(answer, dict) or answer.get("id") != request_id:
            return None
        if "failure" in answer:
            return Validation(failure=Failure(answer["failure"]), detail=str(answer["detail"]))
        problems = tuple(FieldProblem(pointer, message, keyword) for pointer, keyword, message in answer["problems"])
        truncated = answer["truncated"] is True
    except (ValueError, KeyError, TypeError):
        return None
    detail = f"only the first {len(problems)} problems are shown" if truncated else ""
    return Validation(problems, detail=detail, truncated=truncated)


def _exit_words(returncode: int | None) -> str:
    if returncode is None:
        return "is not responding"
    if returncode < 0:
        with suppress(ValueError):
            return f"was killed by {signal.Signals(-returncode).name}"
    return f"exited (exit code {returncode})"


class Sandbox:
    """A warm worker process that validates untrusted schemas under a time budget per call.

    An async context manager; `aclose()` kills the worker's process group and reaps it,
    also when the owning task is cancelled. Qt-free; calls may come from any task of one loop.

    Attributes:
        max_bytes: the cap on a schema's or an instance's JSON; larger ones are refused.
        max_problems: the most problems one answer reports.
        prestart: start the worker on entering the context instead of on the first call.
    """

    def __init__(
        self,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_problems: int = MAX_PROBLEMS,
        prestart: bool = False,
        start_timeout: float = START_TIMEOUT,
        on_spawn: Callable[[int], None] | None = None,
        on_exit: Callable[[int], None] | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_problems = max_problems
        self.prestart = prestart
        self._start_timeout = start_timeout
        self._on_spawn = on_spawn
        self._on_exit = on_exit
        self._command = command if command is not None else worker_command()
        self._lock_made: anyio.Lock | None = None
        self._worker: _Worker | None = None
        self._closed = False
        self._next_id = 0

    def _lock(self) -> anyio.Lock:
        """FIFO: waiting callers are served in order. Made on first use: the window makes two sandboxes before
        its first frame, and anyio imports its locks' module on first use (~10 ms of that frame)."""
        if self._lock_made is None:
            self._lock_made = anyio.Lock()
        return self._lock_made

    async def __aenter__(self) -> Sandbox:
        if self.prestart:
            await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def record_processes(self, on_spawn: Callable[[int], None], on_exit: Callable[[int], None]) -> None:
        """Report the workers it starts and ends (to a process registry made after the sandbox)."""
        self._on_spawn, self._on_exit = on_spawn, on_exit

    @property
    def pid(self) -> int | None:
        """The running worker's process id (it leads its own process group), or None."""
        worker = self._worker
        return worker.process.pid if worker is not None and not worker.gone else None

    async def start(self) -> bool:
        """Start the worker now if none runs; False if it could not be started (calls will say why)."""
        async with self._lock():
            self._check_open()
            return isinstance(await self._ready_worker(), _Worker)

    async def validate(self, schema: Any, instance: Any, budget: float) -> Validation:
        """Validate `instance` against `schema` in the worker, giving up after `budget` seconds.

        Returns the problems (pointer, message, keyword) or a classified failure:
        bad_schema, unresolvable_ref, too_large (refused, nothing sent), over_budget
        (the worker was killed; the next call starts a fresh one) or crashed.

        Raises:
            anyio.ClosedResourceError: the sandbox is closed (or was closed during the call).
            TypeError, ValueError: the documents are not JSON data (a caller's bug).
        """
        return await self._call(schema, instance, budget, "validate")

    async def _call(self, schema: Any, instance: Any, budget: float, op: str) -> Validation:
        """One request of `op` in the worker, within `budget` seconds (see `validate`)."""
        from catalog_inspector.core.calls.validation import Validation

        if budget <= 0:
            raise ValueError(f"the budget must be positive, not {budget}")
        self._check_open()
        # Off the event loop: an 8 MiB document takes tens of milliseconds to serialize.
        request = await anyio.to_thread.run_sync(_encode, schema, instance, self.max_bytes)
        if isinstance(request, Validation):
            return request
        async with self._lock():
            self._check_open()
            worker = await self._ready_worker()
            if isinstance(worker, Validation):
                return worker
            return await self._ask(worker, replace(request, op=op), budget)

    async def lint(self, schema: Any, budget: float) -> tuple[LintIssue, ...] | Validation:
        """`lint_schema(schema)` with its metaschema pass, in the worker, within `budget` seconds: the issues, or
        the classified failure a validation would have (too_large, over_budget, crashed).

        Raises:
            anyio.ClosedResourceError: the sandbox is closed (or was closed during the call).
        """
        from catalog_inspector.core.calls.lint import LintCode, LintIssue
        from catalog_inspector.core.calls.validation import Failure, Validation

        answer = await self._call(schema, None, budget, "lint")
        if answer.failure is not None:
            return answer
        try:
            return tuple(LintIssue(LintCode(p.keyword), p.pointer, p.message) for p in answer.problems)
        except ValueError:  # a code this side does not know: the worker is not ours
            return Validation(failure=Failure.CRASHED, detail="the worker answered a lint with an unknown code")

    async def check_result(self, tool: dict[str, Any], result: dict[str, Any], budget: float) -> ResultVerdict:
        """`validation.check_result` bounded by `budget`: a check that runs over it is an `over_budget` verdict."""
        from catalog_inspector.core.calls.validation import ResultVerdict, output_to_check, verdict_of

        target = output_to_check(tool, result)
        if isinstance(target, ResultVerdict):
            return target
        schema, content = target
        return verdict_of(await self.validate(schema, content, budget))

    async def aclose(self) -> None:
        """Kill the worker's process group and reap it. A call in flight raises `ClosedResourceError`."""
        self._closed = True
        worker = self._worker
        if worker is not None and not worker.gone:
            kill_group(worker.process.pid)  # now, not after the call in flight has used up its budget
        with anyio.CancelScope(shield=True):
            async with self._lock():  # the call in flight, if any, sees its worker die and ends
                if self._worker is not None:
                    await self._discard(self._worker)

    def _check_open(self) -> None:
        if self._closed:
            raise anyio.ClosedResourceError("the sandbox is closed")

    async def _ready_worker(self) -> _Worker | Validation:
        """The running worker, or a freshly started one, or the `crashed` reason there is none. Holds the lock."""
        worker = self._worker
        if worker is not None and worker.process.returncode is None:
            return worker
        if worker is not None:
            await self._discard(worker)  # it died while idle: replace it without failing anyone
        return await self._spawn()

    async def _spawn(self) -> _Worker | Validation:
        from catalog_inspector.core.calls.validation import Failure, Validation

        try:
            process = await anyio.open_process(
                self._command,
                env=worker_environment(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                # Read only once it has died: it writes there only when failing (warnings are
                # off). Were it to write a lot while alive, a full pipe would stall it into an
                # over_budget kill, and the next call would get a fresh worker.
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own group: killing it reaches anything it started
            )
        except OSError as exc:
            return Validation(failure=Failure.CRASHED, detail=f"the validation worker could not be started: {exc}")
        assert process.stdout is not None
        worker = _Worker(process, BufferedByteReceiveStream(process.stdout))
        self._worker = worker
        ready = False
        tail = ""
        try:
            if self._on_spawn is not None:
                self._on_spawn(process.pid)
            worker.recorded = True
            with anyio.move_on_after(self._start_timeout) as waiting:
                with suppress(anyio.IncompleteRead, anyio.DelimiterNotFound, ValueError):
                    ready = json.loads(await worker.stdout.receive_until(b"\n", 4096)) == {"ready": True}
        finally:
            if not ready:
                tail = await self._discard(worker)
        self._check_open()  # aclose() stopped the start
        if not ready:
            late = f" within {self._start_timeout:g} s" if waiting.cancelled_caught else ""
            return Validation(failure=Failure.CRASHED, detail=f"the validation worker did not start{late}{tail}")
        return worker

    async def _ask(self, worker: _Worker, request: _Request, budget: float) -> Validation:
        """Send one request and read its answer within `budget`; any other ending discards the worker. Holds the lock."""
        from catalog_inspector.core.calls.validation import Failure, Validation

        self._next_id += 1
        request_id = self._next_id
        header = {
            "id": request_id,
            "op": request.op,
            "digest": request.digest,
            "limit": self.max_problems,
            "message_limit": MESSAGE_LIMIT,
            "max_response": RESPONSE_LIMIT,
        }
        data = b"\n".join([json.dumps(header).encode(), request.schema, request.instance, b""])
        answered = False
        try:
            line: bytes | None = None
            with anyio.move_on_after(budget):
                assert worker.process.stdin is not None
                with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                    await worker.process.stdin.send(data)
                try:
                    line = await worker.stdout.receive_until(b"\n", RESPONSE_LIMIT + 4096)
                except anyio.DelimiterNotFound:
                    line = b""  # an answer over the cap it was given: not to be trusted
                except (anyio.IncompleteRead, anyio.ClosedResourceError):
                    pass  # it died
                answered = True
            if not answered:
                await self._discard(worker)
                self._check_open()
                detail = f"validation ran past its {budget:g} s budget; the worker was killed"
                return Validation(failure=Failure.OVER_BUDGET, detail=detail)
            validation = _decode(line, request_id) if line is not None else None
            if validation is None:
                tail = await self._discard(worker)
                self._check_open()  # killed by aclose(): not a crash
                what = "broke its protocol" if line is not None else _exit_words(worker.process.returncode)
                return Validation(failure=Failure.CRASHED, detail=f"the validation worker {what}{tail}")
            return validation
        except BaseException:
            # Cancelled mid-call: the worker is busy with an answer nobody will read.
            await self._discard(worker)
            raise

    async def _discard(self, worker: _Worker) -> str:
        """Kill the worker's group and reap it, even when cancelled; ": <its last stderr line>" or ""."""
        if self._worker is worker:
            self._worker = None
        if worker.gone:
            return ""
        worker.gone = True
        with anyio.CancelScope(shield=True):
            tail = await _kill_and_reap(worker.process)
        if worker.recorded and self._on_exit is not None:
            self._on_exit(worker.process.pid)
        return f": {tail}" if tail else ""


async def _kill_and_reap(process: anyio.abc.Process) -> str:
    """SIGKILL the group `process` leads, reap it; the last line it wrote to stderr."""
    kill_group(process.pid)
    tail = b""
    if process.stderr is not None:
        # The group is dead, so stderr ends at once (bounded anyway: a process that
        # left the group could hold the pipe open).
        with anyio.move_on_after(0.5), suppress(anyio.EndOfStream, anyio.ClosedResourceError, OSError):
            while True:
                tail = (tail + await process.stderr.receive())[-STDERR_TAIL:]
    await reap(process, REAP_TIMEOUT)
    lines = tail.decode("utf-8", errors="replace").strip().splitlines()
    return lines[-1] if lines else ""
