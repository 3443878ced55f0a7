"""A `tools/call` run as a task, on either era's tasks: the small client the SDK does not have, bounded.

The wire of both eras is drawn in `core.calls.tasks`. Here:

1. The call goes out asking for a task: on 2025-11-25 with `task: {ttl}` in its params
   (and a progress token of ours, which stays valid for the task's life); on 2026-07-28
   declaring the `io.modelcontextprotocol/tasks` extension on that request only
   (`declaring_extensions`), and the server decides. A server that answers with the
   call's result instead made no task: the result is judged as it is.
2. `tasks/get` is polled: after the server's `pollInterval(Ms)` within a floor and a
   ceiling (`poll_delay`), at once when a status notification for the task arrives.
   Every status is recorded in the `TaskLog`; the same status said again is not.
3. `input_required`: on 2026-07-28 the questions are in the `tasks/get` answer under
   keys; each key is answered once, through the same `Asking` as any request, and sent
   with `tasks/update`. On 2025-11-25 `tasks/result` is sent: the server asks its
   questions while it blocks (the session's desk answers them, as during a call) and it
   answers with the result once the task has ended.
4. The end: `completed` gives the result (2026-07-28: in the task; 2025-11-25:
   `tasks/result`), judged like any call's; `failed` the JSON-RPC error (2025-11-25:
   whatever `tasks/result` says); `cancelled` unasked is `task_cancelled`.

Bounds: one overall deadline (`Limits.task_deadline`, stopped while a person answers),
each request's own timeout (the call's), the byte cap of every response (the
transport's: the result comes in one), the rounds budget, and the states kept. When the
deadline runs out, the call is cancelled or an answer breaks its schema, `tasks/cancel`
is sent (bounded, shielded from the cancellation that caused it).
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import anyio
import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catalog_inspector.core.calls import (
    CANCELLED,
    COMPLETED,
    FAILED,
    INPUT_REQUIRED,
    STATUSES,
    TASKS_EXTENSION,
    TERMINAL,
    Answerer,
    InputAnswer,
    InputAsk,
    Layer,
    Round,
    TaskLog,
    TaskState,
    poll_delay,
)
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind, make_error
from catalog_inspector.core.session.asking import (
    Asking,
    Stopped,
    _answer_all,
    _ask_of,
    _invalid_words,
    call_tool_attempt,
    send_asking,
)
from catalog_inspector.core.session.clock import PausableClock
from catalog_inspector.core.session.connection import Connection
from catalog_inspector.core.text import visible
from catalog_inspector.core.transport import declaring_extensions

__all__ = ["Ended", "TaskAnswer", "run_as_task", "task_of"]

CANCEL_TIMEOUT = 10.0  # seconds tasks/cancel may take (it is sent while something else already ended the task)
TEXT_LIMIT = 500  # characters of a server's words quoted in ours

Progress = Callable[[float, float | None, str | None], Awaitable[None]]


@dataclass(frozen=True)
class Ended:
    """The task ended without a result to judge, at `layer` (`task_cancelled`, `timeout`), for `error`."""

    layer: Layer
    error: ErrorInfo


TaskAnswer = dict[str, Any] | ErrorInfo | Stopped | Ended
"""The call's final result (wire JSON, judged like any call's), or why there is none."""


class _TaskRequest(types.Request[dict[str, Any], str]):
    """tasks/get, tasks/result, tasks/update, tasks/cancel: the SDK has no models for them."""


class _RoutedTaskRequest(_TaskRequest):
    name_param = "taskId"  # 2026-07-28 Streamable HTTP: `Mcp-Name` carries the task id (SEP-2663)


def _task_request(method: str, task_id: str, modern: bool, **more: Any) -> Any:
    kind = _RoutedTaskRequest if modern else _TaskRequest
    return kind(method=method, params={"taskId": task_id, **more})


def task_of(result: dict[str, Any], modern: bool) -> dict[str, Any] | None:
    """The task an answer to tools/call made (a `CreateTaskResult`), or None when it is the call's result."""
    if modern:
        return result if result.get("resultType") == "task" else None
    task = result.get("task")
    return task if isinstance(task, dict) and "content" not in result else None


