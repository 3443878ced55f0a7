"""What a connection hears about its tasks: status notifications and progress, routed to the task they are about.

The SDK drops notifications its protocol tables do not define (`notifications/tasks/status`
of 2025-11-25 and the extension's `notifications/tasks` are both left out of them), unless
a `NotificationBinding` asks for them: `TaskNotices.bindings()` are given to the session.
Progress a task reports after its `tools/call` was answered carries that call's progress
token, which the SDK no longer routes: the connection's message handler hands such
notifications here (`progress`). Either is delivered to the watcher of its task, if any;
the rest are dropped (a task nobody watches, a token nobody knows).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mcp.client.extension import NotificationBinding
from pydantic import BaseModel, ConfigDict

__all__ = ["LEGACY_STATUS", "MODERN_STATUS", "TaskNotices"]

LEGACY_STATUS = "notifications/tasks/status"  # 2025-11-25
MODERN_STATUS = "notifications/tasks"  # the 2026-07-28 tasks extension (through subscriptions/listen)
MAX_WATCHED = 1000  # tasks and tokens watched at once on one connection (a bound, as everywhere)

StatusWatcher = Callable[[dict[str, Any]], None]
ProgressWatcher = Callable[[float, float | None, str | None], Awaitable[None]]


class _Params(BaseModel):
    """A notification's params as sent: a Task object (any fields)."""

    model_config = ConfigDict(extra="allow")


class TaskNotices:
    """Watchers of one connection's tasks, by task id (status) and by progress token."""

    def __init__(self) -> None:
        self._status: dict[str, StatusWatcher] = {}
        self._progress: dict[str | int, ProgressWatcher] = {}

    def bindings(self) -> list[NotificationBinding[Any]]:
        """The `ClientSession` notification bindings that bring both eras' status notifications here."""
        return [
            NotificationBinding(method=method, params_type=_Params, handler=self._on_status)
            for method in (LEGACY_STATUS, MODERN_STATUS)
        ]

    async def _on_status(self, params: _Params) -> None:
        task = dict(params.model_extra or {})
        task_id = task.get("taskId")
        watcher = self._status.get(task_id) if isinstance(task_id, str) else None
        if watcher is not None:
            watcher(task)

    async def progress(self, token: Any, progress: float, total: float | None, message: str | None) -> None:
        """A progress notification the SDK did not route (its request was answered already)."""
        watcher = self._progress.get(token) if isinstance(token, str | int) else None
        if watcher is not None:
            await watcher(progress, total, message)

    @contextmanager
    def status_of(self, task_id: str, watcher: StatusWatcher) -> Iterator[None]:
        """Deliver the task's status notifications (the Task object, wire JSON) to `watcher` in the block."""
        with _watched(self._status, task_id, watcher):
            yield

    @contextmanager
    def progress_of(self, token: str, watcher: ProgressWatcher) -> Iterator[None]:
        """Deliver the progress notifications of `token` to `watcher` in the block."""
        with _watched(self._progress, token, watcher):
            yield


@contextmanager
def _watched(table: dict[Any, Any], key: Any, watcher: Any) -> Iterator[None]:
    added = key not in table and len(table) < MAX_WATCHED
    if added:
        table[key] = watcher
    try:
        yield
    finally:
        if added:
            table.pop(key, None)
