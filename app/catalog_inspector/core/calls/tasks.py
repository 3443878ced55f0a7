"""A tool call run as a task, as data: the wire words of both eras, the statuses seen, the record a report keeps.

Two task protocols, not wire-compatible:

    2025-11-25 (experimental, "legacy")        2026-07-28 (extension io.modelcontextprotocol/tasks, SEP-2663)
    ─────────────────────────────────────────  ───────────────────────────────────────────────────────────────
    tools/call params.task {ttl}: the client    the client declares the extension in the request's
      asks for a task (tools declare             _meta clientCapabilities; the *server* decides whether to
      execution.taskSupport)                     make a task
    answer {task: Task}                         answer {resultType: "task", ...Task} (flat)
    Task: taskId status statusMessage           Task: taskId status statusMessage createdAt lastUpdatedAt
      createdAt lastUpdatedAt ttl pollInterval    ttlMs pollIntervalMs
    tasks/get {taskId} → Task                   tasks/get {taskId} → Task + inputRequests (input_required),
                                                  result (completed), error (failed)
    tasks/result {taskId} → the call's result    (none)
      (blocks until terminal; the server asks
      its questions while it runs)
    (none)                                      tasks/update {taskId, inputResponses} → ack
    tasks/cancel {taskId} → Task                tasks/cancel {taskId} → ack
    notifications/tasks/status (pushed)         notifications/tasks (subscriptions/listen taskIds)
    progress on the call's progressToken        no progress

Plain data, no SDK: `core.session.tasks` drives a task on a connection and fills a `TaskLog`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from catalog_inspector.core.text import visible

if TYPE_CHECKING:
    from catalog_inspector.core.calls.asking import Era

__all__ = [
    "CANCELLED",
    "COMPLETED",
    "FAILED",
    "INPUT_REQUIRED",
    "STATUSES",
    "TASKS_EXTENSION",
    "TERMINAL",
    "WORKING",
    "TaskLog",
    "TaskProgress",
    "TaskRecord",
    "TaskState",
    "poll_delay",
    "task_support",
]

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
RELATED_TASK = "io.modelcontextprotocol/related-task"

WORKING = "working"
INPUT_REQUIRED = "input_required"
COMPLETED = "completed"
FAILED = "failed"
CANCELLED = "cancelled"
STATUSES = (WORKING, INPUT_REQUIRED, COMPLETED, FAILED, CANCELLED)
TERMINAL = frozenset({COMPLETED, FAILED, CANCELLED})

POLL_FLOOR_S = 0.1  # the shortest wait between two tasks/get, whatever the server suggests (0 would spin)
POLL_CEILING_S = 30.0  # the longest: a server suggesting an hour is still asked (the deadline bounds the whole)
POLL_DEFAULT_S = 1.0  # when the server suggests nothing
MAX_STATES = 200  # statuses kept per task (the first ones and the last: the ones between are counted)
TEXT_LIMIT = 2000  # characters of a status message kept

Source = Literal["created", "get", "notification", "cancel"]
# created       the answer to tools/call that made the task
# get           a tasks/get answer
# notification  a status notification (notifications/tasks/status, notifications/tasks)
# cancel        the answer to tasks/cancel (2025-11-25 answers with the task)


def task_support(tool: dict[str, Any]) -> str | None:
    """A tool's `execution.taskSupport` as it declares it (`required`, `optional`, `forbidden`, or another word),
    None when it declares none (a 2025-11-25 field, gone in 2026-07-28, which servers may still send)."""
    execution = tool.get("execution")
    support = execution.get("taskSupport") if isinstance(execution, dict) else None
    return support if isinstance(support, str) else None


def poll_delay(interval_ms: Any) -> float:
    """Seconds to wait before the next tasks/get: the server's suggestion, within the floor and the ceiling."""
    if isinstance(interval_ms, bool) or not isinstance(interval_ms, int | float) or not math.isfinite(interval_ms):
        return POLL_DEFAULT_S
    return min(max(interval_ms / 1000, POLL_FLOOR_S), POLL_CEILING_S)


@dataclass(frozen=True)
class TaskState:
    """One status of the task as the server said it (plain text, bounded).

    `at_ms` is the client's time since the task was asked for; `poll_interval_ms` the server's suggestion.
    """

    status: str
    message: str | None = None
    poll_interval_ms: float | None = None
    source: Source = "get"
    at_ms: float = 0.0

    @classmethod
    def of(cls, task: dict[str, Any], era: Era, source: Source, at_ms: float) -> TaskState:
        """The state a Task object (wire JSON) says."""
        status = task.get("status")
        said = task.get("statusMessage")
        interval = task.get("pollIntervalMs" if era == "modern" else "pollInterval")
        suggested: float | None = None
        if isinstance(interval, int | float) and not isinstance(interval, bool) and math.isfinite(interval):
            suggested = float(interval)
        return cls(
            visible(status, 100) if isinstance(status, str) else "(none)",
            visible(said, TEXT_LIMIT) if isinstance(said, str) else None,
            suggested,
            source,
            at_ms,
        )

    def same_as(self, other: TaskState | None) -> bool:
        """The same thing said again (another poll): not a new state."""
        if other is None:
            return False
        return (self.status, self.message, self.poll_interval_ms) == (
            other.status,
            other.message,
            other.poll_interval_ms,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "poll_interval_ms": self.poll_interval_ms,
            "source": self.source,
            "at_ms": round(self.at_ms, 3),
        }


