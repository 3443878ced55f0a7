"""Sending test requests raw on a live connection: `tools/call` judged against the accepted snapshot,
`resources/read` and `prompts/get` shown as they come.

Each ends in a `core.calls.CallOutcome`: the layer it stopped at (an unknown tool,
local and never sent; the transport; a JSON-RPC error; a tool's `isError: true`;
a result), with the error or the verdict.
"""

from __future__ import annotations

import time
from typing import Any

import mcp_types as types
from mcp.shared.dispatcher import ProgressFnT

from catalog_inspector.core.calls import CallOutcome, Judge, Layer, find_tool, judge_in_process, layer_of
from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.errors import CatalogError, ErrorInfo, ErrorKind
from catalog_inspector.core.session.connection import Connection

__all__ = ["Progress", "call_tool", "get_prompt", "read_resource"]

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
) -> CallOutcome:
    """Call `name` on `connection` and check the result against `snapshot`'s schema for it.

    `judge` checks the result; the default runs in this thread without a time limit.
    `progress` receives the server's progress notifications while the call runs.
    """
    tool = find_tool(snapshot, name)
    if tool is None:
        message = f"{name!r} is not in the accepted catalog; nothing was sent"
        return CallOutcome("unknown_tool", error=ErrorInfo(ErrorKind.NOT_SENT, message))
    request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
    start = time.perf_counter()
    answered = await _send(connection, request, timeout, progress)
    latency = (time.perf_counter() - start) * 1000
    if isinstance(answered, ErrorInfo):
        return CallOutcome(layer_of(answered.kind), error=answered, latency_ms=latency)
    verdict = await judge(tool, answered)
    layer: Layer = "tool_error" if answered.get("isError") is True else "ok"
    return CallOutcome(layer, answered, verdict, latency_ms=latency)


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
    return await _outcome(
        connection, types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=uri)), timeout
    )


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
        return CallOutcome(layer_of(answered.kind), error=answered, latency_ms=latency)
    return CallOutcome("ok", answered, latency_ms=latency)