class _Run:
    """One task in flight: the connection, what answers its questions, what it has said so far."""

    def __init__(
        self, connection: Connection, asking: Asking, log: TaskLog, timeout: float | None, clock: PausableClock
    ) -> None:
        self.connection = connection
        self.modern = connection.protocol_version in MODERN_PROTOCOL_VERSIONS
        self.asking = replace(asking, answerer=_pausing(asking.answerer, clock))
        self.log = log
        self.timeout = timeout
        self.clock = clock
        self.task_id = ""
        self.current: dict[str, Any] = {}  # the last Task object heard (a poll or a notification)
        self.woken = anyio.Event()
        self.answered: set[str] = set()  # input request keys answered (2026-07-28): each is answered once
        self.given_nothing: set[str] = set()  # of those, the ones refused, left unanswered or unanswerable

    @contextmanager
    def declared(self) -> Iterator[None]:
        """2026-07-28: the request declares the tasks extension (the tasks methods need it too)."""
        with declaring_extensions({TASKS_EXTENSION: {}} if self.modern else {}):
            yield

    def heard(self, task: dict[str, Any], source: Any) -> None:
        """A Task object, from a poll or a notification: kept, recorded, and the poller woken."""
        if task.get("taskId") not in (None, self.task_id):
            return  # another task's: never ours to take
        if self.current.get("status") in TERMINAL and task.get("status") not in TERMINAL:
            # A terminal status is final (the spec). A poll's answer made before it can come after its notification
            # (on HTTP they travel apart): taken, it sent the poller back to wait a whole poll interval.
            return
        self.current = task
        self.log.put(TaskState.of(task, self.log.era, source, self.log.since_ms()))
        self.woken.set()

    async def send(self, request: Any, timeout: float | None = None) -> dict[str, Any] | ErrorInfo | Stopped:
        with self.declared():
            bound = self.timeout if timeout is None else timeout
            return await send_asking(self.connection, lambda _extra: request, self.asking, bound)

    async def follow(self) -> TaskAnswer:
        """Poll until the task ends (listening for its status notifications on 2026-07-28); answer its questions."""
        if not self.modern:  # 2025-11-25 servers push notifications/tasks/status unasked
            return await self.poll()
        async with anyio.create_task_group() as group:
            group.start_soon(self.listen)
            try:
                answer = await self.poll()
            finally:
                group.cancel_scope.cancel()  # the stream ends with the task (the SDK tells the server)
        return answer

    async def listen(self) -> None:
        """2026-07-28: `subscriptions/listen` for this task's `notifications/tasks` (they come to `heard`).

        A server that refuses it keeps being polled; the record says so.
        """
        notifications = types.SubscriptionFilter.model_validate({"taskIds": [self.task_id]})
        request = types.SubscriptionsListenRequest(
            params=types.SubscriptionsListenRequestParams(notifications=notifications)
        )
        with self.declared():
            try:
                await self.connection.request(request, timeout=math.inf)
            except CatalogError as exc:
                self.log.said(
                    f"subscriptions/listen for the task failed, polled only: {visible(exc.info.message, 200)}"
                )

    async def poll(self) -> TaskAnswer:
        while True:
            status = self.current.get("status")
            if status in TERMINAL:
                return await self.end(str(status))
            if not isinstance(status, str) or status not in STATUSES:
                said = visible(json.dumps(status), 100)
                return make_error(ErrorKind.PROTOCOL, f"the task's status {said} is not one the spec defines").info
            if status == INPUT_REQUIRED:
                asked = await (self.answer_modern() if self.modern else self.answer_legacy())
                if asked is not None:
                    return asked
            else:
                await self.wait()
            polled = await self.send(_task_request("tasks/get", self.task_id, self.modern))
            if not isinstance(polled, dict):
                return _named("tasks/get", polled)
            self.heard(polled, "get")

    async def wait(self) -> None:
        """Until the next poll is due, or a notification says something new."""
        self.woken = anyio.Event()
        interval = self.current.get("pollIntervalMs" if self.modern else "pollInterval")
        with anyio.move_on_after(poll_delay(interval)):
            await self.woken.wait()

    async def answer_modern(self) -> TaskAnswer | None:
        """2026-07-28: answer the questions not answered yet with tasks/update (None: go on polling)."""
        requests = self.current.get("inputRequests")
        if not isinstance(requests, dict):
            return make_error(ErrorKind.PROTOCOL, "the input_required task has no inputRequests object").info
        new = {str(key): request for key, request in requests.items() if str(key) not in self.answered}
        if not new:
            if any(str(key) in self.given_nothing for key in requests):
                # Asked again after an update that gave nothing: waiting would only run out the deadline.
                words = "the task asked again what was refused or not answered; nothing more was sent"
                return Stopped("rounds_exceeded", words, self.current)
            await self.wait()  # answered already: the server has not taken the answers in yet
            return None
        too_big = _oversized(new, self.asking.max_ask_bytes)
        if too_big is not None:
            return make_error(ErrorKind.PROTOCOL, too_big).info
        index = len(self.asking.log.rounds) + 1
        asks = [_ask_of(key, request, self.asking.server) for key, request in new.items()]
        entry = Round(index, "modern", tuple(asks), latency_ms=self.log.since_ms())
        self.asking.log.put(entry)
        if index > self.asking.max_rounds:
            words = f"the task was still asking after {self.asking.max_rounds} rounds; it was cancelled"
            return Stopped("rounds_exceeded", words, self.current)
        answers: tuple[InputAnswer, ...] = await _answer_all(asks, self.asking)
        self.asking.log.put(replace(entry, responses=answers))
        invalid = next((answer for answer in answers if answer.problems), None)
        if invalid is not None:
            return Stopped("input_invalid", _invalid_words(invalid).replace("nothing more", "no answer"), self.current)
        self.answered.update(new)
        self.given_nothing.update(a.key for a in answers if a.key is not None and (a.unanswered or a.response is None))
        responses = {a.key: a.response for a in answers if a.key is not None and a.response is not None}
        acked = await self.send(_task_request("tasks/update", self.task_id, True, inputResponses=responses))
        return None if isinstance(acked, dict) else _named("tasks/update", acked)

    async def answer_legacy(self) -> TaskAnswer:
        """2025-11-25: tasks/result, which the server answers once the task has ended (its questions on the way).

        It blocks for as long as the task works, so the request timeout does not bound it: the task's
        deadline (the run's clock) does.
        """
        result = await self.send(_task_request("tasks/result", self.task_id, False), timeout=math.inf)
        with anyio.move_on_after(self.timeout if self.timeout is not None else CANCEL_TIMEOUT):
            polled = await self.send(_task_request("tasks/get", self.task_id, False))
            if isinstance(polled, dict):
                self.heard(polled, "get")  # the status it ended with, for the record
        return result if isinstance(result, dict) else _named("tasks/result", result)

    async def end(self, status: str) -> TaskAnswer:
        """The end the task reached: its result, its error, or that the server cancelled it."""
        said = self.current.get("statusMessage")
        words = f" ({visible(said, TEXT_LIMIT)})" if isinstance(said, str) and said else ""
        if status == CANCELLED:
            message = f"the server ended the task as cancelled without being asked to{words}"
            return Ended("task_cancelled", ErrorInfo(ErrorKind.CANCELLED, message))
        if not self.modern:
            return await self.answer_legacy()
        if status == COMPLETED:
            result = self.current.get("result")
            if isinstance(result, dict):
                return result
            return make_error(ErrorKind.PROTOCOL, "the completed task carries no result object").info
        assert status == FAILED
        return _task_error(self.current.get("error"), words)

    async def cancel(self) -> None:
        """tasks/cancel, bounded and shielded: sent while something else ends the task."""
        if not self.task_id or self.log.status in TERMINAL:
            return
        self.log.mark_cancel_sent()
        with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_TIMEOUT) as scope:
            with self.declared():
                try:
                    answer = await self.connection.request(
                        _task_request("tasks/cancel", self.task_id, self.modern), timeout=CANCEL_TIMEOUT
                    )
                except CatalogError as exc:  # said on the record: the call's own end is what it reports
                    self.log.said(f"tasks/cancel failed: {visible(exc.info.message, TEXT_LIMIT)}")
                    return
            if not self.modern and answer.result.get("taskId") == self.task_id:
                self.heard(answer.result, "cancel")  # 2025-11-25 answers with the task as it is now
        if scope.cancelled_caught:
            self.log.said(f"tasks/cancel got no answer within {CANCEL_TIMEOUT:g} s")


