"""The runtime's one set of asyncio tasks: every job ends in exactly one report, and shutdown counts them all.

Picard's `run_task` shape: a job is spawned with the callback that takes its
result and the callback that takes its error, and the error callback is not
optional. Whatever a job raises (a damaged file, a keyring that refuses, a bug of
ours) reaches `on_error`, so no part of the window waits forever for an answer
that died on the way ("Checking…" that never ends, a "Forget approval" that
silently did nothing).

What is not a failure, and is not reported:

- cancellation (someone stopped the job on purpose: `cancel`, a closing server);
- `OffloadClosed` once the task set is closing (the runtime is shutting down and
  said so; nobody is left to read the answer).

A callback that itself raises is a bug in the inspector: it goes to `on_bug` (the
runtime's message bridge), never into the event loop's "exception was never
retrieved" log.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, TypeVar

from catalog_inspector.runtime.offload import OffloadClosed

__all__ = ["TaskSet"]

T = TypeVar("T")

Bug = Callable[[str, BaseException], None]


def _print_bug(where: str, exc: BaseException) -> None:
    traceback.print_exception(exc)


class TaskSet:
    """The runtime's tasks, each with its report; keyed ones can be found and cancelled.

    Attributes:
        closing: shutdown has begun (here or in the set this is a group of): new jobs are refused
            (closed before they start) and `OffloadClosed` is no longer a failure.
        on_bug: receives a callback's own exception (where, exception).
        parent: the set this one is a group of, or None.
    """

    def __init__(self, on_bug: Bug = _print_bug, parent: TaskSet | None = None) -> None:
        self._closing = False
        self.on_bug = on_bug
        self.parent = parent
        self._tasks: set[asyncio.Task[Any]] = set()
        self._keyed: dict[Hashable, asyncio.Task[Any]] = {}
        self._droppable: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        """How many jobs have not reported yet (the runtime's set counts its groups' jobs too: one shutdown count)."""
        return len(self._tasks)

    @property
    def closing(self) -> bool:
        return self._closing or (self.parent is not None and self.parent.closing)

    def group(self) -> TaskSet:
        """A set of this one's: its jobs are counted, closed and reported here too, and it can wait for its own
        (a supervisor waits for its sessions; the runtime's shutdown waits for everyone's)."""
        return TaskSet(self.on_bug, parent=self)

    def spawn(
        self,
        job: Coroutine[Any, Any, T],
        on_result: Callable[[T], None] | None,
        on_error: Callable[[BaseException], None],
        *,
        key: Hashable | None = None,
        name: str = "",
        droppable: bool = False,
    ) -> asyncio.Task[T] | None:
        """Run `job`; its result goes to `on_result`, anything it raises to `on_error`, exactly once.

        `key` makes the task findable (`get`, `cancel`) until it ends. `droppable`: an answer
        nobody needs once the app quits (a check, a lint, a listing), so quitting does not wait
        for it (`cancel_droppable`); what is kept on disk is never droppable. Returns the task,
        or None when the set is closing (the job is closed unstarted and reports nothing).
        """
        if self.closing:
            job.close()
            return None
        task = asyncio.ensure_future(job)
        if name:
            task.set_name(name)
        self._track(task, droppable)
        if key is not None:
            self._keyed[key] = task
        task.add_done_callback(lambda done: self._report(done, key, on_result, on_error))
        return task

    def _track(self, task: asyncio.Task[Any], droppable: bool) -> None:
        self._tasks.add(task)
        if droppable:
            self._droppable.add(task)
        if self.parent is not None:
            self.parent._track(task, droppable)

    def _untrack(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        self._droppable.discard(task)
        if self.parent is not None:
            self.parent._untrack(task)

    def _report(
        self,
        task: asyncio.Task[T],
        key: Hashable | None,
        on_result: Callable[[T], None] | None,
        on_error: Callable[[BaseException], None],
    ) -> None:
        self._untrack(task)
        if key is not None and self._keyed.get(key) is task:
            del self._keyed[key]
        if task.cancelled():
            return
        error = task.exception()
        where = task.get_name()
        try:
            if error is None:
                if on_result is not None:
                    on_result(task.result())
            elif not (self.closing and isinstance(error, OffloadClosed)):
                on_error(error)
        except Exception as exc:  # a report that fails is our bug: it still reaches someone
            self.on_bug(where, exc)

    def keys(self) -> list[Hashable]:
        """The keys of the keyed jobs still running."""
        return list(self._keyed)

    def get(self, key: Hashable) -> asyncio.Task[Any] | None:
        """The running task spawned with `key`, or None."""
        return self._keyed.get(key)

    def cancel(self, key: Hashable) -> bool:
        """Cancel the task spawned with `key`; False if none runs."""
        task = self._keyed.get(key)
        if task is None or task.done():
            return False
        task.cancel()
        return True

    async def settle(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for every job in flight (and those they spawn); True if all ended."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._tasks:
            left = deadline - loop.time()
            if left <= 0:
                return False
            await asyncio.wait(list(self._tasks), timeout=left)
        return True

    def close(self) -> None:
        """Refuse new jobs from now on (here and in every group); the ones in flight still report."""
        self._closing = True

    def cancel_droppable(self) -> None:
        """Cancel the jobs spawned `droppable` (quitting: nobody will read their answers)."""
        for task in list(self._droppable):
            task.cancel()

    def cancel_all(self) -> None:
        """Cancel every job in flight (they report nothing: cancellation is not a failure)."""
        for task in list(self._tasks):
            task.cancel()
