"""The runtime's one place for work that must not run on the GUI thread.

Under qasync the event loop *is* the GUI thread: anything CPU-heavy or
disk-bound done in a coroutine freezes the window for its whole duration.
Exports, diffs and file writes go to a small pool of threads here. Untrusted
JSON Schema validation does not: a catastrophic `pattern` can run for minutes
and a thread cannot be stopped, so it goes to the killable sandbox process
(`core.calls.sandbox`), which the runtime owns through this object too. And a
computation over a whole catalog (a drift report) runs on the GUI thread itself,
a few milliseconds between events (`in_slices`): on a thread it would hold up
every call Qt makes into Python while it runs (`core.steps` says why).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from catalog_inspector.core.calls import Sandbox
from catalog_inspector.core.steps import EVERY, SLICE_SECONDS, Steps, advance

if TYPE_CHECKING:
    from catalog_inspector.core.calls import LintIssue, ResultVerdict, Validation

__all__ = ["VALIDATION_BUDGET", "Offload", "OffloadClosed"]

T = TypeVar("T")

THREADS = 2  # the machines we target have two cores; more threads would only fight over the GIL
VALIDATION_BUDGET = 2.0  # seconds one validation of untrusted data may take before it is stopped


class OffloadClosed(RuntimeError):
    """Work was submitted after the runtime began shutting down (a RuntimeError, not a bug to report)."""


class Offload:
    """Threads for CPU and disk work, and the validation sandbox, shared by every supervisor and the window.

    Attributes:
        closed: no new work is accepted.
        sandbox: where untrusted schemas are validated (a process killed when over its budget).
        lint_sandbox: where a catalog's big schemas get their metaschema pass (another such process, started
            the first time one is needed).
        budget: seconds one validation may take.
        slice_seconds: how long one slice of `in_slices` work runs (at least one step).
        worked_through: told after each slice of `in_slices` work how many items it went through, at most.
    """

    def __init__(self, sandbox: Sandbox | None = None, budget: float = VALIDATION_BUDGET) -> None:
        self._threads = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="inspector-offload")
        self.sandbox = sandbox if sandbox is not None else Sandbox()
        # A second worker for whole catalogs' big schemas: a catalog's queue must not hold up the Call tab's checks.
        self.lint_sandbox = Sandbox()
        self.budget = budget
        self.closed = False
        # Told after each slice how many catalog items it went through, at most (the runtime's collector counts
        # them: a report's rows left in the collector's sight made full collections of 50-140 ms at 100,000 tools).
        self.worked_through: Callable[[int], None] | None = None
        self.slice_seconds = SLICE_SECONDS
        self._sliced: deque[tuple[Steps[Any], asyncio.Future[Any]]] = deque()

    def submit(self, fn: Callable[[], object]) -> Future[object] | None:
        """Fire and forget (e.g. a registry write); None once closed."""
        if self.closed:
            return None
        return self._threads.submit(fn)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on a worker thread and await its result (exceptions are re-raised here)."""
        if self.closed:
            raise OffloadClosed("the runtime is shutting down")
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    async def in_slices(self, steps: Steps[T]) -> T:
        """Run `steps` on the event loop a slice at a time, the window's events between (`core.steps`).

        Every sliced job shares one queue, taken in turns, one slice per turn of the
        event loop: three jobs at once (a report, the collisions, the lint) add up to
        one slice between two repaints, not three.

        Raises:
            OffloadClosed: the runtime began shutting down before it ended.
        """
        if self.closed:
            raise OffloadClosed("the runtime is shutting down")
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        self._sliced.append((steps, answer))
        if len(self._sliced) == 1:
            loop.call_soon(self._next_slice)
        return await answer

    def _next_slice(self) -> None:
        """One slice of the job whose turn it is; the job goes to the back of the queue until it ends."""
        if not self._sliced:
            return
        steps, answer = self._sliced.popleft()
        if answer.done():  # its awaiter was cancelled
            steps.close()
        elif self.closed:
            steps.close()
            answer.set_exception(OffloadClosed("the runtime is shutting down"))
        else:
            try:
                done, result, taken = advance(steps, self.slice_seconds)
            except BaseException as exc:  # the job's own failure is its awaiter's to report
                answer.set_exception(exc)
            else:
                if self.worked_through is not None:
                    self.worked_through(taken * EVERY)
                if done:
                    answer.set_result(result)
                else:
                    self._sliced.append((steps, answer))
        if not self._sliced:
            return
        loop = asyncio.get_running_loop()
        if answer.done():
            # Its awaiter wakes next turn and may do a frame's work with the result (a report published: its
            # banner, its tree); the next job's slice waits a turn more, so that the two are not one stall.
            loop.call_soon(loop.call_soon, self._next_slice)
        else:
            loop.call_soon(self._next_slice)

    async def validate(self, schema: Any, instance: Any) -> Validation:
        """Validate untrusted data within the budget (an over-budget check says so; the app never stalls)."""
        return await self.sandbox.validate(schema, instance, self.budget)

    async def lint_whole(self, schema: Any) -> tuple[LintIssue, ...] | None:
        """A schema's whole lint (with the metaschema pass) in the lint sandbox, within the budget; None when it
        ran over it or the worker failed (the structural lint stands, and says so)."""
        found = await self.lint_sandbox.lint(schema, self.budget)
        return found if isinstance(found, tuple) else None

    async def check_result(self, tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
        """A call result against the tool's output schema, within the budget."""
        return await self.sandbox.check_result(tool, result, self.budget)

    async def aclose(self) -> None:
        """Stop accepting work; queued work that has not started is dropped; the sandbox worker is killed."""
        self.closed = True
        while self._sliced:  # sliced work stops between two slices
            steps, answer = self._sliced.popleft()
            steps.close()
            if not answer.done():
                answer.set_exception(OffloadClosed("the runtime is shutting down"))
        self._threads.shutdown(wait=False, cancel_futures=True)
        await self.sandbox.aclose()
        await self.lint_sandbox.aclose()