def _pausing(answerer: Answerer | None, clock: PausableClock) -> Answerer | None:
    """`answerer`, with the task's deadline stopped while it answers (a person's time is not the server's)."""
    if answerer is None:
        return None

    async def answer(ask: InputAsk) -> InputAnswer:
        clock.pause(True)
        try:
            return await answerer(ask)
        finally:
            clock.pause(False)

    return answer


def _named(method: str, stopped: ErrorInfo | Stopped) -> ErrorInfo | Stopped:
    """An error of one of the task's own requests, saying which."""
    if isinstance(stopped, Stopped):
        return stopped
    return replace(stopped, message=f"{method}: {stopped.message}")


def _task_error(error: Any, words: str) -> ErrorInfo:
    """A failed task's JSON-RPC error (2026-07-28), as the layer a JSON-RPC error answer would be."""
    if not isinstance(error, dict):
        message = f"the task failed{words} and carries no error object, as the tasks extension requires"
        return make_error(ErrorKind.PROTOCOL, message).info
    code = error.get("code")
    said = error.get("message")
    text = visible(said, TEXT_LIMIT) if isinstance(said, str) else "(no message)"
    number = code if isinstance(code, int) and not isinstance(code, bool) else None
    details = {"code": number, "message": said if isinstance(said, str) else text, "data": error.get("data")}
    return make_error(
        ErrorKind.SERVER_ERROR, f"the task failed with an error: {text}", code=number, details=details
    ).info