@dataclass(frozen=True)
class TaskProgress:
    """The last progress notification of the task (2025-11-25: on the call's progress token)."""

    progress: float
    total: float | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"progress": self.progress, "total": self.total, "message": self.message}


@dataclass(frozen=True)
class TaskRecord:
    """What a task was, for the report and the history.

    Attributes:
        task_id: the server's id (None: the server answered without making a task).
        era: modern (the 2026-07-28 extension) or legacy (2025-11-25 experimental tasks).
        states: the statuses seen, in order, each said once (a poll that says the same is not kept).
        dropped: states left out between the first and the last kept (over `MAX_STATES`).
        progress: the last progress, or None.
        cancel_sent: tasks/cancel was sent (the deadline ran out, the call was cancelled, an answer broke its schema).
        note: what else is to be said (the server answered directly; why tasks/cancel failed), or None.
    """

    task_id: str | None
    era: Era
    states: tuple[TaskState, ...] = ()
    dropped: int = 0
    progress: TaskProgress | None = None
    cancel_sent: bool = False
    note: str | None = None

    @property
    def status(self) -> str | None:
        return self.states[-1].status if self.states else None

    def words(self) -> str:
        """The task in one line of plain text: its id, its status with the server's message, the poll interval,
        the progress, whether it was cancelled and what else is to be said (the Call tab shows it as it changes)."""
        era = "2026-07-28 tasks extension" if self.era == "modern" else "2025-11-25 tasks"
        if self.task_id is None:
            head = f"Task ({era}): none made yet"
        else:
            head = f"Task {visible(self.task_id, 100)} ({era})"
        parts = [head]
        last = self.states[-1] if self.states else None
        if last is not None:
            parts.append(last.status + (f": {visible(last.message, 300)}" if last.message else ""))
            if last.poll_interval_ms is not None:
                parts.append(f"polled every {last.poll_interval_ms:g} ms")
        if self.progress is not None:
            total = f" of {self.progress.total:g}" if self.progress.total is not None else ""
            said = f": {visible(self.progress.message, 300)}" if self.progress.message else ""
            parts.append(f"progress {self.progress.progress:g}{total}{said}")
        if len(self.states) > 1:
            parts.append(f"{len(self.states) + self.dropped} statuses")
        if self.cancel_sent:
            parts.append("tasks/cancel sent")
        if self.note:
            parts.append(visible(self.note, 500))
        return " — ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.task_id,
            "era": self.era,
            "statuses": [state.to_json() for state in self.states],
            "statuses_dropped": self.dropped,
            "progress": self.progress.to_json() if self.progress is not None else None,
            "cancel_sent": self.cancel_sent,
            "note": self.note,
        }


@dataclass
class TaskLog:
    """A task as it happens (the app shows it live; the report keeps its `record()`).

    `on_change` hears every change (a new status, progress, the cancel): it gets the log.
    """

    era: Era = "legacy"
    task_id: str | None = None
    states: list[TaskState] = field(default_factory=list)
    dropped: int = 0
    progress: TaskProgress | None = None
    cancel_sent: bool = False
    note: str | None = None
    on_change: Callable[[TaskLog], None] | None = None
    started: float = field(default_factory=time.perf_counter)

    def since_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    def put(self, state: TaskState) -> bool:
        """Keep `state` unless it says what the last one said; True when it was new."""
        if state.same_as(self.states[-1] if self.states else None):
            return False
        if len(self.states) >= MAX_STATES:
            self.states[-1] = state  # the first ones stay, and the newest: the ones between are counted
            self.dropped += 1
        else:
            self.states.append(state)
        self._changed()
        return True

    def put_progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Keep the latest progress; a NaN or infinite one (the SDK's parser lets them through) is not a number
        anyone can show or write as JSON: it is left out."""
        if not math.isfinite(progress):
            return
        if total is not None and not math.isfinite(total):
            total = None
        said = visible(message, TEXT_LIMIT) if message is not None else None
        self.progress = TaskProgress(progress, total, said)
        self._changed()

    def said(self, note: str) -> None:
        self.note = note if self.note is None else f"{self.note}; {note}"
        self._changed()

    def mark_cancel_sent(self) -> None:
        self.cancel_sent = True
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    @property
    def status(self) -> str | None:
        return self.states[-1].status if self.states else None

    def record(self) -> TaskRecord:
        return TaskRecord(
            self.task_id,
            self.era,
            tuple(self.states),
            self.dropped,
            self.progress,
            self.cancel_sent,
            self.note,
        )
