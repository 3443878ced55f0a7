"""Sending test requests raw on a live connection: `tools/call` judged against the accepted snapshot,
`resources/read` and `prompts/get` shown as they come.

Each ends in a `core.calls.CallOutcome`: the layer it stopped at (an unknown tool,
local and never sent; the transport; a JSON-RPC error; a tool's `isError: true`;
a result), with the error or the verdict, and the server's log messages for it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import anyio
from mcp.shared.dispatcher import ProgressFnT
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catalog_inspector.core.calls import (
    TASKS_EXTENSION,
    CallOutcome,
    Judge,
    Layer,
    Round,
    TaskLog,
    find_tool,
    judge_in_process,
    layer_of,
    task_support,
)
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from catalog_inspector.core.session.asking import (
    Asking,
    Attempt,
    Stopped,
    call_tool_attempt,
    get_prompt_attempt,
    read_resource_attempt,
    send_asking,
)
from catalog_inspector.core.session.connection import Connection
from catalog_inspector.core.session.logs import OnLog, RequestLogs
from catalog_inspector.core.session.tasks import Ended, run_as_task, task_of

__all__ = ["OnLog", "Progress", "call_tool", "get_prompt", "read_resource"]

Progress = ProgressFnT
"""Receives a request's progress notifications: `async (progress, total or None, message or None)`."""


async def call_tool(
    connection: Connection,
    snapshot: Snapshot,
    name: str,
    arguments: dict[str, Any] | None,
    timeout: float | None = None,
    judge: Judge = judge_in_process,
    progress: Progress | None = None,
    asking: Asking | None = None,
    send_excluded: bool = False,
    task: TaskLog | None = None,
    on_log: OnLog | None = None,
) -> CallOutcome:
    """Call `name` on `connection` and check the result against `snapshot`'s schema for it.

    A tool conforming 2026-07-28 clients exclude (an invalid `x-mcp-header`) is not called
    unless `send_excluded`: this is an inspector, so it can be, but only on purpose. On
    Streamable HTTP, an argument mirrored into a header line too long to travel is refused
    before sending (`invalid_arguments`, nothing sent).

    `judge` checks the result; the default runs in this thread without a time limit.
    `progress` receives the server's progress notifications while the call runs.
    `asking` answers the server's questions (default: nobody; each is closed unanswered).
    An `input_required` answer is never a result: its rounds are answered until one is.
    `task` runs the call as a task and is filled as it goes (`core.session.tasks`); a tool whose
    `execution.taskSupport` is `required` runs as one anyway, as a conforming client must.
    `on_log` hears the server's log messages for it as they come; the outcome keeps them (bounded).
    """
    tool = find_tool(snapshot, name)
    if tool is None:
        message = f"{name!r} is not in the accepted catalog; nothing was sent"
        return CallOutcome("unknown_tool", error=ErrorInfo(ErrorKind.NOT_SENT, message))
    excluded = connection.param_headers.excluded.get(name)
    if excluded is not None and not send_excluded:
        message = f"conforming 2026-07-28 clients exclude {name!r} ({excluded}); nothing was sent"
        return CallOutcome("excluded_tool", error=ErrorInfo(ErrorKind.NOT_SENT, message))
    if connection.spec.transport == "http" and (too_long := connection.param_headers.too_long(name, arguments)):
        # An argument a header cannot carry: refused here, not as an opaque 431 or a closed connection.
        return CallOutcome("invalid_arguments", error=ErrorInfo(ErrorKind.NOT_SENT, too_long))
    asking = _asking_for(connection, asking)
    task = _task_for(connection, tool, task)
    start = asking.log.clock()
    with connection.messages.collecting(on_log) as logs:
        if task is not None:
            answered = await run_as_task(connection, name, arguments, asking, task, timeout, progress)
        else:
            answered = await send_asking(connection, call_tool_attempt(name, arguments), asking, timeout, progress)
            if isinstance(answered, dict) and task_of(answered, _modern(connection)) is not None:
                message = "the server answered with a task, although the call did not ask for one"
                answered = ErrorInfo(ErrorKind.PROTOCOL, message)
        await _heard_out()
    latency = (asking.log.clock() - start) * 1000 - asking.log.answering_ms  # the server's time, not the person's
    rounds = tuple(asking.log.rounds)
    record = task.record() if task is not None else None
    if isinstance(answered, Ended):
        ended = CallOutcome(answered.layer, error=answered.error, latency_ms=latency, rounds=rounds, task=record)
        return _with_logs(ended, logs)
    if isinstance(answered, ErrorInfo | Stopped):
        return _with_logs(replace(_stopped(answered, latency, rounds), task=record), logs)
    verdict = await judge(tool, answered)
    layer: Layer = "tool_error" if answered.get("isError") is True else "ok"
    return _with_logs(CallOutcome(layer, answered, verdict, latency_ms=latency, rounds=rounds, task=record), logs)