def _oversized(requests: dict[str, Any], cap: int) -> str | None:
    for key, request in requests.items():
        size = len(json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        if size > cap:
            return f"the task's input request {visible(key, 100)!r} is over {cap:,} bytes"
    return None


async def run_as_task(
    connection: Connection,
    name: str,
    arguments: dict[str, Any] | None,
    asking: Asking,
    log: TaskLog,
    timeout: float | None,
    progress: Progress | None = None,
) -> TaskAnswer:
    """Call `name` as a task on `connection` and follow it to its end, within the entry's task deadline.

    `log` is filled as the task goes (its era, id, statuses, progress, whether it was
    cancelled); `asking` answers its questions and keeps their rounds; `timeout` bounds each
    request; `progress` hears the task's progress (2025-11-25). A caller that cancels this
    gets `tasks/cancel` sent first.
    """
    deadline = connection.limits.task_deadline
    clock = PausableClock(deadline)
    run = _Run(connection, asking, log, timeout, clock)
    log.era = "modern" if run.modern else "legacy"
    log.started = time.perf_counter()  # the log may be older than the call (made before the walk)
    token = f"task-{secrets.token_hex(8)}"

    async def heard_progress(value: float, total: float | None, message: str | None) -> None:
        log.put_progress(value, total, message)
        if progress is not None:
            await progress(value, total, message)

    extra: dict[str, Any] = {}
    if not run.modern:
        ttl = int(deadline * 1000) if math.isfinite(deadline) else None
        extra = {"task": {"ttl": ttl} if ttl is not None else {}, "_meta": {"progressToken": token}}
    create = call_tool_attempt(name, arguments)
    answer: TaskAnswer | None = None
    clock.start()
    try:
        with clock.scope, connection.tasks.progress_of(token, heard_progress):
            with run.declared():
                created = await send_asking(connection, lambda more: create({**extra, **more}), run.asking, timeout)
            if not isinstance(created, dict):
                return created
            task = task_of(created, run.modern)
            if task is None:
                log.said("the server answered with the call's result: it made no task")
                return created
            task_id = task.get("taskId")
            if not isinstance(task_id, str) or not task_id:
                return make_error(ErrorKind.PROTOCOL, "the server made a task without a taskId string").info
            run.task_id = log.task_id = task_id
            run.heard(task, "created")
            with connection.tasks.status_of(task_id, lambda said: run.heard(said, "notification")):
                answer = await run.follow()
    except anyio.get_cancelled_exc_class():
        await run.cancel()  # the caller stopped the call: the server is told to stop the task too
        raise
    if answer is None:  # the deadline ran out
        await run.cancel()
        if not log.task_id:
            message = f"the server did not answer the call within the task deadline of {deadline:g} s"
        else:
            message = f"the task did not end within the task deadline of {deadline:g} s"
        sent = "; tasks/cancel was sent" if log.cancel_sent else ""
        return Ended("timeout", ErrorInfo(ErrorKind.TIMEOUT, message + sent))
    if isinstance(answer, Stopped) or (isinstance(answer, ErrorInfo) and log.status not in TERMINAL):
        await run.cancel()  # given up on our side: the task must not go on without anyone waiting for it
    return answer
