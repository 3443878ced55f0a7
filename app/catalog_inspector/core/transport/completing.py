"""Two 2026-07-28 rules for clients the SDK's result check does not follow, applied before it.

A result without `resultType` is complete:

"For backward compatibility with servers implementing earlier protocol versions, which
do not include `resultType`, clients MUST treat an absent `resultType` as "complete""
(2026-07-28, basic/index). The SDK's per-version result check requires the field
instead, and would refuse such a result as malformed. `CompletingReadStream` sits
between the transport and the session: on a modern session it writes
`"resultType": "complete"` into a response that lacks it and notes its id, so
`Connection.request` can take the field out again and the result is shown exactly as
the server sent it.

An `input_required` result may carry an input request of a method this client does not
know (a later revision's, or a mistake): the SDK's check refuses the whole result, while
the rest of the question can still be answered and the unknown one left out of the
retry, as a server that asks for what it needs expects. Such entries are taken out
before the check and put back by `taken_back`, so the driver sees the whole question and
answers the unknown key with an error of its own.

A list result's cache hints are kept whatever they are: the SDK floors a negative
`ttlMs` to 0 before its check, and the check refuses a whole page whose `ttlMs` is not
an integer >= 0 or whose `cacheScope` is neither "public" nor "private" (or that lacks
one: servers must send both). An inspector keeps such a page and warns about its hints
(`core.catalog.caching`). For the list requests the session sends (`sent` notes them),
hints the check would refuse or change are set aside before it, a harmless stand-in
written in, and `taken_back` puts back what the server sent (or takes the stand-in out).

A 2025-11-25 task-augmented `tools/call` is answered with `{"task": {...}}` (a
`CreateTaskResult`), which the SDK checks as a `CallToolResult` (it has no tasks
client) and refuses for its missing `content`. On an older-era session such an answer
is set aside before the check (a bare `{"content": []}` goes through in its place) and
given back whole by `taken_back`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import mcp_types as types

from catalog_inspector.core.transport.classify import INPUT_METHODS
from catalog_inspector.core.transport.sizes import RequestId
from catalog_inspector.core.transport.streams import WrappedReadStream

__all__ = ["CompletingReadStream"]

T = TypeVar("T")
MAX_NOTED = 10_000  # ids of completed results not yet taken back (a bound, as for response sizes)
LIST_METHODS = frozenset({"tools/list", "resources/list", "resources/templates/list", "prompts/list"})
# What the SDK's check takes without a word or a change, written in for a hint it would not.
_STAND_INS: dict[str, Any] = {"ttlMs": 0, "cacheScope": "private"}
_ABSENT = object()  # the server sent no such key
_SDK_INT = 2**63  # pydantic's integers are exact only below this; a bigger ttlMs is set aside too


class CompletingReadStream(WrappedReadStream[T]):
    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.modern: Callable[[], bool] = lambda: False
        self.completed: set[RequestId] = set()
        self.unknown: dict[RequestId, dict[str, Any]] = {}
        self.lists: set[RequestId] = set()  # list requests sent, not yet answered
        self.hints: dict[RequestId, dict[str, Any]] = {}  # cache hints set aside, by request id
        self.tasks: dict[RequestId, dict[str, Any]] = {}  # 2025-11-25 CreateTaskResults set aside, by request id
        self.calls: set[RequestId] = set()  # tools/call requests sent, not yet answered (only they create tasks)

    def sent(self, message: types.JSONRPCRequest) -> None:
        """The session sent `message`: a list request's answer will have its cache hints kept."""
        if message.method in LIST_METHODS and len(self.lists) < MAX_NOTED:
            self.lists.add(message.id)
        elif message.method == "tools/call" and len(self.calls) < MAX_NOTED:
            self.calls.add(message.id)

    def forget(self, request_id: RequestId) -> None:
        """The request ended without a result to take back (an error, a timeout): drop what was noted for it."""
        self.lists.discard(request_id)
        self.calls.discard(request_id)
        self.hints.pop(request_id, None)
        self.completed.discard(request_id)
        self.unknown.pop(request_id, None)
        self.tasks.pop(request_id, None)

    async def receive(self) -> T:
        item: T = await self._inner.receive()
        message = getattr(item, "message", None)
        answered_call = False
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and message.id in self.calls:
            self.calls.discard(message.id)
            answered_call = True
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) and message.id in self.lists:
            self.lists.discard(message.id)
            if isinstance(message, types.JSONRPCResponse) and isinstance(message.result, dict) and self.modern():
                self._set_aside_hints(message.id, message.result)
        if (
            isinstance(message, types.JSONRPCResponse)
            and isinstance(message.result, dict)
            and "resultType" not in message.result
            and self.modern()
        ):
            message.result["resultType"] = "complete"
            if len(self.completed) < MAX_NOTED:
                self.completed.add(message.id)
        elif isinstance(message, types.JSONRPCResponse) and isinstance(message.result, dict) and self.modern():
            self._set_aside_unknown(message.id, message.result)
        elif isinstance(message, types.JSONRPCResponse) and answered_call and _created_task(message.result):
            if len(self.tasks) < MAX_NOTED:
                self.tasks[message.id] = message.result
                message.result = {"content": []}
        return item

    def _set_aside_hints(self, request_id: RequestId, result: dict[str, Any]) -> None:
        if result.get("resultType", "complete") != "complete":
            return  # an interim result carries no hints; the check is right to judge it as it is
        kept = {key: result.get(key, _ABSENT) for key in _STAND_INS}
        taken = {key: value for key, value in kept.items() if not _acceptable(key, value)}
        if taken and len(self.hints) < MAX_NOTED:
            result.update({key: _STAND_INS[key] for key in taken})
            self.hints[request_id] = taken

    def _set_aside_unknown(self, request_id: RequestId, result: dict[str, Any]) -> None:
        requests = result.get("inputRequests")
        if result.get("resultType") != "input_required" or not isinstance(requests, dict):
            return
        unknown = {
            key: request
            for key, request in requests.items()
            if not (isinstance(request, dict) and request.get("method") in INPUT_METHODS)
        }
        left = len(requests) - len(unknown)
        if not unknown or (left == 0 and not isinstance(result.get("requestState"), str)):
            return  # nothing unknown, or nothing would be left to take: the check says what is wrong
        if len(self.unknown) >= MAX_NOTED:
            return
        for key in unknown:
            del requests[key]
        if not requests:
            del result["inputRequests"]
        self.unknown[request_id] = unknown

    def taken_back(self, request_id: RequestId, result: dict[str, Any]) -> dict[str, Any]:
        """`result` as the server sent it: without the `resultType` written in for request `request_id`, with the
        input requests and the cache hints set aside put back; a task set aside in its place."""
        task = self.tasks.pop(request_id, None)
        if task is not None:
            return task
        if request_id in self.completed:
            self.completed.discard(request_id)
            result.pop("resultType", None)
        for key, value in self.hints.pop(request_id, {}).items():
            if value is _ABSENT:
                result.pop(key, None)
            else:
                result[key] = value
        self.lists.discard(request_id)
        unknown = self.unknown.pop(request_id, None)
        if unknown is not None:
            requests = result.setdefault("inputRequests", {})
            if isinstance(requests, dict):
                requests.update(unknown)
        return result


def _acceptable(key: str, value: Any) -> bool:
    """The SDK's check takes this hint as it is (no floor, no refusal)."""
    if key == "ttlMs":
        return type(value) is int and 0 <= value < _SDK_INT
    return value in ("public", "private")


def _created_task(result: Any) -> bool:
    """A 2025-11-25 `CreateTaskResult`: a `task` object with a string `taskId`, and no call result's `content`."""
    if not isinstance(result, dict) or "content" in result:
        return False
    task = result.get("task")
    return isinstance(task, dict) and isinstance(task.get("taskId"), str)