def _modern(connection: Connection) -> bool:
    return connection.protocol_version in MODERN_PROTOCOL_VERSIONS


def _task_for(connection: Connection, tool: dict[str, Any], task: TaskLog | None) -> TaskLog | None:
    """The log of the task the call runs as (None: a plain call), with what a conforming client would say."""
    support = task_support(tool)
    if task is None and support == "required":
        task = TaskLog()
        task.said("run as a task: the tool's execution.taskSupport is required")
    if task is None:
        return None
    if _modern(connection):  # no taskSupport on this era: the server decides, call by call
        extensions = connection.capabilities.get("extensions")
        if not (isinstance(extensions, dict) and TASKS_EXTENSION in extensions):
            task.said(f"the server does not declare the {TASKS_EXTENSION} extension")
    else:
        tasks = connection.capabilities.get("tasks")
        requests = tasks.get("requests") if isinstance(tasks, dict) else None
        tools = requests.get("tools") if isinstance(requests, dict) else None
        if not (isinstance(tools, dict) and "call" in tools):
            task.said("the server does not declare tasks.requests.tools.call: a conforming client would not ask")
        if support not in ("required", "optional"):
            said = "does not declare execution.taskSupport" if support is None else f"declares taskSupport {support!r}"
            task.said(f"the tool {said}: a conforming client would not run it as a task")
    return task


async def _heard_out() -> None:
    """Let the message handler finish with what arrived before the answer: the SDK hands each notification to
    a task of its own, started before the answer wakes the caller, so one turn of the loop lets them run."""
    await anyio.lowlevel.checkpoint()


def _with_logs(outcome: CallOutcome, logs: RequestLogs) -> CallOutcome:
    return replace(outcome, logs=logs.kept(), logs_dropped=logs.dropped)


def _asking_for(connection: Connection, asking: Asking | None) -> Asking:
    """`asking`, or nobody to answer (roots from the server's entry, its rounds budget)."""
    return asking if asking is not None else Asking.of(connection.spec, connection.limits)


def _stopped(answered: ErrorInfo | Stopped, latency: float, rounds: tuple[Round, ...]) -> CallOutcome:
    if isinstance(answered, Stopped):
        error = ErrorInfo(ErrorKind.PROTOCOL, answered.message)
        return CallOutcome(answered.layer, answered.result, error=error, latency_ms=latency, rounds=rounds)
    return CallOutcome(layer_of(answered.kind), error=answered, latency_ms=latency, rounds=rounds)


async def read_resource(
    connection: Connection,
    uri: str,
    timeout: float | None = None,
    asking: Asking | None = None,
    on_log: OnLog | None = None,
) -> CallOutcome:
    """`resources/read` for `uri`: the contents as sent, or the layer that stopped it."""
    return await _outcome(connection, read_resource_attempt(uri), timeout, asking, on_log)


async def get_prompt(
    connection: Connection,
    name: str,
    arguments: dict[str, str] | None,
    timeout: float | None = None,
    asking: Asking | None = None,
    on_log: OnLog | None = None,
) -> CallOutcome:
    """`prompts/get` for `name` with its arguments: the messages as sent, or the layer that stopped it."""
    return await _outcome(connection, get_prompt_attempt(name, arguments), timeout, asking, on_log)


async def _outcome(
    connection: Connection, attempt: Attempt, timeout: float | None, asking: Asking | None, on_log: OnLog | None
) -> CallOutcome:
    """Send a request whose result is shown as it is (nothing to judge): `ok` or the layer that stopped it."""
    asking = _asking_for(connection, asking)
    start = asking.log.clock()
    with connection.messages.collecting(on_log) as logs:
        answered = await send_asking(connection, attempt, asking, timeout)
        await _heard_out()
    latency = (asking.log.clock() - start) * 1000 - asking.log.answering_ms  # the server's time, not the person's
    rounds = tuple(asking.log.rounds)
    if isinstance(answered, ErrorInfo | Stopped):
        return _with_logs(_stopped(answered, latency, rounds), logs)
    return _with_logs(CallOutcome("ok", answered, latency_ms=latency, rounds=rounds), logs)
