"""Test calls: send `tools/call` raw and judge the result against the accepted snapshot.

Four failure layers stay distinct: an unknown tool (local, nothing sent), the
transport (closed, timed out), a JSON-RPC error response, and a result with
`isError: true` (the server answered; the tool failed). Reading a resource and
getting a prompt are sent the same way, with the same layers where they apply.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import mcp_types as types
from mcp.shared.dispatcher import ProgressFnT

from catalog_inspector.core.connection import Connection
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind
from catalog_inspector.core.snapshot import Snapshot
from catalog_inspector.core.validation import ResultVerdict, check_result

__all__ = [
    "LAYER_WORDS",
    "CallOutcome",
    "Judge",
    "Progress",
    "call_tool",
    "find_tool",
    "get_prompt",
    "judge_in_process",
    "read_resource",
]

Layer = Literal[
    "ok", "tool_error", "unknown_tool", "server_error", "timeout", "connection", "protocol", "cut_off", "cancelled"
]
# ok            the server answered with a result (its verdict says how it measures up to the schema)
# tool_error    the server answered; the tool failed (isError: true)
# unknown_tool  not in the accepted catalog: nothing was sent
# server_error  a JSON-RPC error response
# timeout       no answer within the call's timeout (the server was sent a cancellation)
# connection    the transport closed or the process died
# protocol      the answer was malformed
# cut_off       a refresh replaced the session the call was made on, and it closed before the answer
# cancelled     the user stopped the call (the SDK sent notifications/cancelled)

# What each layer means to a person: a heading, and whether the request reached the server.
LAYER_WORDS: dict[str, tuple[str, bool]] = {
    "ok": ("The server answered", True),
    "tool_error": ("Tool error: the server answered with isError: true", True),
    "unknown_tool": ("Unknown tool: not in the accepted catalog, nothing was sent", False),
    "invalid_arguments": ("Invalid arguments: nothing was sent", False),
    "server_error": ("JSON-RPC error: the server refused the request", True),
    "timeout": ("Timeout: no answer in time (the server was told to cancel)", True),
    "connection": ("Connection: the transport closed or the server process is gone", True),
    "protocol": ("Protocol: the answer was malformed", True),
    "cut_off": ("Cut off: a refresh replaced the session before the answer came", True),
    "cancelled": ("Cancelled: you stopped the call (the server was told to cancel)", True),
}

Progress = ProgressFnT
"""Receives a request's progress notifications: `async (progress, total or None, message or None)`."""


@dataclass(frozen=True)
class CallOutcome:
    """What a test call produced, and at which layer it stopped."""

    layer: Layer
    result: dict[str, Any] | None = None
    verdict: ResultVerdict | None = None
    error: ErrorInfo | None = None
    latency_ms: float = 0.0


def find_tool(snapshot: Snapshot, name: str) -> dict[str, Any] | None:
    if snapshot.tools.status != "complete":
        return None
    return next((t for t in snapshot.tools.items if t.get("name") == name), None)


Judge = Callable[[dict[str, Any], dict[str, Any]], Awaitable[ResultVerdict]]
"""Checks a raw result against a raw tool's output schema (the app's is bounded, in the sandbox process)."""


async def judge_in_process(tool: dict[str, Any], result: dict[str, Any]) -> ResultVerdict:
    """`check_result` in this thread, with no time limit (the CLI's judge)."""
    return check_result(tool, result)


async def call_tool(
    connection: Connection,
    snapshot: Snapshot,
    name: str,
    arguments: dict[str, Any] | None,
    timeout: float | None = None,
    judge: Judge = judge_in_process,
    progress: Progress | None = None,
) -> CallOutcome:
    """Call `name` on `connection` and check the result against `snapshot`'s schema for it.

    `judge` checks the result; the default runs in this thread without a time limit.
    `progress` receives the server's progress notifications while the call runs.
    """
    tool = find_tool(snapshot, name)
    if tool is None:
        message = f"{name!r} is not in the accepted catalog; nothing was sent"
        return CallOutcome("unknown_tool", error=ErrorInfo(ErrorKind.PROTOCOL, message))
    request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
    start = time.perf_counter()
    answered = await _send(connection, request, timeout, progress)
    latency = (time.perf_counter() - start) * 1000
    if isinstance(answered, ErrorInfo):
        return CallOutcome(_LAYERS.get(answered.kind, "connection"), error=answered, latency_ms=latency)
    verdict = await judge(tool, answered)
    layer: Layer = "tool_error" if answered.get("isError") is True else "ok"
    return CallOutcome(layer, answered, verdict, latency_ms=latency)


_LAYERS: dict[ErrorKind, Layer] = {
    ErrorKind.SERVER_ERROR: "server_error",
    ErrorKind.TIMEOUT: "timeout",
    ErrorKind.PROTOCOL: "protocol",
}


async def _send(
    connection: Connection, request: Any, timeout: float | None, progress: Progress | None = None
) -> dict[str, Any] | ErrorInfo:
    """The result as the server sent it, or the classified error (a JSON-RPC error, a timeout …)."""
    try:
        return (await connection.request(request, timeout=timeout, progress=progress)).result
    except CatalogError as exc:
        return exc.info


async def read_resource(connection: Connection, uri: str, timeout: float | None = None) -> CallOutcome:
    """`resources/read` for `uri`: the contents as sent, or the layer that stopped it."""
    return await _outcome(connection, types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=uri)), timeout)


async def get_prompt(
    connection: Connection, name: str, arguments: dict[str, str] | None, timeout: float | None = None
) -> CallOutcome:
    """`prompts/get` for `name` with its arguments: the messages as sent, or the layer that stopped it."""
    request = types.GetPromptRequest(params=types.GetPromptRequestParams(name=name, arguments=arguments))
    return await _outcome(connection, request, timeout)


async def _outcome(connection: Connection, request: Any, timeout: float | None) -> CallOutcome:
    """Send a request whose result is shown as it is (nothing to judge): `ok` or the layer that stopped it."""
    start = time.perf_counter()
    answered = await _send(connection, request, timeout)
    latency = (time.perf_counter() - start) * 1000
    if isinstance(answered, ErrorInfo):
        return CallOutcome(_LAYERS.get(answered.kind, "connection"), error=answered, latency_ms=latency)
    return CallOutcome("ok", answered, latency_ms=latency)
